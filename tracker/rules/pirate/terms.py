"""The pirate duel's vocabulary: its name, its kinds, and what a duelist does in each."""
from __future__ import annotations

NAME = "pirate"
TITLE = "Pirate duels"
KINDS = {"sword": "Sword duel", "pistol": "Pistol duel", "wit": "Duelo de labia (wit duel)"}
VICTORIES = {"first_blood": "first blood", "hits": "a number of hits", "death": "the death"}

ACTION = {"sword": "Attack", "pistol": "Shoot", "wit": "Insult"}  # the command that strikes
VERB = {"sword": "attack", "pistol": "shoot", "wit": "insult"}


def round_word(state: dict) -> str:
    """What a round is called in this duel: an exchange of insults, or a round of blows."""
    return "Exchange" if state["kind"] == "wit" else "Round"
