"""Pathfinder 2e duels' vocabulary: the name, the kinds of duel, the teams and the victories."""
from __future__ import annotations
from tracker.rules.duel import name_endings
from tracker.rules.text import t


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

# PF2e's words read as the books of the reader's language name them (Strike: Golpe, Deception:
# Engaño, DC: CD), each a message of this ruleset's catalog; docs/glossary.md lists the English
# names beside the Spanish. None is kept as it is.
GAME_TERMS: tuple[str, ...] = ()
