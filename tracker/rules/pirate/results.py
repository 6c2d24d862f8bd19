"""The numbers of each resolved pirate step, as data: the structured twin of its history line.
Every roll is made in the open, so each event's own fields are its result."""
from __future__ import annotations

from tracker.rules.duel import fields_of, other

from .events import (
    PirateDuelistFell, PirateInitiativeRolled, PirateInsultTraded, PirateShotFired, PirateSwordAttacked,
    PirateWorthinessMarked,
)

STRIKES = (PirateSwordAttacked, PirateShotFired, PirateInsultTraded)


def result(state: dict, ev) -> dict | None:
    """The numbers of ``ev`` given the state before it: the d20s and the one kept, the edge, the
    total against the defence, hit or miss, the damage; None for a step without any."""
    if isinstance(ev, STRIKES):
        return fields_of(ev, target=other(ev.side))
    if isinstance(ev, (PirateInitiativeRolled, PirateDuelistFell, PirateWorthinessMarked)):
        return fields_of(ev)
    return None
