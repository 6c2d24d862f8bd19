"""Pathfinder 2e duels (GMG pp.166–167): combat, spellcasting and mixed duels.

Combat duels roll initiative every round with a secret skill that grants a dueling reaction;
spellcasting duels roll once and gain a tradition focus with Dueling Counter; the judge
confirms the victory the rules propose. The modules: ``sheet`` (stats block), ``setup``
(terms and start), ``events``, ``commands``, ``checks`` (degrees of success), ``rounds``
(initiative, turns, tags), ``strikes``, ``spells``, ``ending``, ``fold`` (evolve) and
``face`` (describe, public view, legal actions) and ``view`` (what the duel page draws).
"""
from __future__ import annotations

from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import (Abandon, Disqualify, DuelStarted, Yield, decide_ending, evolve_ending, require_running,
                                whole_suffix)

from . import commands as c
from . import ending, rounds, spells, strikes
from .commands import COMMANDS
from .describe import actions, describe, progress, public
from .fold import check, fold, started
from .invariants import invariants
from .setup import KINDS, SETUP, assumptions, start
from .sheet import STATS, TRACKS, validate_stats
from .view import board, choices

NAME = "pf2e"
TITLE = "Pathfinder 2e"
MAX_PER_SIDE = 2  # pairs fighting together, or tag teams

# Every PF2e event stands on the ones before it (the order, HP, reactions, slots, a proposal):
# a retraction rewinds the duel to just before the command it names.
retraction_carries = whole_suffix

HANDLERS = {
    c.RollInitiative: rounds.roll_initiative, c.BreakTie: rounds.break_tie, c.ActSecond: rounds.act_second,
    c.EndTurn: rounds.end_turn, c.Tag: rounds.tag,
    c.Strike: strikes.strike, c.DeceptiveSidestep: strikes.sidestep, c.DeclineSidestep: strikes.decline_sidestep,
    c.CastSpell: spells.cast, c.DuelingCounter: spells.counter, c.DeclineCounter: spells.decline_counter,
    c.ChangeTraditionFocus: spells.change_focus,
    c.ConfirmVictory: ending.confirm_victory, c.DeclineVictory: ending.decline_victory,
}
ANSWERS_PENDING = {"strike": (c.DeceptiveSidestep, c.DeclineSidestep),
                   "spell": (c.DuelingCounter, c.DeclineCounter)}
WAITING = {"strike": "the target must first use or decline Deceptive Sidestep",
           "spell": "an opponent may first use Dueling Counter or let the spell take effect"}


def decide(state: dict, command, dice: Dice) -> list:
    """The events that follow from ``command``, or Refused with the reason."""
    if isinstance(command, c.EscalateToCombat):
        return ending.escalate(state, command)
    require_running(state)
    if isinstance(command, Disqualify):
        return ending.disqualify(state, command)
    if isinstance(command, (Yield, Abandon)):
        return decide_ending(state, command)
    if state["proposal"] and not isinstance(command, (c.ConfirmVictory, c.DeclineVictory)):
        raise Refused(f"{state['proposal']['detail']}: the judge must first confirm or decline the victory")
    pending = state["pending"]
    if pending and not isinstance(command, ANSWERS_PENDING[pending["kind"]]):
        raise Refused(WAITING[pending["kind"]])
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise Refused(f"unknown command {type(command).__name__}")
    return handler(state, command, dice)


def evolve(state: dict | None, event, at: int) -> dict:
    """The state after ``event`` (the event at version ``at``), with its line in the history."""
    if isinstance(event, DuelStarted):
        new = started(event)
        return dict(new, history=[{"at": at, "text": describe(new, event)}])
    check(event, state)
    new = evolve_ending(state, event)
    if new is None:
        new = fold(event, state, at)
    return dict(new, history=state["history"] + [{"at": at, "text": describe(state, event)}])


__all__ = ["NAME", "TITLE", "KINDS", "STATS", "TRACKS", "SETUP", "COMMANDS", "validate_stats", "start",
           "decide", "evolve", "actions", "describe", "public", "assumptions", "progress",
           "retraction_carries", "invariants"]
