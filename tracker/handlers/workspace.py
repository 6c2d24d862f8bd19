"""Commands on the GM's workspace: campaigns, characters, play sessions, retractions."""

from __future__ import annotations

from typing import Any, Mapping

from tracker import workspace
from tracker.errors import NotFound
from tracker.handlers.fields import expected, key
from tracker.projections import replay
from tracker.rules.base import ImpossibleHistory, Refused
from tracker.rules.fields import Field, parse_fields
from tracker.services import Outcome, Service


def create_campaign(service: Service, command: Mapping[str, Any]) -> Outcome:
    """Open a campaign owned by the acting GM."""
    clean = workspace.parse_campaign(command)
    campaign_id = command.get("campaign_id") or service.context.new_id()
    stream = f"campaign-{key(campaign_id, 'campaign_id')}"
    return service.append(
        stream,
        campaign_id,
        0,
        command,
        lambda _: [workspace.CampaignCreated(campaign_id=campaign_id, owner=service.context.actor, **clean)],
    )


def edit_campaign(service: Service, command: Mapping[str, Any]) -> Outcome:
    """Rewrite a campaign's name, default ruleset and notes."""
    campaign_id = key(command.get("campaign_id"), "campaign_id")
    service.existing(f"campaign-{campaign_id}")
    clean = workspace.parse_campaign(command)
    return service.append(
        f"campaign-{campaign_id}",
        campaign_id,
        expected(command),
        command,
        lambda _: [workspace.CampaignEdited(**clean)],
    )


def change_campaign_rules(service: Service, command: Mapping[str, Any]) -> Outcome:
    """Change the campaign's own settings for one ruleset."""
    campaign_id = key(command.get("campaign_id"), "campaign_id")
    service.existing(f"campaign-{campaign_id}")
    ruleset, settings = workspace.parse_campaign_rules(command.get("ruleset"), command)
    return service.append(
        f"campaign-{campaign_id}",
        campaign_id,
        expected(command),
        command,
        lambda _: [workspace.CampaignRulesChanged(ruleset=ruleset, settings=settings)],
    )


def create_character(service: Service, command: Mapping[str, Any]) -> Outcome:
    """Add a character, with a stats block per ruleset, to a campaign."""
    campaign_id = key(command.get("campaign_id"), "campaign_id")
    service.existing(f"campaign-{campaign_id}")
    clean = workspace.parse_character(command)
    character_id = service.context.new_id()
    return service.append(
        f"character-{character_id}",
        campaign_id,
        0,
        command,
        lambda _: [workspace.CharacterCreated(character_id=character_id, campaign_id=campaign_id, **clean)],
    )


def edit_character(service: Service, command: Mapping[str, Any]) -> Outcome:
    """Rewrite a character's sheet."""
    character_id = key(command.get("character_id"), "character_id")
    state = service.existing(f"character-{character_id}")
    clean = workspace.parse_character(command)
    return service.append(
        f"character-{character_id}",
        state["campaign_id"],
        expected(command),
        command,
        lambda _: [workspace.CharacterEdited(**clean)],
    )


def plan_session(service: Service, command: Mapping[str, Any]) -> Outcome:
    """Add a play session to a campaign."""
    campaign_id = key(command.get("campaign_id"), "campaign_id")
    service.existing(f"campaign-{campaign_id}")
    clean = workspace.parse_session(command)
    session_id = service.context.new_id()
    return service.append(
        f"session-{session_id}",
        campaign_id,
        0,
        command,
        lambda _: [workspace.SessionPlanned(session_id=session_id, campaign_id=campaign_id, **clean)],
    )


def edit_session(service: Service, command: Mapping[str, Any]) -> Outcome:
    """Rewrite a session's number, date, title and notes."""
    session_id = key(command.get("session_id"), "session_id")
    state = service.existing(f"session-{session_id}")
    clean = workspace.parse_session(command)
    return service.append(
        f"session-{session_id}",
        state["campaign_id"],
        expected(command),
        command,
        lambda _: [workspace.SessionEdited(**clean)],
    )


def retract(service: Service, command: Mapping[str, Any]) -> Outcome:
    """Retract an event, named by its global position, with every event that goes with it."""
    clean = parse_fields(
        (Field("position", "Event", "int", minimum=1), Field("reason", "Reason", "text", required=False, maximum=500)),
        command,
    )
    target = service.store.get(clean["position"])
    if target is None:
        raise NotFound("no such event")

    def decide(_state) -> list:
        # Read inside the write transaction: what goes is what the log holds at this very moment.
        kind = replay.category(target.stream)
        past = replay.replay(kind, service.store.read_stream(target.stream))
        group, carried = replay.plan(kind, past, target.version)
        try:  # what stays must be a history the rules could have made without what goes
            replay.state_without(kind, past, {r.version for r in group} | set(carried))
        except ImpossibleHistory as broken:
            raise Refused(f"retracting this would leave a history the rules could not have made: {broken}") from None
        return workspace.decide_retraction(target.type, target.version, [(r.version, r.type) for r in group],
                                           carried, past.gone, clean["reason"] or "")

    return service.append(target.stream, target.campaign_id, expected(command), command, decide)
