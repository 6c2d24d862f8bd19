"""What the OpenAPI description adds to its operations so that a client, or a schema fuzzer, can
walk the API from one answer to the next: each operation's ``operationId``, the ``links`` from a
created id (a campaign, a character, a session, a duel) to its reads and to the commands that
follow, and examples of commands and answers. Built from the rulesets' own sample sheets and
set-ups, so every example and every link's body is one the server accepts."""
from __future__ import annotations

from typing import Any

from tracker import rules

# Every path's operation, by the name a client (and a link) calls it.
OPERATION_IDS = {
    "/api/v1/commands": "runCommand",
    "/api/v1/me": "readMe",
    "/api/v1/rulesets": "listRulesets",
    "/api/v1/rulesets/{ruleset}": "readRuleset",
    "/api/v1/campaigns": "listCampaigns",
    "/api/v1/campaigns/{campaign_id}/characters": "listCharacters",
    "/api/v1/campaigns/{campaign_id}/sessions": "listSessions",
    "/api/v1/campaigns/{campaign_id}/duels": "listDuels",
    "/api/v1/campaigns/{campaign_id}": "readCampaign",
    "/api/v1/campaigns/{campaign_id}/log": "readLog",
    "/api/v1/campaigns/{campaign_id}/changes": "followCampaign",
    "/api/v1/characters/{character_id}": "readCharacter",
    "/api/v1/sessions/{session_id}": "readSession",
    "/api/v1/duels/{duel_id}": "readDuel",
    "/api/v1/duels/{duel_id}/changes": "followDuel",
    "/api/v1/duels/{duel_id}/stream": "streamDuel",
    "/api/v1/campaigns/{campaign_id}/stream": "streamCampaign",
    "/api/v1/display/{token}/stream": "streamDisplay",
    "/api/v1/display/{token}": "readDisplay",
    "/api/v1/openapi.json": "readDescription",
}

ID = "$response.body#/id"
VERSION = "$response.body#/current_version"
# The campaign a character's or a session's creation names (its first event's data).
CAMPAIGN_OF_EVENT = "$response.body#/events/0/data/campaign_id"
# Placeholder ids of the examples: a client (or a test) puts its own ids in their place.
EXAMPLE_IDS = {"campaign_id": "1e74936edf41", "character_id": "a1b2c3d4e5f6", "rival_id": "b2c3d4e5f6a1",
               "session_id": "9f8e7d6c5b4a", "duel_id": "5d4c3b2a1f0e"}


def _first():
    """The ruleset whose samples the examples and links use: the first shipped one."""
    return rules.shipped()[0]


def _stats() -> dict:
    """A stats block for every shipped ruleset: the first sample duellist's of each."""
    return {module.NAME: module.samples.DUELISTS[0]["stats"][module.NAME] for module in rules.shipped()}


def _body_link(operation: str, description: str, body: dict) -> dict:
    # merge_body false: the link gives the whole body (Schemathesis would otherwise merge it into
    # a generated one, whose other fields a command with additionalProperties false refuses).
    return {"operationId": operation, "description": description, "requestBody": body,
            "x-schemathesis": {"merge_body": False}}


def _read_link(operation: str, description: str, **parameters: str) -> dict:
    return {"operationId": operation, "description": description, "parameters": parameters}


def command_links() -> dict[str, dict]:
    """The links of a command's answer: from the id it created (or acted on) to its reads and to
    the commands that may follow. A link whose id is another kind's answers 404 or 422."""
    return {
        "campaign": _read_link("readCampaign", "a created campaign's read", campaign_id=ID),
        "campaignOfCharacter": _read_link("readCampaign", "the campaign a character or a session was created in",
                                          campaign_id=CAMPAIGN_OF_EVENT),
        "character": _read_link("readCharacter", "a created character's sheet", character_id=ID),
        "session": _read_link("readSession", "a planned session's read", session_id=ID),
        "duel": _read_link("readDuel", "a started duel's read (or the duel a command acted on)", duel_id=ID),
        "createCharacter": _body_link("runCommand", "a character in the created campaign", {
            "type": "CreateCharacter", "campaign_id": ID, "name": "Aitana", "rank": "pj", "stats": _stats()}),
        "createRival": _body_link("runCommand", "another character in the campaign a character was created in", {
            "type": "CreateCharacter", "campaign_id": CAMPAIGN_OF_EVENT, "name": "Alonso", "rank": "villano",
            "stats": _stats()}),
        "planSession": _body_link("runCommand", "a session of the created campaign", {
            "type": "PlanSession", "campaign_id": ID, "number": 1, "date": "2026-11-30", "title": "Dawn"}),
        "planSessionToo": _body_link("runCommand", "a session of the campaign a character was created in", {
            "type": "PlanSession", "campaign_id": CAMPAIGN_OF_EVENT, "number": 1, "date": "2026-11-30",
            "title": "Dawn"}),
        **duel_links(VERSION),
    }


def duel_links(version: str) -> dict[str, dict]:
    """From a duel's id and version (a command's answer, a duel's read): commands that play on."""
    first = _first()
    return {
        "rollInitiative": _body_link("runCommand", "the duel's initiative, rolled by the server", {
            "type": "RollInitiative", "duel_id": ID, "expected_version": version, "server_roll": True}),
        "firstCardsPlayed": _body_link("runCommand", f"a {first.TITLE} duel's next turn: the first cards offered", {
            "type": "PlayTurn", "duel_id": ID, "expected_version": version, "server_roll": True,
            "card_a": "$response.body#/legal_actions/0/fields/card_a/choices/0",
            "card_b": "$response.body#/legal_actions/0/fields/card_b/choices/0"}),
        "yieldDuel": _body_link("runCommand", "side A yields the duel", {
            "type": "Yield", "duel_id": ID, "expected_version": version, "side": "a"}),
    }


def campaign_read_links() -> dict[str, dict]:
    """From a campaign's read: a duel of each ruleset between its first two characters, in the
    campaign's session of the day (planned on the fly when there is none)."""
    return {f"startDuel.{module.NAME}": _body_link(
        "runCommand", f"a {module.TITLE} duel between the campaign's first two characters", {
            "type": "StartDuel", "campaign_id": "$response.body#/campaign/id", "ruleset": module.NAME,
            "setup": dict(module.samples.SETUPS[0]),
            "duelists": [{"character_id": "$response.body#/characters/0/id", "side": "a"},
                         {"character_id": "$response.body#/characters/1/id", "side": "b"}]})
        for module in rules.shipped()}


def campaigns_links() -> dict[str, dict]:
    """From the list of campaigns: the first one's read."""
    return {"firstCampaign": _read_link("readCampaign", "the first campaign's read",
                                        campaign_id="$response.body#/campaigns/0/id")}


def command_examples() -> dict[str, dict]:
    """Examples of commands, one of each step a client takes first, with placeholder ids."""
    first, ids = _first(), EXAMPLE_IDS
    found: dict[str, Any] = {
        "CreateCampaign": {"type": "CreateCampaign", "name": "La Temporada de Duelos", "ruleset": first.NAME},
        "PlanSession": {"type": "PlanSession", "campaign_id": ids["campaign_id"], "number": 1,
                        "date": "2026-11-30", "title": "Swords at dawn"},
    }
    for module in rules.shipped():
        sheet = module.samples.DUELISTS[0]
        found[f"CreateCharacter.{module.NAME}"] = {
            "type": "CreateCharacter", "campaign_id": ids["campaign_id"], "name": sheet["name"], "rank": "pj",
            "stats": {module.NAME: sheet["stats"][module.NAME]}}
        found[f"StartDuel.{module.NAME}"] = {
            "type": "StartDuel", "session_id": ids["session_id"], "ruleset": module.NAME,
            "setup": dict(module.samples.SETUPS[0]),
            "duelists": [{"character_id": ids["character_id"], "side": "a"},
                         {"character_id": ids["rival_id"], "side": "b"}]}
    found["Yield"] = {"type": "Yield", "duel_id": ids["duel_id"], "expected_version": 1, "side": "b"}
    found["NoteDuel"] = {"type": "NoteDuel", "duel_id": ids["duel_id"], "text": "A fine opening.", "public": True}
    return {name: {"summary": name.replace(".", " of "), "value": value} for name, value in found.items()}


ANSWER_EXAMPLE = {
    "stream": "campaign-1e74936edf41", "id": "1e74936edf41", "version": 1, "current_version": 1,
    "replayed": False,
    "events": [{"position": 1, "stream": "campaign-1e74936edf41", "version": 1, "type": "CampaignCreated",
                "data": {"campaign_id": "1e74936edf41", "name": "La Temporada de Duelos", "notes": ""}}]}

PROBLEM_EXAMPLES = {
    "401": {"type": "tag:touche,2026:problem:unauthorized", "title": "Not authorized", "status": 401,
            "detail": "send a valid API token", "errors": {}, "error": "unauthorized",
            "message": "send a valid API token"},
    "404": {"type": "tag:touche,2026:problem:not_found", "title": "Not found", "status": 404,
            "detail": "no such duel", "errors": {}, "error": "not_found", "message": "no such duel"},
    "409": {"type": "tag:touche,2026:problem:conflict", "title": "Conflict", "status": 409,
            "detail": "someone else logged first: read again, then resend", "errors": {}, "error": "conflict",
            "message": "someone else logged first: read again, then resend", "stream": "duel-5d4c3b2a1f0e",
            "expected_version": 3, "current_version": 4},
    "422": {"type": "tag:touche,2026:problem:invalid", "title": "Invalid", "status": 422,
            "detail": "pubic: is not a field of NoteDuel: remove it (see its description)",
            "errors": {"pubic": "is not a field of NoteDuel: remove it (see its description)"},
            "error": "invalid", "message": "pubic: is not a field of NoteDuel: remove it (see its description)"},
}


def read_examples() -> dict[str, Any]:
    """An example answer of each read, by operationId (each valid by its schema: a test holds it)."""
    first, ids = _first(), EXAMPLE_IDS
    campaign = {"id": ids["campaign_id"], "name": "La Temporada de Duelos", "ruleset": first.NAME, "notes": "",
                "version": 3}
    character = {"id": ids["character_id"], "campaign_id": ids["campaign_id"], "name": "Inés de Ayala",
                 "rank": "pj", "player": "Ana", "version": 1}
    session = {"id": ids["session_id"], "campaign_id": ids["campaign_id"], "number": 1, "date": "2026-11-30",
               "title": "Swords at dawn", "version": 1}
    duel = {"id": ids["duel_id"], "campaign_id": ids["campaign_id"], "session_id": ids["session_id"],
            "ruleset": first.NAME, "kind": first.samples.SETUPS[0]["kind"], "status": "running", "winner": None,
            "version": 3}
    entry = {"position": 5, "type": "DuelStarted", "subject": f"duel-{ids['duel_id']}", "line": "Inés and Lope duel"}
    duel_read = {**duel, "audience": "gm", "state": {}, "steps": [], "steps_since": None,
                 "legal_actions": [{"type": "Yield", "by": "gm", "side": None, "fields": {
                     "side": {"kind": "choice", "type": "string", "required": True, "label": "Who yields",
                              "choices": ["a", "b"]}}}],
                 "adjustable_tracks": [], "assumptions": []}
    ruleset = {"name": first.NAME, "title": str(first.TITLE), "kinds": {k: str(v) for k, v in first.KINDS.items()},
               "schemas": {"sheet": {"type": "object"}, "setup": {"type": "object"}}}
    return {
        "readMe": {"gm": {"id": "77aa88bb99cc", "username": "marta"}, "token": {"id": "c0ffee123456", "label": "my dice bot", "read_only": False,
                                                                               "campaign_id": None},
                   "campaigns": [{"id": ids["campaign_id"], "name": campaign["name"], "ruleset": first.NAME,
                                  "role": "owner"}]},
        "listRulesets": {"rulesets": [ruleset]},
        "readRuleset": ruleset,
        "listCampaigns": {"campaigns": [campaign], "next_cursor": None},
        "listCharacters": {"characters": [character], "next_cursor": None},
        "listSessions": {"sessions": [session], "next_cursor": None},
        "listDuels": {"duels": [duel], "next_cursor": None},
        "readCampaign": {"campaign": campaign, "characters": [character], "sessions": [session], "duels": [duel],
                         "position": 5},
        "readLog": {"entries": [entry], "next_before": None},
        "followCampaign": {"changed": True, "position": 5, "entries": [entry]},
        "readCharacter": {"character": character, "tracks": [], "wounds": [], "duels": [], "record": {}},
        "readSession": {"session": session, "duels": [duel]},
        "readDuel": duel_read,
        "followDuel": {"changed": True, "version": 3, "duel": duel_read},
        "readDisplay": {"changed": False, "version": 3, "duel": None},
        "readDescription": {"openapi": "3.1.0"},
    }
