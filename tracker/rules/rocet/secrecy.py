"""What only the GM knows in a Rocèt duel: the hands the server dealt."""
from __future__ import annotations

HIDDEN_FROM_PLAYERS: tuple[str, ...] = ()  # every line says only what the table saw
GM_DETAILS: dict = {}


def secrets(state: dict) -> list[str]:
    """The hands at the duel's end, in words (physical cards are in the players' own hands)."""
    if state.get("mode") != "virtual":
        return []
    return [f"{state['sides'][side]['name']}'s hand: {', '.join(state['sides'][side].get('hand') or []) or 'empty'}"
            for side in sorted(state.get("sides", {}))]
