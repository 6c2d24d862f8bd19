"""The pirate duel's vocabulary: its name, its kinds, and what a duelist does in each."""
from __future__ import annotations
from tracker.rules.duel import name_endings
from tracker.rules.text import N_, Text, t

NAME = "pirate"
TITLE = t("Pirate duels")
KINDS = {"sword": t("Sword duel"), "pistol": t("Pistol duel"), "wit": t("Duelo de labia (wit duel)")}
VICTORIES = {"first_blood": t("first blood"), "hits": t("a number of hits"), "death": t("the death")}
name_endings({"first_blood": t("first blood"), "hits": t("hits"), "hit": t("hit"), "death": t("death"),
              "down": t("down"), "out_of_shots": t("out of shots"), "humiliation": t("humiliation"),
              "points": t("points"), "points_tied": t("points tied")})

ACTION = {"sword": "Attack", "pistol": "Shoot", "wit": "Insult"}  # the command that strikes
VERB = {"sword": t("attack"), "pistol": t("shoot"), "wit": t("insult")}  # what the duelist whose turn it is does
# "Lope attacks": a duelist's turn, as time travel names it.
ACTS = {"sword": N_("{name} attacks"), "pistol": N_("{name} shoots"), "wit": N_("{name} insults")}
FATES = {"down": t("down"), "dead": t("dead")}
# The game's own words, shown as they are in every language (docs/glossary.md): its stats and the
# duel of wits.
GAME_TERMS = ("ATQ", "DEF", "Iniciativa", "PV", "CAR", "SAB", "duelo de labia", "Duelo de labia")


def round_name(state: dict, number: int, capital: bool = True) -> Text:
    """A round as this duel calls it: an exchange of insults, or a round of blows ("Round 2")."""
    if state["kind"] == "wit":
        return t("Exchange {number}", number=number) if capital else t("exchange {number}", number=number)
    return t("Round {number}", number=number) if capital else t("round {number}", number=number)
