"""GM accounts, their API tokens, co-GMs and the players' read-only links, as pure rules.

Accounts are event-sourced like everything else (stream ``gm-<id>``). Passwords and tokens
arrive here already hashed: hashing needs randomness (salts), which the service owns.
"""
from __future__ import annotations

import hashlib
from typing import Any

from tracker.domain.events import event, upcaster
from tracker.rules.base import Invalid, Refused
from tracker.rules.fields import Field, parse_fields
from tracker.rules.state import update
from tracker.rules.text import t


@event
class GMRegistered:
    """A game master's account was created."""

    LABEL = t("GM account created")

    REFERENCES = {"gm_id": "gm"}

    gm_id: str
    username: str
    password_hash: str


@event
class GMPasswordChanged:
    """A GM set a new password."""

    LABEL = t("GM's password changed")

    password_hash: str


@event
class GMLoggedOut:
    """A GM logged out: that one login session ended on the server, whoever holds its cookie."""

    LABEL = t("GM logged out")

    session_id: str
    ended_at: str  # UTC, ISO 8601, like every time the service decides
    expires_at: str  # by when the session's cookie is refused anyway: it need not be remembered after


@event
class GMSessionsEnded:
    """A GM logged out everywhere: every login session they had ended."""

    LABEL = t("GM logged out everywhere")


@event
class GMLanguageChosen:
    """A GM chose the language Touché speaks to them (else their browser's is used)."""

    LABEL = t("GM's language chosen")

    language: str  # one of tracker.domain.languages.LANGUAGES


@event
class ApiTokenIssued:
    """A GM created a token for the JSON API (only its hash is kept)."""

    LABEL = t("API token issued")

    DEFINES = {"token_id": "token"}

    token_id: str
    token_hash: str
    label: str = ""
    read_only: bool = False  # the token reads and sends no command
    campaign_id: str = ""  # the one campaign the token reaches ("" for every one its GM may open)


@event
class ApiTokenRevoked:
    """A GM revoked one of their API tokens."""

    LABEL = t("API token revoked")

    REFERENCES = {"token_id": "token"}

    token_id: str


@event
class CoGMAdded:
    """The campaign's owner shared it with another GM."""

    LABEL = t("Co-GM added")

    REFERENCES = {"gm_id": "gm"}

    gm_id: str
    username: str = ""


@event
class CoGMRemoved:
    """The campaign's owner stopped sharing it with a GM."""

    LABEL = t("Co-GM removed")

    REFERENCES = {"gm_id": "gm"}

    gm_id: str


@event
class CampaignOwnerAssigned:
    """A campaign that belonged to nobody (the demo, made before any GM existed) got its owner:
    the first GM, when they registered."""

    LABEL = t("Campaign owner assigned")

    REFERENCES = {"owner": "gm"}  # an import checks and replaces it like any other id

    owner: str


@event
class PlayerLinkIssued:
    """The GM made a signed link for players: a table display or a player recap (read-only), or a
    player's seat (their character in a play session, where they make their own duelist's choices)."""

    LABEL = t("Player link issued")

    DEFINES = {"link_id": "link"}
    REFERENCES = {"target": ("duel", "session"), "character": "character"}
    SCHEMA = 2  # 1 named the link's kind ``kind``, the word a duel's variant keeps

    link_id: str
    link_kind: str  # "display" (a duel), "recap" (a session) or "seat" (a character in a session)
    target: str  # the duel or session id
    character: str = ""  # a seat's character


@upcaster("PlayerLinkIssued", 1)
def _link_kind_was_kind(data: dict) -> dict:
    data["link_kind"] = data.pop("kind")
    return data


@event
class PlayerLinkRevoked:
    """The GM revoked a player link: it stops working at once."""

    LABEL = t("Player link revoked")

    REFERENCES = {"link_id": "link"}

    link_id: str


def token_digest(token: str) -> str:
    """How an API token is kept: its SHA-256, so a leaked database leaks no usable token."""
    return hashlib.sha256(token.encode()).hexdigest()


SIGNUP_FIELDS = (
    Field("username", t("Username"), "text", maximum=60),
    Field("password", t("Password"), "text", maximum=200, help=t("at least 10 characters")),
)


def parse_signup(raw) -> dict:
    clean = parse_fields(SIGNUP_FIELDS, raw)
    errors = {}
    if not clean["username"] or not all(c.isalnum() or c in "._-" for c in clean["username"]):
        errors["username"] = t("use letters, digits, dots, dashes or underscores")
    if len(clean["password"]) < 10:
        errors["password"] = t("must be at least 10 characters")
    if errors:
        raise Invalid(errors)
    return clean


def evolve(state: dict | None, ev: Any, at: int) -> dict:
    """Fold one account event into the GM's state."""
    if isinstance(ev, GMRegistered):
        return {"id": ev.gm_id, "username": ev.username, "password_hash": ev.password_hash, "tokens": {}}
    if isinstance(ev, GMPasswordChanged):  # a new password ends every session, like logging out everywhere
        return update(state, password_hash=ev.password_hash, **_all_sessions_ended(state))
    if isinstance(ev, GMSessionsEnded):
        return update(state, **_all_sessions_ended(state))
    if isinstance(ev, GMLanguageChosen):
        return update(state, language=ev.language)
    if isinstance(ev, GMLoggedOut):
        # Ended sessions whose cookies have expired anyway are forgotten, so the list stays short.
        ended = {sid: end for sid, end in state.get("ended_sessions", {}).items() if end > ev.ended_at}
        return update(state, ended_sessions={**ended, ev.session_id: ev.expires_at})
    if isinstance(ev, ApiTokenIssued):
        return update(state, tokens={**state["tokens"], ev.token_id: {"hash": ev.token_hash, "label": ev.label,
                                                                      "revoked": False, "read_only": ev.read_only,
                                                                      "campaign_id": ev.campaign_id}})
    if isinstance(ev, ApiTokenRevoked):
        token = dict(state["tokens"].get(ev.token_id, {}), revoked=True)
        return update(state, tokens={**state["tokens"], ev.token_id: token})
    raise TypeError(f"not an account event: {type(ev).__name__}")


def _all_sessions_ended(state: dict) -> dict:
    """Every login session carries the generation it began in; a new generation ends the older ones."""
    return {"sessions_generation": state.get("sessions_generation", 0) + 1, "ended_sessions": {}}


def describe(state: dict | None, ev: Any) -> Any:
    """The event in plain language: a Text, read in the reader's language."""
    from tracker.domain.languages import LANGUAGE_NAMES

    if isinstance(ev, GMRegistered):
        return t("GM account “{username}” created.", username=ev.username)
    if isinstance(ev, GMPasswordChanged):
        return t("Password changed.")
    if isinstance(ev, GMLoggedOut):
        return t("Logged out.")
    if isinstance(ev, GMSessionsEnded):
        return t("Logged out everywhere.")
    if isinstance(ev, GMLanguageChosen):
        return t("Language chosen: {language}.", language=LANGUAGE_NAMES.get(ev.language, ev.language))
    if isinstance(ev, ApiTokenIssued):
        return t("API token “{label}” created.", label=ev.label or ev.token_id)
    if isinstance(ev, ApiTokenRevoked):
        return t("API token revoked.")
    return type(ev).__name__


# --- on the campaign stream ------------------------------------------------------------

def evolve_campaign(state: dict, ev: Any) -> dict:
    """Sharing and player links change the campaign's state."""
    if isinstance(ev, CoGMAdded):
        return update(state, co_gms={**state.get("co_gms", {}), ev.gm_id: ev.username})
    if isinstance(ev, CoGMRemoved):
        return update(state, co_gms={k: v for k, v in state.get("co_gms", {}).items() if k != ev.gm_id})
    if isinstance(ev, CampaignOwnerAssigned):
        return update(state, owner=ev.owner)
    if isinstance(ev, PlayerLinkIssued):
        return update(state, links={**state.get("links", {}),
                                    ev.link_id: {"kind": ev.link_kind, "target": ev.target, "revoked": False,
                                                 "character": ev.character}})
    if isinstance(ev, PlayerLinkRevoked):
        links = state.get("links", {})
        return update(state, links={**links, ev.link_id: dict(links.get(ev.link_id, {}), revoked=True)})
    raise TypeError(type(ev).__name__)


def describe_campaign(ev: Any) -> Any:
    if isinstance(ev, CoGMAdded):
        return t("Campaign shared with {username}.", username=ev.username or t("a co-GM"))
    if isinstance(ev, CoGMRemoved):
        return t("A co-GM's access was removed.")
    if isinstance(ev, CampaignOwnerAssigned):
        return t("The campaign was given to the first GM.")
    if isinstance(ev, PlayerLinkIssued):
        what = {"display": t("the table display"), "recap": t("the player recap"), "seat": t("a player's seat")}
        return t("A player link was made for {what}.", what=what.get(ev.link_kind, ev.link_kind))
    if isinstance(ev, PlayerLinkRevoked):
        return t("A player link was revoked.")
    return type(ev).__name__


CAMPAIGN_EVENTS = (CoGMAdded, CoGMRemoved, CampaignOwnerAssigned, PlayerLinkIssued, PlayerLinkRevoked)


def decide_share(state: dict, gm: dict | None) -> list:
    """Share the campaign with a GM (who may share it at all is the access policy's to say)."""
    if gm is None:
        raise Refused(t("no GM has that username"), field="username")
    if gm["id"] == state.get("owner") or gm["id"] in state.get("co_gms", {}):
        raise Refused(t("{username} can already open this campaign", username=gm["username"]), field="username")
    return [CoGMAdded(gm_id=gm["id"], username=gm["username"])]
