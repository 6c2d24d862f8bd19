"""The GM's workspace commands: campaigns, characters, play sessions, retractions."""
from __future__ import annotations

from dataclasses import dataclass

from tracker import workspace
from tracker.commands.base import Command, expected, key
from tracker.rules.fields import Field, parse_fields


@dataclass(frozen=True)
class CreateCampaign(Command):
    name: str
    ruleset: str
    notes: str
    campaign_id: str | None = None  # chosen by the client, else by the service

    @classmethod
    def parse(cls, raw):
        clean = workspace.parse_campaign(raw)
        chosen = raw.get("campaign_id")
        return cls(**clean, campaign_id=key(chosen, "campaign_id") if chosen else None)


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
class PlanSession(Command):
    campaign_id: str
    number: int
    date: str
    title: str
    notes: str

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("campaign_id"), "campaign_id"), **workspace.parse_session(raw))


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


RETRACT_FIELDS = (Field("position", "Event", "int", minimum=1),
                  Field("reason", "Reason", "text", required=False, maximum=500))


@dataclass(frozen=True)
class RetractEvent(Command):
    position: int
    reason: str
    expected_version: int

    @classmethod
    def parse(cls, raw):
        clean = parse_fields(RETRACT_FIELDS, raw)
        return cls(clean["position"], clean["reason"] or "", expected(raw))
