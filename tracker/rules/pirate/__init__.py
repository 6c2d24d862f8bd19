"""Pirate duels: sword, pistol and duelo de labia (wit), d20 against a defence.

The face every ruleset shares (see ``tracker.rules``), in the files every ruleset has; the
helper ``rolls`` holds the d20 with Ventaja/Desventaja, a strike and initiative.
"""
from __future__ import annotations

from tracker.rules.duel import suffix_except

from . import samples
from .commands import COMMANDS, SEAT_COMMANDS
from .decide import decide
from .describe import describe
from .events import PirateWorthinessMarked
from .fold import evolve
from .invariants import invariants
from .history import HISTORY_EVENTS, STATISTICS, TURNS_LABEL, history_facts
from .secrecy import GM_DETAILS, HIDDEN_FROM_PLAYERS, SEALED, secrets, seen_by
from .setup import SETUP, start
from .sheet import DEFAULT_INSULTS, STATS, TRACKS, insult_lines, parse_insults, validate_stats
from .terms import KINDS, NAME, TITLE
from .view import actions, assumptions, progress, public, seat_actions, warnings

# A worthiness mark has no effect on the rules: it is taken back alone, and a rewind leaves it
# standing. Every other event stands on the ones before it (initiative, PV, CAR, shots).
retraction_carries = suffix_except(PirateWorthinessMarked)

# What a campaign keeps for every pirate duel it starts: its own insult table ([assumed]: an
# editable table per campaign), which pre-fills the set-up form; each duel stores the table it used.
CAMPAIGN_SETTINGS = tuple(f for f in SETUP if f.name == "insults")


def validate_campaign_settings(raw) -> dict:
    """The campaign's insult table, checked and written back as the text lines the form shows."""
    from tracker.rules.base import Invalid

    try:
        return {"insults": insult_lines(parse_insults(raw.get("insults")))}
    except ValueError as problem:
        raise Invalid({"insults": str(problem)}) from None


__all__ = ["NAME", "TITLE", "KINDS", "STATS", "TRACKS", "SETUP", "COMMANDS", "DEFAULT_INSULTS",
           "validate_stats", "start", "decide", "evolve", "actions", "describe", "public",
           "assumptions", "warnings", "progress", "TURNS_LABEL", "HISTORY_EVENTS", "STATISTICS", "history_facts",
           "HIDDEN_FROM_PLAYERS", "GM_DETAILS", "secrets", "seen_by", "SEALED", "SEAT_COMMANDS", "seat_actions", "samples", "retraction_carries", "invariants"]
