"""The GM's workspace commands: campaigns, characters, play sessions, retractions."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from tracker.domain import workspace
from tracker.application.commands.base import Command, expected, key
from tracker.domain.languages import parse_language
from tracker.rules.base import Invalid
from tracker.rules.fields import Field, parse_fields
from tracker.rules.text import t


@dataclass(frozen=True)
class CreateCampaign(Command):
    name: str
    ruleset: str
    notes: str
    campaign_id: str | None = None  # chosen by the client, else by the service
    # The players' language from the start: the pages pass the GM's own (a Spanish GM's players
    # read Spanish without a trip to Edit); absent, the campaign reads English until set.
    language: str | None = None

    @classmethod
    def parse(cls, raw):
        clean = workspace.parse_campaign(raw)
        chosen = raw.get("campaign_id")
        language = parse_language(raw.get("language")) if raw.get("language") else None
        return cls(**clean, campaign_id=key(chosen, "campaign_id") if chosen else None, language=language)


@dataclass(frozen=True)
class EditCampaign(Command):
    campaign_id: str
    name: str
    ruleset: str
    notes: str
    expected_version: int

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("campaign_id"), "campaign_id"), **workspace.parse_campaign(raw),
                   expected_version=expected(raw))


@dataclass(frozen=True)
class ChangeCampaignRules(Command):
    campaign_id: str
    ruleset: str
    settings: dict
    expected_version: int

    @classmethod
    def parse(cls, raw):
        campaign_id = key(raw.get("campaign_id"), "campaign_id")
        ruleset, settings = workspace.parse_campaign_rules(raw.get("ruleset"), raw)
        return cls(campaign_id, ruleset, settings, expected(raw))


@dataclass(frozen=True)
class SetCampaignLanguage(Command):
    """The language the campaign's players see, and its recaps are written in by default."""

    campaign_id: str
    language: str
    expected_version: int

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("campaign_id"), "campaign_id"), parse_language(raw.get("language")), expected(raw))


@dataclass(frozen=True)
class CreateCharacter(Command):
    campaign_id: str
    name: str
    rank: str
    player: str
    notes: str
    stats: dict

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("campaign_id"), "campaign_id"), **workspace.parse_character(raw))


@dataclass(frozen=True)
class EditCharacter(Command):
    character_id: str
    name: str
    rank: str
    player: str
    notes: str
    stats: dict
    expected_version: int

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("character_id"), "character_id"), **workspace.parse_character(raw),
                   expected_version=expected(raw))


@dataclass(frozen=True)
class ImportCharacter(Command):
    """A character brought in from another tool's export (``source``: one of the rulesets'
    importers, found from the file when not said; ``json``: the export, as text or as an object).
    Into ``character_id`` when given (its page's "Import"), else into the campaign's character
    the same export made before (same source and source id, or name), else a new character."""

    campaign_id: str
    source: str
    ruleset: str
    name: str
    rank: str  # "" unless the GM chose one: the export's for a new character, else the character's own
    export_rank: str
    player: str
    stats: dict
    source_id: str
    left_out: tuple
    character_id: str | None = None
    expected_version: int | None = None

    @classmethod
    def parse(cls, raw):
        campaign_id = key(raw.get("campaign_id"), "campaign_id")
        character_id = key(raw.get("character_id"), "character_id") if raw.get("character_id") else None
        version = expected(raw) if raw.get("expected_version") not in (None, "") else None
        return cls(campaign_id, **workspace.parse_import(raw), character_id=character_id, expected_version=version)


@dataclass(frozen=True)
class PlanSession(Command):
    campaign_id: str
    number: int
    date: str
    title: str
    notes: str
    on_the_fly: bool = False  # planned for a duel started outside any session: no title of its own

    @classmethod
    def parse(cls, raw):
        on_the_fly = raw.get("on_the_fly") is True
        return cls(key(raw.get("campaign_id"), "campaign_id"), **workspace.parse_session(raw, on_the_fly),
                   on_the_fly=on_the_fly)


@dataclass(frozen=True)
class EditSession(Command):
    session_id: str
    number: int
    date: str
    title: str
    notes: str
    expected_version: int

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("session_id"), "session_id"), **workspace.parse_session(raw),
                   expected_version=expected(raw))


@dataclass(frozen=True)
class CloseSession(Command):
    """The session is over: its players' seats stop working (retracting it opens the session again)."""

    session_id: str

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("session_id"), "session_id"))


RETRACT_FIELDS = (Field("position", t("Event"), "int", minimum=1),
                  Field("reason", t("Reason"), "text", required=False, maximum=500))


@dataclass(frozen=True)
class RetractEvent(Command):
    position: int
    reason: str
    expected_version: int

    @classmethod
    def parse(cls, raw):
        clean = parse_fields(RETRACT_FIELDS, raw)
        return cls(clean["position"], clean["reason"] or "", expected(raw))


@dataclass(frozen=True)
class RestoreRetraction(Command):
    """Take a retraction back (it was made by mistake): ``position`` is the retraction's."""

    position: int
    reason: str
    expected_version: int

    @classmethod
    def parse(cls, raw):
        clean = parse_fields(RETRACT_FIELDS, raw)
        return cls(clean["position"], clean["reason"] or "", expected(raw))


def _expected_if_sent(raw) -> int | None:
    """A form sends the version it was opened at; a script may leave it out (no conflict check)."""
    return expected(raw) if raw.get("expected_version") not in (None, "") else None


RECOVER_FIELDS = (Field("ruleset", t("Ruleset"), "text", maximum=40),
                  Field("recovery", t("Recovery"), "text", required=False, maximum=40, help=t("rest unless said")))


@dataclass(frozen=True)
class RecoverCharacter(Command):
    """A character rests (or is treated) by one of their ruleset's recoveries; ``fields`` holds
    what that recovery asks (a check's modifier, typed dice), which the ruleset types."""

    character_id: str
    ruleset: str
    recovery: str
    fields: Mapping[str, Any]
    expected_version: int | None

    @classmethod
    def parse(cls, raw):
        clean = parse_fields(RECOVER_FIELDS, raw)
        return cls(key(raw.get("character_id"), "character_id"), clean["ruleset"], clean["recovery"] or "rest",
                   raw, _expected_if_sent(raw))


ADJUST_FIELDS = (Field("ruleset", t("Ruleset"), "text", maximum=40),
                 Field("track", t("Track"), "text", maximum=40),
                 Field("amount", t("Amount"), "int", minimum=-999, maximum=999,
                       help=t("positive gives points back, negative takes them")),
                 Field("reason", t("Reason"), "text", required=False, maximum=200,
                       help=t("e.g. healed by the cleric, a forgotten +2")))


@dataclass(frozen=True)
class AdjustTrack(Command):
    character_id: str
    ruleset: str
    track: str
    amount: int
    reason: str
    expected_version: int | None

    @classmethod
    def parse(cls, raw):
        clean = parse_fields(ADJUST_FIELDS, raw)
        errors = {}
        if clean["amount"] == 0:
            errors["amount"] = t("must not be 0")
        if not clean["reason"]:
            errors["reason"] = t("is required: say why (it shows on the sheet)")
        if errors:
            raise Invalid(errors)
        return cls(key(raw.get("character_id"), "character_id"), clean["ruleset"], clean["track"], clean["amount"],
                   clean["reason"], _expected_if_sent(raw))


@dataclass(frozen=True)
class RestParty(Command):
    """The whole party rests at the end of a session: every PJ of its campaign, and everyone
    who duelled in it, each by the rest of every ruleset they have a sheet for."""

    session_id: str

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("session_id"), "session_id"))
