"""Every workspace and account command as a typed record, parsed once from the form or JSON.

``parse(kind, raw)`` is the one edge where a mapping (a form, a JSON body, a script's dict)
becomes a command: each class reads its own fields from the mapping, in the order a GM would
fix them, and raises ``Invalid`` naming the field. The wire format stays the mapping's: a command
is known by its ``type``, its fields by their names. How it was sent (its ``command_id`` and the
fingerprint of what it said) rides along for the service's idempotence checks.

A duel's own commands (``PlayTurn``, ``Strike``…) are typed by their ruleset; here they travel
as a ``DuelCommand`` until the service has found the duel and so the ruleset that parses them.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from tracker import accounts, rules, workspace
from tracker.rules.base import LARGEST_INT, Field, Invalid, parse_fields

# --- the fields every command shares ------------------------------------------------------

ID_FIELDS = {"command_id", "csrf_token", "expected_version"}  # how a command is sent, not what it says


def key(value: Any, name: str) -> str:
    """An id from a command (letters, digits and underscores), or Invalid naming the field."""
    if not isinstance(value, str) or not value or len(value) > 64 or not value.replace("_", "").isalnum():
        raise Invalid({name: "is required"} if not value else {name: "is not a valid id"})
    return value


def expected(raw: Mapping[str, Any]) -> int:
    """The stream version the form or client was opened at."""
    value = raw.get("expected_version")
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an infinite float
        raise Invalid({"expected_version": "is required (the version the form was opened at)"}) from None
    if number < 0:
        raise Invalid({"expected_version": "must be 0 or more"})
    if number > LARGEST_INT:
        raise Invalid({"expected_version": f"must be at most {LARGEST_INT}"})
    return number


def as_list(value: Any) -> list:
    """A form value that may repeat, always as a list."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def command_id_of(raw: Mapping[str, Any]) -> str | None:
    """The command's id (None when it has none), or Invalid when it is not short text."""
    command_id = raw.get("command_id") or None
    if command_id is None:
        return None
    if not isinstance(command_id, str):
        raise Invalid({"command_id": "must be text"})
    if len(command_id) > 64:
        raise Invalid({"command_id": "must be at most 64 characters"})
    return command_id


def fingerprint_of(raw: Mapping[str, Any]) -> str:
    """What the command asks for, as a SHA-256 of its canonical JSON: its type, the ids it targets
    and its fields, less how it was sent. Secrets (passwords, codes) stay out: the fingerprint is
    kept in the log, and a fast hash of a password would give the password away."""
    said = {name: value for name, value in raw.items()
            if name not in ID_FIELDS and "password" not in str(name) and str(name) != "code"}
    try:
        canonical = json.dumps(said, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=repr)
    except (TypeError, ValueError, RecursionError):
        raise Invalid({"command_id": "this command is too unusual to be given an id: send it without one"}) from None
    return hashlib.sha256(canonical.encode()).hexdigest()


# --- the commands ------------------------------------------------------------------------

@dataclass(frozen=True)
class Command:
    """What every command carries besides its own fields: how it was sent."""

    command_id: str | None = field(default=None, kw_only=True)
    fingerprint: str = field(default="", kw_only=True, repr=False, compare=False)

    @property
    def kind(self) -> str:
        """The command's type, as the wire and the log name it."""
        return type(self).__name__


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


START_FIELDS = (
    Field("stakes", "Stakes", "text", required=False, maximum=2000),
    Field("judge", "Judge", "text", required=False, maximum=200),
    Field(
        "challenger",
        "Who challenged",
        "choice",
        required=False,
        choices=(("", "nobody in particular"), ("a", "Side A challenged"), ("b", "Side B challenged")),
    ),
)


@dataclass(frozen=True)
class StartDuel(Command):
    """``duelists`` pairs a character id with its side; ``setup`` is what the ruleset reads to
    set the duel up (the whole form, or the JSON body's ``setup`` object)."""

    session_id: str
    ruleset: str
    stakes: str
    judge: str
    challenger: str
    duelists: tuple[tuple[str, str], ...]
    setup: Mapping[str, Any]

    @classmethod
    def parse(cls, raw):
        session_id = key(raw.get("session_id"), "session_id")
        name = raw.get("ruleset")
        if not isinstance(name, str) or name not in rules.RULESETS:
            raise Invalid({"ruleset": "choose one of " + ", ".join(rules.RULESETS)})
        common = parse_fields(START_FIELDS, raw)
        setup = raw.get("setup") if isinstance(raw.get("setup"), dict) else raw
        return cls(session_id, name, common["stakes"] or "", common["judge"] or "", common["challenger"] or "",
                   _duelists(raw), setup)


def _duelists(raw: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    """The chosen characters and their sides: a JSON list, or a form's side_a / side_b ids."""
    chosen = raw.get("duelists")
    if not isinstance(chosen, list):
        return tuple((str(cid), side) for side in ("a", "b") for cid in as_list(raw.get(f"side_{side}")) if cid)
    for entry in chosen:
        if not isinstance(entry, dict) or entry.get("side") not in ("a", "b"):
            raise Invalid({"duelists": "each duelist needs a character_id and a side (a or b)"})
    return tuple((str(entry.get("character_id")), entry["side"]) for entry in chosen)


@dataclass(frozen=True)
class DuelCommand(Command):
    """One of a duel's own commands, before its ruleset (known from the duel) types its fields."""

    action: str
    duel_id: str
    fields: Mapping[str, Any]

    @property
    def kind(self) -> str:
        return self.action

    @classmethod
    def parse(cls, raw):
        return cls(str(raw.get("type")), key(raw.get("duel_id"), "duel_id"), raw)


@dataclass(frozen=True)
class RegisterGM(Command):
    username: str
    password: str = field(repr=False)

    @classmethod
    def parse(cls, raw):
        return cls(**accounts.parse_signup(raw))


@dataclass(frozen=True)
class EndSession(Command):
    session_id: str

    @classmethod
    def parse(cls, raw):
        ending = raw.get("session_id")
        if not isinstance(ending, str) or not 0 < len(ending) <= 64:
            raise Invalid({"session_id": "is required (at most 64 characters)"})
        return cls(ending)


@dataclass(frozen=True)
class EndAllSessions(Command):
    @classmethod
    def parse(cls, raw):
        return cls()


@dataclass(frozen=True)
class ChangePassword(Command):
    """Both passwords as sent (text, else empty): whether they will do is the handler's to say,
    as the current one is checked against the account."""

    current_password: str = field(repr=False)
    new_password: str = field(repr=False)

    @classmethod
    def parse(cls, raw):
        current, new = raw.get("current_password"), raw.get("new_password")
        return cls(current if isinstance(current, str) else "", new if isinstance(new, str) else "")


@dataclass(frozen=True)
class AssignOwnerlessCampaigns(Command):
    """Touché's own consequence of the first GM registering: never sent from outside."""


TOKEN_FIELDS = (Field("label", "Label", "text", required=False, maximum=100),)


@dataclass(frozen=True)
class IssueApiToken(Command):
    label: str

    @classmethod
    def parse(cls, raw):
        return cls(parse_fields(TOKEN_FIELDS, raw)["label"] or "")


@dataclass(frozen=True)
class RevokeApiToken(Command):
    token_id: str

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("token_id"), "token_id"))


@dataclass(frozen=True)
class ShareCampaign(Command):
    campaign_id: str
    username: str

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("campaign_id"), "campaign_id"), str(raw.get("username") or "").strip())


@dataclass(frozen=True)
class UnshareCampaign(Command):
    campaign_id: str
    gm_id: str

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("campaign_id"), "campaign_id"), str(raw.get("gm_id") or ""))


@dataclass(frozen=True)
class IssuePlayerLink(Command):
    link_kind: str  # "display" (a duel's table display) or "recap" (a session's); sent as ``kind``
    target: str

    @classmethod
    def parse(cls, raw):
        target = key(raw.get("target"), "target")
        if raw.get("kind") not in ("display", "recap"):
            raise Invalid({"kind": "must be display or recap"})
        return cls(raw["kind"], target)


@dataclass(frozen=True)
class RevokePlayerLink(Command):
    link_id: str

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("link_id"), "link_id"))


COMMANDS: dict[str, type[Command]] = {cls.__name__: cls for cls in (
    CreateCampaign, EditCampaign, ChangeCampaignRules, CreateCharacter, EditCharacter, PlanSession,
    EditSession, RetractEvent, StartDuel, RegisterGM, EndSession, EndAllSessions, ChangePassword, IssueApiToken,
    RevokeApiToken, ShareCampaign, UnshareCampaign, IssuePlayerLink, RevokePlayerLink)}


def parse(kind: str, raw: Mapping[str, Any], duel: bool = False) -> Command:
    """The typed command a mapping asks for; ``duel`` when the policy knows it as a duel's own
    command. Invalid when the type is unknown or a field is wrong."""
    command_id = command_id_of(raw)  # a bad id is refused before anything else is looked at
    cls = DuelCommand if duel else COMMANDS.get(kind)
    if cls is None:
        raise Invalid({"type": f"unknown command {kind!r}"})
    command = cls.parse(raw)
    return dataclasses.replace(command, command_id=command_id,
                               fingerprint=fingerprint_of(raw) if command_id else "")
