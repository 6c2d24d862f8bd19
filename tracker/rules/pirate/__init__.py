"""Pirate duels: sword, pistol and duelo de labia (wit), d20 against a defence.

The face every ruleset shares (see ``tracker.rules``), in the files every ruleset has; the
helper ``rolls`` holds the d20 with Ventaja/Desventaja, a strike and initiative.
"""
from __future__ import annotations

from .adjust import adjustable_tracks, set_track

from tracker.rules.duel import suffix_except

from . import samples
from .commands import COMMANDS, SEAT_COMMANDS
from .decide import decide
from .describe import describe, ending_detail
from .events import PirateWorthinessMarked
from .fold import evolve
from .invariants import invariants
from .legal import legal_actions
from .history import HISTORY_EVENTS, STATISTICS, TURNS_LABEL, count_turns, headline, turns_label, history_facts, step_of
from .secrecy import GM_DETAILS, HIDDEN_FROM_PLAYERS, SEALED, secrets, seen_by
from .setup import SEATING, SETUP, setup_defaults, setup_fields, start
from .recovery import RECOVERIES, REST_SETTING, recover
from .sheet import DEFAULT_INSULTS, STATS, TABLE_STATS, TRACKS, insult_lines, parse_insults, validate_stats
from .terms import GAME_TERMS, KINDS, NAME, TITLE
from .view import actions, assumptions, progress, public, seat_actions, warnings

# A worthiness mark has no effect on the rules: it is taken back alone, and a rewind leaves it
# standing. Every other event stands on the ones before it (initiative, PV, CAR, shots).
retraction_carries = suffix_except(PirateWorthinessMarked)

# What a campaign keeps for every pirate duel it starts: its own insult table ([assumed]: an
# editable table per campaign), which pre-fills the set-up form; each duel stores the table it used.
# A rest is [assumed] too: it restores all PV unless the campaign says otherwise.
# It also keeps who chooses the insults of a duelo de labia (sealed for a table on its phones).
SEATING_SETTINGS = tuple(f for f in SETUP if f.name in SEATING)
CAMPAIGN_SETTINGS = (*(f for f in SETUP if f.name == "insults"), REST_SETTING, *SEATING_SETTINGS)


def validate_campaign_settings(raw) -> dict:
    """The campaign's insult table, checked and written back as the text lines the form shows."""
    from tracker.rules.base import Invalid, why

    from tracker.rules.fields import parse_fields

    try:
        insults = insult_lines(parse_insults(raw.get("insults")))
    except ValueError as problem:
        raise Invalid({"insults": why(problem)}) from None
    return {"insults": insults, **parse_fields((REST_SETTING, *SEATING_SETTINGS), raw)}


__all__ = ["NAME", "TITLE", "KINDS", "GAME_TERMS", "STATS", "TABLE_STATS", "TRACKS", "SETUP", "COMMANDS", "DEFAULT_INSULTS",
           "validate_stats", "start", "decide", "evolve", "actions", "legal_actions", "describe", "ending_detail", "public",
           "assumptions", "warnings", "progress", "TURNS_LABEL", "count_turns", "turns_label", "HISTORY_EVENTS", "STATISTICS", "history_facts", "step_of", "headline",
           "HIDDEN_FROM_PLAYERS", "GM_DETAILS", "secrets", "seen_by", "SEALED", "SEAT_COMMANDS", "seat_actions", "samples", "adjustable_tracks", "set_track", "retraction_carries", "invariants",
           "RECOVERIES", "recover", "setup_fields", "setup_defaults", "SEAT_CHOICE_EVENTS"]


# What a seat appends that no GM form decides on (an insult chosen sealed): a GM's form drawn before it is not
# stale for it (the rules decide the GM's command on the state as it now stands).
SEAT_CHOICE_EVENTS = ("PirateInsultChosen",)
