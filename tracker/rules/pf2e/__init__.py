"""Pathfinder 2e duels (GMG pp.166–167): combat, spellcasting and mixed duels.

Combat duels roll initiative every round with a secret skill that grants a dueling reaction;
spellcasting duels roll once and gain a tradition focus with Dueling Counter; the judge
confirms the victory the rules propose. The files every ruleset has (see ``tracker.rules``),
and the helpers ``checks`` (degrees of success), ``table`` (who is who at the table), ``rounds``
(initiative, turns, tags), ``strikes``, ``spells`` and ``ending``, which ``decide`` hands to.
"""
from __future__ import annotations

from tracker.rules.duel import whole_suffix

from . import samples
from .commands import COMMANDS, SEAT_COMMANDS
from .decide import decide
from .describe import describe
from .fold import evolve
from .invariants import invariants
from .history import HISTORY_EVENTS, STATISTICS, TURNS_LABEL, history_facts
from .secrecy import GM_DETAILS, HIDDEN_FROM_PLAYERS, SEALED, secrets, seen_by
from .setup import SETUP, start
from .sheet import STATS, TRACKS, validate_stats
from .terms import KINDS, MAX_PER_SIDE, NAME, TITLE
from .board import board, choices
from .view import actions, assumptions, progress, public, seat_actions

# Every PF2e event stands on the ones before it (the order, HP, reactions, slots, a proposal):
# a retraction rewinds the duel to just before the command it names.
retraction_carries = whole_suffix

__all__ = ["NAME", "TITLE", "KINDS", "STATS", "TRACKS", "SETUP", "COMMANDS", "validate_stats", "start",
           "decide", "evolve", "actions", "describe", "public", "assumptions", "progress", "TURNS_LABEL",
           "HISTORY_EVENTS", "STATISTICS", "history_facts", "HIDDEN_FROM_PLAYERS", "GM_DETAILS", "secrets", "seen_by", "SEALED", "SEAT_COMMANDS", "seat_actions", "samples", "retraction_carries", "invariants"]
