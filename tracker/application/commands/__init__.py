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
from typing import Any, Mapping

from tracker.application.commands.accounts import (AssignOwnerlessCampaigns, ChangePassword, ChooseLanguage, EndAllSessions, EndSession,
                                       IssueApiToken, IssuePlayerLink, RegisterGM, RevokeApiToken, RevokePlayerLink,
                                       ShareCampaign, UnshareCampaign)
from tracker.application.commands.base import Command, command_id_of, expected, fingerprint_of, fingerprint_said, said_by
from tracker.application.commands.duels import (ADJUST_IN_DUEL_FIELDS, NOTE_FIELDS, START_FIELDS, AdjustDuelTrack, DuelCommand,
                                    NoteDuel, StartDuel, TakeOverSeat)
from tracker.application.commands.workspace import (AdjustTrack, ChangeCampaignRules, CloseSession, CreateCampaign, CreateCharacter,
                                        EditCampaign, EditCharacter, EditSession, ImportCharacter, PlanSession, RecoverCharacter,
                                        RestoreRetraction, RestParty, RetractEvent, SetCampaignLanguage)
from tracker.rules.base import Invalid
from tracker.rules.text import t

__all__ = ["ADJUST_IN_DUEL_FIELDS", "AdjustDuelTrack", "NOTE_FIELDS", "NoteDuel", "START_FIELDS", "AdjustTrack", "RecoverCharacter", "RestoreRetraction", "RestParty",
           "AssignOwnerlessCampaigns", "ChangeCampaignRules", "ChangePassword", "ChooseLanguage", "CloseSession", "Command",
           "SetCampaignLanguage",
           "CreateCampaign", "CreateCharacter", "DuelCommand", "EditCampaign", "EditCharacter", "EditSession",
           "EndAllSessions", "EndSession", "ImportCharacter", "IssueApiToken", "IssuePlayerLink", "PlanSession", "RegisterGM",
           "RetractEvent", "RevokeApiToken", "RevokePlayerLink", "ShareCampaign", "StartDuel", "TakeOverSeat", "UnshareCampaign",
           "COMMANDS", "expected", "parse"]

COMMANDS: dict[str, type[Command]] = {cls.__name__: cls for cls in (
    CreateCampaign, EditCampaign, ChangeCampaignRules, SetCampaignLanguage, CreateCharacter, EditCharacter, ImportCharacter, PlanSession,
    EditSession, CloseSession, RetractEvent, RestoreRetraction, RecoverCharacter, AdjustTrack, RestParty, StartDuel, NoteDuel, TakeOverSeat,
    AdjustDuelTrack, RegisterGM, EndSession, EndAllSessions, ChangePassword, ChooseLanguage, IssueApiToken,
    RevokeApiToken, ShareCampaign, UnshareCampaign, IssuePlayerLink, RevokePlayerLink)}


def parse(kind: str, raw: Mapping[str, Any], duel: bool = False, key: bytes = b"") -> Command:
    """The typed command a mapping asks for; ``duel`` when the policy knows it as a duel's own
    command; its fingerprint keyed with ``key`` (the install's). Invalid when the type is unknown
    or a field is wrong."""
    command_id = command_id_of(raw)  # a bad id is refused before anything else is looked at
    cls = DuelCommand if duel else COMMANDS.get(kind)
    if cls is None:
        raise Invalid({"type": t("unknown command {command}", command=repr(kind))})
    command = cls.parse(raw)
    if command_id is None:
        return command  # as parsed: no id, no fingerprint (a copy of it would cost a dozen µs)
    said = said_by(raw)
    return dataclasses.replace(command, command_id=command_id, fingerprint=fingerprint_said(said, key), said=said)
