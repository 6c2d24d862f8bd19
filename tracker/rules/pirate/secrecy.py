"""What only the GM knows in a pirate duel: nothing, every roll is made in the open; but an insult
chosen in secret before a wit exchange is sealed for everyone, the GM included, until both have chosen."""
from __future__ import annotations

HIDDEN_FROM_PLAYERS: tuple[str, ...] = ()
GM_DETAILS: dict = {}


def secrets(state: dict) -> list[str]:
    """No secrets to tell."""
    return []


# The fields of an event no reader is ever shown (the log's event pages, the API's answers): the
# insult and the words are told when thrown (PirateInsultTraded), never from the choice.
SEALED = {"PirateInsultChosen": ("insult", "line", "die")}


def seen_by(state: dict, audience: str) -> dict:
    """The state as one reader may see it, decided here and nowhere else: a sealed insult only as
    "has chosen" (its own seat sees it and its line); everything else is in the open."""
    shown = dict(state)
    if state["settings"].get("choices") != "sealed":
        return shown  # nothing chosen in secret: everything is in the open
    seat = audience.removeprefix("seat:") if audience.startswith("seat:") else None
    sealed = state.get("sealed") or {}
    shown["sealed"] = {side: (dict(choice) if side == seat else {}) for side, choice in sealed.items()}
    shown["chosen"] = sorted(sealed)
    return shown
