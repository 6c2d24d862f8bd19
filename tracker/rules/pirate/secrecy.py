"""What only the GM knows in a pirate duel: nothing, every roll is made in the open."""
from __future__ import annotations

HIDDEN_FROM_PLAYERS: tuple[str, ...] = ()
GM_DETAILS: dict = {}


def secrets(state: dict) -> list[str]:
    """No secrets to tell."""
    return []
