"""Commands on accounts and access: GM accounts, API tokens, co-GMs, players' links."""

from __future__ import annotations

import secrets

from tracker.application import policy
from tracker.domain import accounts
from tracker.domain.accounts import token_digest
from tracker.application.commands import (AssignOwnerlessCampaigns, ChooseLanguage, IssueApiToken, IssuePlayerLink, RegisterGM, RevokeApiToken,
                              RevokePlayerLink, ShareCampaign, UnshareCampaign)
from tracker.domain.errors import NotFound
from tracker.projections import queries
from tracker.rules.base import Invalid, Refused
from tracker.rules.text import t
from tracker.application.services import Outcome, Service
from tracker.eventstore.store import write_transaction


def register_gm(service: Service, command: RegisterGM) -> Outcome:
    """Create a GM account (who may, and when, is the access policy's to say)."""
    from werkzeug.security import generate_password_hash

    if queries.gm_named(service.db, command.username):  # the usual case, answered before hashing
        raise Invalid({"username": t("is taken")})
    gm_id = service.context.new_id()
    digest = generate_password_hash(command.password, method=service.context.password_method)

    def decide(_state):
        # Again under the write lock: two sign-ups with one name may both have passed the check above.
        if queries.gm_named(service.db, command.username):
            raise Invalid({"username": t("is taken")})
        return [accounts.GMRegistered(gm_id=gm_id, username=command.username, password_hash=digest)]

    with write_transaction(service.db):
        first = not service.db.execute("SELECT 1 FROM gms LIMIT 1").fetchone()
        outcome = service.append(f"gm-{gm_id}", "", 0, command, decide)
        if first and not outcome.replayed:
            hand_over_ownerless(service, gm_id)
    return outcome


def hand_over_ownerless(service: Service, gm_id: str) -> None:
    """Give the first GM every campaign that belongs to nobody (the demo seeded on first start), so
    no campaign stays writable by every GM who registers later."""
    ownerless = [row[0] for row in service.db.execute("SELECT id FROM campaigns WHERE owner = '' ORDER BY id")]
    touche = service.as_consequence()
    for campaign_id in ownerless:
        touche.append(f"campaign-{campaign_id}", campaign_id, None, AssignOwnerlessCampaigns(),
                      lambda _: [accounts.CampaignOwnerAssigned(owner=gm_id)])


def choose_language(service: Service, command: ChooseLanguage) -> Outcome:
    """Record the language the acting GM reads Touché in."""
    return service.append(f"gm-{service.context.actor}", "", None, command,
                          lambda _: [accounts.GMLanguageChosen(language=command.language)])


def issue_api_token(service: Service, command: IssueApiToken) -> Outcome:
    """Make an API token for the acting GM, read-only and/or for one of their campaigns if asked; the
    token itself is returned once, never stored."""
    if command.campaign_id and not policy.may_scope(service.db, service.context.actor, command.campaign_id):
        raise NotFound(t("no such campaign"))
    token = secrets.token_urlsafe(32)
    token_id = service.context.new_id()
    outcome = service.append(
        f"gm-{service.context.actor}",
        "",
        None,
        command,
        lambda _: [accounts.ApiTokenIssued(token_id=token_id, token_hash=token_digest(token), label=command.label,
                                           read_only=command.read_only, campaign_id=command.campaign_id)],
    )
    return Outcome(outcome.stream, outcome.events, outcome.replayed, secret="" if outcome.replayed else token)


def revoke_api_token(service: Service, command: RevokeApiToken) -> Outcome:
    """Revoke one of the acting GM's API tokens."""
    if not queries.holds_token(service.db, service.context.actor, command.token_id):
        raise NotFound(t("no such token"))
    return service.append(
        f"gm-{service.context.actor}", "", None, command,
        lambda _: [accounts.ApiTokenRevoked(token_id=command.token_id)]
    )


def share_campaign(service: Service, command: ShareCampaign) -> Outcome:
    """Let another GM open the campaign."""
    state = service.existing(f"campaign-{command.campaign_id}")
    gm = queries.gm_named(service.db, command.username)
    return service.append(
        f"campaign-{command.campaign_id}",
        command.campaign_id,
        None,
        command,
        lambda _: accounts.decide_share(state, gm),
    )


def unshare_campaign(service: Service, command: UnshareCampaign) -> Outcome:
    """Take a co-GM's access away."""
    state = service.existing(f"campaign-{command.campaign_id}")
    if command.gm_id not in state.get("co_gms", {}):
        raise Refused(t("that GM is not a co-GM of this campaign"), field="gm_id")
    return service.append(
        f"campaign-{command.campaign_id}", command.campaign_id, None, command,
        lambda _: [accounts.CoGMRemoved(gm_id=command.gm_id)]
    )


def issue_player_link(service: Service, command: IssuePlayerLink) -> Outcome:
    """Make a signed link for players: a duel's display, a session's recap, or a player's seat."""
    campaign_id = queries.campaign_of(service.db, "duel_id" if command.link_kind == "display" else "session_id",
                                      command.target)
    if campaign_id is None:
        raise NotFound(t("no such duel") if command.link_kind == "display" else t("no such session"))
    if command.link_kind == "seat" and queries.character_in(service.db, campaign_id, command.character) is None:
        raise Invalid({"character_id": t("choose a character of this campaign")})
    link_id = secrets.token_hex(8)
    return service.append(
        f"campaign-{campaign_id}",
        campaign_id,
        None,
        command,
        lambda _: [accounts.PlayerLinkIssued(link_id=link_id, link_kind=command.link_kind, target=command.target,
                                             character=command.character)],
    )


def revoke_player_link(service: Service, command: RevokePlayerLink) -> Outcome:
    """Revoke a player link."""
    campaign_id = queries.campaign_of_link(service.db, command.link_id)
    if campaign_id is None:
        raise NotFound(t("no such link"))
    return service.append(
        f"campaign-{campaign_id}", campaign_id, None, command,
        lambda _: [accounts.PlayerLinkRevoked(link_id=command.link_id)]
    )
