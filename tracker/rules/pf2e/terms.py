"""Pathfinder 2e duels' vocabulary: the name, the kinds of duel, the teams and the victories."""
from __future__ import annotations
from tracker.rules.duel import name_endings
from tracker.rules.text import t

from .sheet import SKILL_NAMES

NAME = "pf2e"
TITLE = t("Pathfinder 2e")
MAX_PER_SIDE = 2  # pairs fighting together, or tag teams

# A declined reaction is only ever logged when the defender (or an opponent) could have
# reacted, so the line alone tells players which secret skill or focus was behind it.
HIDDEN_FROM_PLAYERS = ("Pf2eSidestepDeclined", "Pf2eCounterDeclined", "Pf2eReactionReadied", "Pf2eReactionWithdrawn")

KINDS = {"combat": t("Combat duel"), "spellcasting": t("Spellcasting duel"),
         "mixed": t("Mixed duel (combat and spells)")}
TEAMS = {"single": t("one against one"), "together": t("pairs fighting together"), "tag": t("pairs as tag teams")}
VICTORIES = {"first_blood": t("first blood"), "knockout": t("knockout"), "custom": t("a custom condition")}
name_endings({"first_blood": t("first blood"), "knockout": t("knockout"), "custom": t("custom")})

# The game's own English names, shown as they are in every language (docs/glossary.md): its actions,
# its numbers and its skills.
GAME_TERMS = ("Strike", "Bullying Press", "Dueling Counter", "Deceptive Sidestep", "Feint", "Demoralize",
              "Sense Weakness", "Change Tradition Focus", "Stride", "Raise a Shield", "Recall Knowledge", "AC", "HP",
              "DC", *SKILL_NAMES.values())
