"""Rocèt fencing duels ("Duelos de Esgrima"): cards, clocks and the opposed 【DES+INT】 roll.

Each turn both duelists play a card, the Ventaja cycle gives one of them +4, and the
winner of the opposed roll applies only their own card: an attack moves their clock 2
(and they may deal PG damage), Treta/Finta move it 1 and force a discard, Insulto sets
the loser's clock back 3 and deals PM damage. Variants: clocks, primera sangre,
superioridad, ¡a muerte!. Cards are virtual (server-shuffled) or physical (counted).
"""
from __future__ import annotations

from tracker.rules.rocet.adjust import adjustable_tracks, set_track

from tracker.rules.duel import whole_suffix
from tracker.rules.rocet import samples
from tracker.rules.rocet.commands import COMMANDS, SEAT_COMMANDS
from tracker.rules.rocet.decide import decide
from tracker.rules.rocet.describe import describe, ending_detail, meter_text
from tracker.rules.rocet.fold import evolve
from tracker.rules.rocet.invariants import invariants
from tracker.rules.rocet.legal import legal_actions
from tracker.rules.rocet.history import (
    HISTORY_EVENTS, STATISTICS, TURNS_LABEL, count_turns, headline, history_facts, step_of,
)
from tracker.rules.rocet.secrecy import GM_DETAILS, HIDDEN_FROM_PLAYERS, SEALED, event_seen_by, played_on_a_seat, secrets, seen_by
from tracker.rules.rocet.setup import SETUP, setup_defaults, setup_fields, start
from tracker.rules.rocet.recovery import RECOVERIES, recover
from tracker.rules.rocet.sheet import STATS, TRACKS, validate_stats
from tracker.rules.rocet.terms import CARDS, GAME_TERMS, KINDS, NAME, TITLE
from tracker.rules.rocet.view import actions, assumptions, beats, last_rolls, progress, public, seat_actions

# Every Rocèt event stands on the ones before it (the pile, the hands, the clocks): a retraction
# rewinds the duel to just before the command it names.
retraction_carries = whole_suffix

__all__ = ["NAME", "TITLE", "KINDS", "GAME_TERMS", "STATS", "TRACKS", "SETUP", "COMMANDS", "validate_stats", "start",
           "decide", "evolve", "actions", "legal_actions", "describe", "ending_detail", "public", "assumptions", "progress",
           "last_rolls", "beats", "meter_text", "CARDS", "TURNS_LABEL", "count_turns", "HISTORY_EVENTS", "STATISTICS",
           "history_facts", "step_of", "headline", "HIDDEN_FROM_PLAYERS", "GM_DETAILS", "secrets", "seen_by", "event_seen_by", "SEALED", "SEAT_COMMANDS", "seat_actions", "played_on_a_seat", "samples", "adjustable_tracks", "set_track", "retraction_carries", "invariants",
           "RECOVERIES", "recover", "setup_fields", "setup_defaults"]

