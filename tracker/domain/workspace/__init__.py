"""The GM's workspace as pure rules: campaigns, characters, play sessions, retractions.

Like a ruleset: commands in, events out (or a refusal), state as a fold of events.
Stats blocks are defined and validated by the rulesets themselves.


A package by job: events, forms, folds, retractions; this facade names them all."""
from __future__ import annotations

from tracker.domain.workspace.events import (  # noqa: F401
    CampaignCreated, CampaignEdited, CampaignLanguageSet, CampaignRulesChanged, CharacterCreated,
    CharacterEdited, CharacterImported, CharacterRecovered, EventRetracted, RANKS, RANK_LABELS,
    RetractionRestored, SessionClosed, SessionEdited, SessionPlanned, TrackAdjusted,
)
from tracker.domain.workspace.forms import (  # noqa: F401
    CAMPAIGN_FIELDS, CHARACTER_FIELDS, IMPORT_FIELDS, IMPORT_RANKS, LARGEST_EXPORT, SESSION_FIELDS,
    campaign_fields, import_choices, importers, left_out_words, parse_campaign, parse_campaign_rules,
    parse_character, parse_import, parse_session, ruleset_choices, session_title,
)
from tracker.domain.workspace.folds import (  # noqa: F401
    RESULTS, describe, evolve,
)
from tracker.domain.workspace.retractions import (  # noqa: F401
    UNRETRACTABLE, decide_restore, decide_retraction,
)
