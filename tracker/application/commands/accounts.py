"""Commands on accounts and access: GM accounts, login sessions, API tokens, co-GMs, players' links."""
from __future__ import annotations

from dataclasses import dataclass, field

from tracker.domain import accounts
from tracker.application.commands.base import Command, key
from tracker.domain.languages import parse_language
from tracker.rules.base import Invalid
from tracker.rules.fields import Field, parse_fields
from tracker.rules.text import t


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
            raise Invalid({"session_id": t("is required (at most 64 characters)")})
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
class ChooseLanguage(Command):
    """The language the acting GM reads Touché in."""

    language: str

    @classmethod
    def parse(cls, raw):
        return cls(parse_language(raw.get("language")))


@dataclass(frozen=True)
class AssignOwnerlessCampaigns(Command):
    """Touché's own consequence of the first GM registering: never sent from outside."""


TOKEN_FIELDS = (Field("label", t("Label"), "text", required=False, maximum=100),
                Field("read_only", t("Read-only (reads, sends no command)"), "bool", default=False),
                Field("campaign_id", t("Only this campaign"), "text", required=False, maximum=64))


@dataclass(frozen=True)
class IssueApiToken(Command):
    label: str
    read_only: bool = False
    campaign_id: str = ""  # "" for every campaign the GM may open

    @classmethod
    def parse(cls, raw):
        clean = parse_fields(TOKEN_FIELDS, raw)
        campaign_id = clean["campaign_id"] or ""
        return cls(clean["label"] or "", bool(clean["read_only"]), key(campaign_id, "campaign_id") if campaign_id else "")


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
    link_kind: str  # "display" (a duel's table display), "recap" (a session's) or "seat"; once sent as ``kind``
    target: str
    character: str = ""  # a seat's character (``character_id``)

    @classmethod
    def parse(cls, raw):
        target = key(raw.get("target"), "target")
        if raw.get("link_kind") not in ("display", "recap", "seat"):
            raise Invalid({"link_kind": t("must be display, recap or seat")})
        if raw["link_kind"] != "seat":
            return cls(raw["link_kind"], target)
        return cls("seat", target, key(raw.get("character_id"), "character_id"))


@dataclass(frozen=True)
class RevokePlayerLink(Command):
    link_id: str

    @classmethod
    def parse(cls, raw):
        return cls(key(raw.get("link_id"), "link_id"))
