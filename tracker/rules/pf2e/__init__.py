"""Pathfinder 2e duels (GMG pp.166–167): combat, spellcasting and mixed duels.

Combat duels roll initiative every round with a secret skill that grants a dueling reaction;
spellcasting duels roll once and gain a tradition focus with Dueling Counter; the judge
confirms the victory the rules propose. The files every ruleset has (see ``tracker.rules``),
and the helpers ``checks`` (degrees of success), ``table`` (who is who at the table), ``rounds``
(initiative, turns, tags), ``strikes``, ``spells`` and ``ending``, which ``decide`` hands to.
"""
from __future__ import annotations

from .adjust import adjustable_tracks, set_track

from tracker.rules.duel import whole_suffix

from . import conditions, samples
from .commands import COMMANDS, SEAT_COMMANDS
from .decide import decide
from .describe import describe, ending_detail
from .fold import evolve
from .imports import IMPORTERS
from .invariants import invariants
from .legal import legal_actions
from .history import HISTORY_EVENTS, STATISTICS, TURNS_LABEL, count_turns, headline, history_facts, step_of
from .secrecy import GM_DETAILS, HIDDEN_FROM_PLAYERS, SEALED, secrets, seen_by
from .setup import SEATING, SETUP, setup_defaults, setup_fields, start
from .recovery import IGNORE_HOUR_SETTING, RECOVERIES, REST_SETTING, recover
from .sheet import FOLDED_LABEL, RANK_WORDS, SKILL_NAMES, TRADITION_LABELS, STATS, TABLE_STATS, TRACKS, folded_stats, validate_stats
from .terms import GAME_TERMS, KINDS, MAX_PER_SIDE, NAME, TITLE
from .board import board, choices
from .view import actions, assumptions, progress, public, seat_actions

# Every PF2e event stands on the ones before it (the order, HP, reactions, slots, a proposal):
# a retraction rewinds the duel to just before the command it names.
retraction_carries = whole_suffix

__all__ = ["NAME", "TITLE", "KINDS", "GAME_TERMS", "STATS", "TABLE_STATS", "TRACKS", "SETUP", "COMMANDS", "validate_stats", "start",
           "decide", "evolve", "actions", "legal_actions", "describe", "ending_detail", "public", "assumptions", "progress", "TURNS_LABEL", "count_turns",
           "HISTORY_EVENTS", "STATISTICS", "history_facts", "step_of", "headline", "HIDDEN_FROM_PLAYERS", "GM_DETAILS", "secrets", "seen_by", "SEALED", "SEAT_COMMANDS", "seat_actions", "samples", "adjustable_tracks", "set_track", "retraction_carries", "invariants",
           "RECOVERIES", "recover", "setup_fields", "setup_defaults", "SEAT_CHOICE_EVENTS", "FOLDED_LABEL", "folded_stats", "CAMPAIGN_SETTINGS", "validate_campaign_settings", "IMPORTERS"]

# What a campaign keeps for every PF2e character: how much a night's rest restores ([assumed]
# setting "a rest restores all HP", off by default) and whether Treat Wounds' hour may be waived.
# It also keeps who chooses the secret initiative skills (sealed for a table on its phones), when
# they are rolled and who rolls: the defaults of every new PF2e duel.
CAMPAIGN_SETTINGS = (REST_SETTING, IGNORE_HOUR_SETTING, *(f for f in SETUP if f.name in SEATING))


def validate_campaign_settings(raw) -> dict:
    """The campaign's PF2e settings, checked."""
    from tracker.rules.fields import parse_fields

    return parse_fields(CAMPAIGN_SETTINGS, raw)


# What a seat appends that no GM form decides on (a secret skill chosen, a reaction readied or withdrawn): a GM's form drawn before it is not
# stale for it (the rules decide the GM's command on the state as it now stands).
SEAT_CHOICE_EVENTS = ("Pf2eSkillChosen", "Pf2eReactionReadied", "Pf2eReactionWithdrawn")
