"""What only the GM knows in a pirate duel: nothing, every roll is made in the open."""
from __future__ import annotations

HIDDEN_FROM_PLAYERS: tuple[str, ...] = ()
GM_DETAILS: dict = {}


def secrets(state: dict) -> list[str]:
    """No secrets to tell."""
    return []


def seen_by(state: dict, audience: str) -> dict:
    """The state as one reader may see it: the GM's pages and the API everything, players the public state."""
    if audience in ("gm", "api"):
        return state
    from tracker.rules.pirate.view import public

    return public(state)
