"""Commands on the GM's workspace: campaigns, characters, play sessions, retractions."""

from __future__ import annotations

from tracker.domain import workspace
from tracker.application.commands import (ChangeCampaignRules, CreateCampaign, CreateCharacter, EditCampaign, EditCharacter,
                              CloseSession, EditSession, ImportCharacter, PlanSession, RestoreRetraction, RetractEvent,
                              SetCampaignLanguage)
from tracker.domain.errors import NotFound
from tracker.domain.languages import DEFAULT_LANGUAGE
from tracker.projections import queries, replay
from tracker.rules.base import ImpossibleHistory, Refused
from tracker.rules.text import t
from tracker.application.services import Outcome, Service


def create_campaign(service: Service, command: CreateCampaign) -> Outcome:
    """Open a campaign owned by the acting GM."""
    campaign_id = command.campaign_id or service.context.new_id()
    created = workspace.CampaignCreated(campaign_id=campaign_id, owner=service.context.actor, name=command.name,
                                        ruleset=command.ruleset, notes=command.notes)
    # A campaign that never chose reads English: only another language is a fact worth recording.
    spoken = [workspace.CampaignLanguageSet(language=command.language)] \
        if command.language and command.language != DEFAULT_LANGUAGE else []
    return service.append(f"campaign-{campaign_id}", campaign_id, 0, command, lambda _: [created, *spoken])


def edit_campaign(service: Service, command: EditCampaign) -> Outcome:
    """Rewrite a campaign's name, default ruleset and notes."""
    service.existing(f"campaign-{command.campaign_id}")
    edited = workspace.CampaignEdited(name=command.name, ruleset=command.ruleset, notes=command.notes)
    return service.append(f"campaign-{command.campaign_id}", command.campaign_id, command.expected_version,
                          command, lambda _: [edited])


def change_campaign_rules(service: Service, command: ChangeCampaignRules) -> Outcome:
    """Change the campaign's own settings for one ruleset."""
    service.existing(f"campaign-{command.campaign_id}")
    changed = workspace.CampaignRulesChanged(ruleset=command.ruleset, settings=command.settings)
    return service.append(f"campaign-{command.campaign_id}", command.campaign_id, command.expected_version,
                          command, lambda _: [changed])


def set_campaign_language(service: Service, command: SetCampaignLanguage) -> Outcome:
    """Set the language the campaign's players see."""
    service.existing(f"campaign-{command.campaign_id}")
    chosen = workspace.CampaignLanguageSet(language=command.language)
    return service.append(f"campaign-{command.campaign_id}", command.campaign_id, command.expected_version,
                          command, lambda _: [chosen])


def create_character(service: Service, command: CreateCharacter) -> Outcome:
    """Add a character, with a stats block per ruleset, to a campaign."""
    service.existing(f"campaign-{command.campaign_id}")
    character_id = service.context.new_id()
    created = workspace.CharacterCreated(character_id=character_id, campaign_id=command.campaign_id,
                                         **_sheet(command))
    return service.append(f"character-{character_id}", command.campaign_id, 0, command, lambda _: [created])


def edit_character(service: Service, command: EditCharacter) -> Outcome:
    """Rewrite a character's sheet."""
    state = service.existing(f"character-{command.character_id}")
    return service.append(f"character-{command.character_id}", state["campaign_id"], command.expected_version,
                          command, lambda _: [workspace.CharacterEdited(**_sheet(command))])


def _sheet(command: CreateCharacter | EditCharacter) -> dict:
    return {"name": command.name, "rank": command.rank, "player": command.player, "notes": command.notes,
            "stats": command.stats}


def import_character(service: Service, command: ImportCharacter) -> Outcome:
    """Bring a character in from an export: a new character, or the one this export (or the
    character page it was sent from) made before, rewritten as an edit would rewrite it. Either
    way the sheet's event is followed by ``CharacterImported``, naming the source."""
    service.existing(f"campaign-{command.campaign_id}")
    imported = workspace.CharacterImported(ruleset=command.ruleset, source=command.source,
                                           source_id=command.source_id, left_out=command.left_out)
    character_id = command.character_id or _made_before(service, command)
    if character_id is None:
        character_id = service.context.new_id()
        created = workspace.CharacterCreated(
            character_id=character_id, campaign_id=command.campaign_id, name=command.name,
            rank=command.rank or command.export_rank, player=command.player, notes="",
            stats={command.ruleset: command.stats})
        return service.append(f"character-{character_id}", command.campaign_id, 0, command,
                              lambda _: [created, imported])
    stream = f"character-{character_id}"
    state = service.existing(stream, command.campaign_id)
    edited = workspace.CharacterEdited(
        name=command.name, rank=command.rank or state["rank"], player=command.player or state.get("player", ""),
        notes=state.get("notes", ""), stats={**state.get("stats", {}), command.ruleset: command.stats})
    return service.append(stream, command.campaign_id, command.expected_version, command,
                          lambda _: [edited, imported])


def _made_before(service: Service, command: ImportCharacter) -> str | None:
    """The campaign's character an earlier export of the same character made: the same source and
    the same source id, or, for a source without ids, the same name."""
    for row in queries.characters(service.db, command.campaign_id):
        _, state = service.state_of(f"character-{row['id']}")
        past = (state or {}).get("imported")
        if not past or past["source"] != command.source or past["ruleset"] != command.ruleset:
            continue
        if (past["source_id"] == command.source_id) if command.source_id else (state["name"] == command.name):
            return row["id"]
    return None


def plan_session(service: Service, command: PlanSession) -> Outcome:
    """Add a play session to a campaign."""
    service.existing(f"campaign-{command.campaign_id}")
    session_id = service.context.new_id()
    planned = workspace.SessionPlanned(session_id=session_id, campaign_id=command.campaign_id,
                                       on_the_fly=command.on_the_fly, **_page(command))
    return service.append(f"session-{session_id}", command.campaign_id, 0, command, lambda _: [planned])


def edit_session(service: Service, command: EditSession) -> Outcome:
    """Rewrite a session's number, date, title and notes."""
    state = service.existing(f"session-{command.session_id}")
    return service.append(f"session-{command.session_id}", state["campaign_id"], command.expected_version,
                          command, lambda _: [workspace.SessionEdited(**_page(command))])


def close_session(service: Service, command: CloseSession) -> Outcome:
    """Close a play session: its players' seats stop working at once."""
    state = service.existing(f"session-{command.session_id}")
    if state.get("closed"):
        raise Refused(t("this session is already closed"))
    return service.append(f"session-{command.session_id}", state["campaign_id"], None, command,
                          lambda _: [workspace.SessionClosed()])


def _page(command: PlanSession | EditSession) -> dict:
    return {"number": command.number, "date": command.date, "title": command.title, "notes": command.notes}


def retract(service: Service, command: RetractEvent) -> Outcome:
    """Retract an event, named by its global position, with every event that goes with it."""
    target = service.store.get(command.position)
    if target is None:
        raise NotFound(t("no such event"))

    def decide(_state) -> list:
        # Read inside the write transaction: what goes is what the log holds at this very moment.
        kind = replay.category(target.stream)
        past = replay.replay(kind, service.store.read_stream(target.stream))
        group, carried = replay.plan(kind, past, target.version)
        try:  # what stays must be a history the rules could have made without what goes
            replay.state_without(kind, past, {r.version for r in group} | set(carried))
        except ImpossibleHistory as broken:
            raise Refused(t("retracting this would leave a history the rules could not have made: {why}", why=str(broken))) from None
        return workspace.decide_retraction(target.type, target.version, [(r.version, r.type) for r in group],
                                           carried, past.gone, command.reason)

    return service.append(target.stream, target.campaign_id, command.expected_version, command, decide)


def restore(service: Service, command: RestoreRetraction) -> Outcome:
    """Take back a retraction made by mistake: what it retracted stands again."""
    target = service.store.get(command.position)
    if target is None:
        raise NotFound(t("no such event"))

    def decide(_state) -> list:
        kind = replay.category(target.stream)
        recorded = service.store.read_stream(target.stream)
        past = replay.replay(kind, recorded)
        if target.type == replay.RETRACTION and target.event.scope == "legacy":
            raise Refused(t("a retraction recorded before retractions named what they carried cannot be restored"))
        return workspace.decide_restore(target.version, target.type,
                                        replay.standing_after(past, recorded, target.version),
                                        set(past.taken), command.reason)

    return service.append(target.stream, target.campaign_id, command.expected_version, command, decide)
