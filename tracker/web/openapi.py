"""The OpenAPI 3.1 description of the JSON API, built from the same registries the service uses:
every workspace and account command, and every ruleset's commands from their ``FIELDS``, so a
command added to the code is in the description without anyone writing it twice (a test holds it)."""
from __future__ import annotations

from typing import Any, Mapping

from tracker.application import commands as workspace_commands
from tracker import rules
from tracker.application.commands import duels as duel_commands
from tracker.application.commands import workspace
from tracker.rules.fields import LARGEST_INT, Field
from tracker.rules.json_schema import field_schema, fields_schema, ruleset_schemas
from tracker.rules.legal import JSON_TYPES, ROLL_WHEN
from tracker.web import openapi_links
from tracker.domain.workspace import importers

STRING, INTEGER, BOOLEAN = {"type": "string"}, {"type": "integer"}, {"type": "boolean"}
OBJECT = {"type": "object"}
ID = {"type": "string", "maxLength": 64}
TEXT = {"type": "string", "maxLength": 2000}
VERSION = {"type": "integer", "minimum": 0, "maximum": LARGEST_INT}
NULLABLE_STRING = {"type": ["string", "null"]}

# The workspace and account commands (their fields are parsed by hand in tracker/application/commands):
# name -> (required fields, every field's schema).
WORKSPACE: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "CreateCampaign": (("name", "ruleset"), {"name": TEXT, "ruleset": STRING, "notes": TEXT,
                                              "campaign_id": {**ID, "description": "the new campaign's id, when the client chooses it"},
                                              "language": {**STRING, "description": "the players' language"}}),
    "EditCampaign": (("campaign_id", "expected_version", "name", "ruleset"),
                     {"campaign_id": ID, "expected_version": VERSION, "name": TEXT, "ruleset": STRING, "notes": TEXT}),
    "ChangeCampaignRules": (("campaign_id", "expected_version", "ruleset"),
                            {"campaign_id": ID, "expected_version": VERSION, "ruleset": STRING,
                             "insults": {**TEXT, "description": "a ruleset's own campaign setting (its commands page)"}}),
    "SetCampaignLanguage": (("campaign_id", "expected_version", "language"),
                            {"campaign_id": ID, "expected_version": VERSION, "language": {"enum": ["en", "es"]}}),
    "ChooseLanguage": (("language",), {"language": {"enum": ["en", "es"]}}),
    "CreateCharacter": (("campaign_id", "name", "rank"),
                        {"campaign_id": ID, "name": TEXT, "rank": {"enum": ["pj", "villano", "elite", "campeon", "minor"]},
                         "player": TEXT, "notes": TEXT,
                         "stats": {**OBJECT, "description": "one block per ruleset, as its commands page says"}}),
    "EditCharacter": (("character_id", "expected_version", "name", "rank"),
                      {"character_id": ID, "expected_version": VERSION, "name": TEXT,
                       "rank": {"enum": ["pj", "villano", "elite", "campeon", "minor"]}, "player": TEXT,
                       "notes": TEXT, "stats": OBJECT}),
    "ImportCharacter": (("campaign_id", "json"),
                        {"campaign_id": ID, "json": {"type": ["object", "string"], "description":
                                                     "the export: a Foundry VTT actor or a Pathbuilder 2e JSON export, "
                                                     "as an object or as its text (docs/imports.md)"},
                         "source": {"enum": []},  # filled from the rulesets' importers
                         "rank": {"enum": ["", "pj", "villano", "elite", "campeon", "minor"],
                                  "description": "the export's own (PC or NPC) when empty or absent"},
                         "player": TEXT,
                         "character_id": {**ID, "description": "the character a newer export rewrites (else the one "
                                          "the same export made before, else a new one)"},
                         "expected_version": VERSION}),
    "PlanSession": (("campaign_id", "number", "date"),
                    {"campaign_id": ID, "number": INTEGER, "date": {**STRING, "description": "YYYY-MM-DD"},
                     "title": {**TEXT, "description": "required unless on_the_fly"}, "notes": TEXT,
                     "on_the_fly": {"type": "boolean", "description": "planned for a duel started outside any "
                                    "session: no title (it reads as the day's duels in the reader's language)"}}),
    "EditSession": (("session_id", "expected_version", "number", "date", "title"),
                    {"session_id": ID, "expected_version": VERSION, "number": INTEGER, "date": STRING,
                     "title": TEXT, "notes": TEXT}),
    "RetractEvent": (("position", "expected_version"),
                     {"position": {"type": "integer", "minimum": 1}, "expected_version": VERSION, "reason": TEXT}),
    "StartDuel": (("ruleset", "duelists"),
                  {"session_id": {**ID, "description": "the session it belongs to (or campaign_id)"},
                   "campaign_id": {**ID, "description": "a duel outside any planned session: today's session"},
                   "ruleset": {"enum": []},  # filled from the registry
                   "duelists": {"type": "array", "items": {
                       "type": "object", "required": ["character_id", "side"], "additionalProperties": False,
                       "properties": {"character_id": ID, "side": {"enum": ["a", "b"]}}}},
                   "challenger": {"enum": ["", "a", "b"]}, "stakes": TEXT, "judge": TEXT,
                   "setup": {**OBJECT, "description": "the ruleset's set-up fields (its commands page)"}}),
    "RegisterGM": (("username", "password"), {"username": STRING, "password": STRING}),
    "EndSession": (("session_id",), {"session_id": STRING}),
    "CloseSession": (("session_id",), {"session_id": ID}),
    "EndAllSessions": ((), {}),
    "ChangePassword": (("current_password", "new_password"), {"current_password": STRING, "new_password": STRING}),
    "IssueApiToken": ((), {"label": {"type": "string", "maxLength": 100},
                           "read_only": {"type": "boolean", "description": "the token reads, and sends no command"},
                           "campaign_id": {**ID, "description": "the one campaign the token reaches"}}),
    "RevokeApiToken": (("token_id",), {"token_id": ID}),
    "ShareCampaign": (("campaign_id", "username"), {"campaign_id": ID, "username": STRING}),
    "UnshareCampaign": (("campaign_id", "gm_id"), {"campaign_id": ID, "gm_id": ID}),
    "IssuePlayerLink": (("link_kind", "target"), {"link_kind": {"enum": ["display", "recap", "seat"]}, "target": ID,
                                                  "character_id": {**ID, "description": "a seat's character"}}),
    "RevokePlayerLink": (("link_id",), {"link_id": ID}),
    "AssignOwnerlessCampaigns": ((), {}),
}
DUEL_ENVELOPE = {"duel_id": ID, "expected_version": VERSION}


def _fielded(required: tuple[str, ...], fields, **extra) -> tuple[tuple[str, ...], dict[str, Any]]:
    """A workspace command whose fields are parsed by ``tracker.rules.fields``: described from them."""
    return required, {**extra, **{f.name: field_schema(f) for f in fields}}


WORKSPACE["TakeOverSeat"] = _fielded(("duel_id", "side"), (), duel_id=ID,
                                     side={"type": "string", "enum": ["a", "b"]})
WORKSPACE["NoteDuel"] = _fielded(("duel_id", "text"), duel_commands.NOTE_FIELDS, duel_id=ID)
WORKSPACE["AdjustDuelTrack"] = _fielded(
    ("duel_id", "expected_version", "character_id", "track", "amount", "reason"), duel_commands.ADJUST_IN_DUEL_FIELDS,
    duel_id=ID, expected_version=VERSION,
    target={"type": "string", "description": "the page's form: \"<character_id> <track>\" instead of the two"})
WORKSPACE["RestoreRetraction"] = _fielded(("position", "expected_version"), workspace.RETRACT_FIELDS,
                                          expected_version=VERSION)
WORKSPACE["RecoverCharacter"] = _fielded(
    ("character_id", "ruleset"), workspace.RECOVER_FIELDS, character_id=ID, expected_version=VERSION,
    **{"dice": {"description": "the recovery's dice as rolled (its ruleset's commands page)"},
       "server_roll": BOOLEAN})
WORKSPACE["AdjustTrack"] = _fielded(("character_id", "ruleset", "track", "amount", "reason"), workspace.ADJUST_FIELDS,
                                    character_id=ID, expected_version=VERSION)
WORKSPACE["RestParty"] = (("session_id",), {"session_id": ID})

def _command(name: str, required, properties: dict, description: str = "") -> dict:
    # additionalProperties false: a field the command does not take is refused (422), never
    # ignored (a "pubic": true typo would log a private note as if nothing were wrong).
    return {"type": "object", "required": ["type", *required], "description": description,
            "properties": {"type": {"const": name}, "command_id": {"type": "string", "maxLength": 64},
                           **properties},
            "additionalProperties": False}


def _by_ruleset(fields_of) -> dict[str, Any]:
    """The fields each ruleset adds to a command (``fields_of(module)``), all of them by name: a
    name two rulesets describe differently takes either description."""
    found: dict[str, Any] = {}
    for module in rules.RULESETS.values():
        for f in fields_of(module):
            schema = field_schema(f)
            if f.name not in found:
                found[f.name] = schema
            elif schema != found[f.name] and schema not in found[f.name].get("anyOf", ()):
                known = found[f.name]["anyOf"] if set(found[f.name]) == {"anyOf"} else [found[f.name]]
                found[f.name] = {"anyOf": [*known, schema]}
    return found


def _settings(module) -> tuple[Field, ...]:
    return tuple(getattr(module, "CAMPAIGN_SETTINGS", ()))


def _recovery_fields(module, recovery: str | None = None) -> tuple[Field, ...]:
    chosen = [module.RECOVERIES[recovery]] if recovery in module.RECOVERIES else module.RECOVERIES.values()
    return tuple(f for r in chosen for f in r.fields)


def workspace_properties(name: str) -> dict[str, Any]:
    """A workspace or account command's fields, each with its schema (a ruleset's own campaign
    settings and recovery fields included, from every ruleset)."""
    properties = dict(WORKSPACE[name][1])
    if "ruleset" in properties and name != "StartDuel":
        properties["ruleset"] = {"enum": sorted(rules.RULESETS), "description": "a ruleset's name (GET /api/v1/rulesets)"}
    if name == "ImportCharacter":
        properties["source"] = {"enum": ["", *importers()], "description": "the export's format; found from "
                                "the file when empty or absent"}
    if "stats" in properties:
        # One block per ruleset, each that ruleset's sheet: nothing else is taken.
        properties["stats"] = {"type": "object", "additionalProperties": False,
                               "description": "one stats block per ruleset, each its sheet's schema",
                               "properties": {ruleset: _ref(f"{ruleset}.Sheet") for ruleset in sorted(rules.RULESETS)}}
    if name == "StartDuel":
        properties["setup"] = {"anyOf": [_ref(f"{ruleset}.Setup") for ruleset in sorted(rules.RULESETS)],
                               "description": "the set-up of the duel's ruleset, as its schema says"}
        properties["ruleset"] = {"enum": sorted(rules.RULESETS)}
        # A form's way, kept for the API: without a ``setup`` object, the set-up fields at the top.
        top = {name: {**schema, "description": f"without `setup`: {schema.get('description', name)}"}
               for name, schema in _by_ruleset(lambda module: module.SETUP).items()}
        properties = {**top, **properties, **FORM_SIDES}
    elif name == "ChangeCampaignRules":
        properties.update(_by_ruleset(_settings))
    elif name == "RecoverCharacter":
        properties.update(_by_ruleset(_recovery_fields))
    return properties


ENVELOPE = frozenset({"type", "command_id"})
FORM_SIDES = {f"side_{side}": {"anyOf": [ID, {"type": "array", "items": ID}],
                               "description": f"without `duelists`: side {side.upper()}'s character ids"}
              for side in "ab"}


def declared_fields(name: str, body: Mapping[str, Any], ruleset: str | None = None) -> frozenset[str] | None:
    """The fields the command ``name`` takes through the API, as its schema declares them, or
    None when the API does not know it (yet): an unknown type, or a duel's own command whose duel
    (its ``ruleset``) was not found. A ruleset named in the body (campaign settings, a recovery)
    narrows them to that ruleset's own."""
    if name in workspace_commands.COMMANDS:
        module = rules.RULESETS.get(body.get("ruleset")) if isinstance(body.get("ruleset"), str) else None
        if module is not None and name == "ChangeCampaignRules":
            return ENVELOPE | set(WORKSPACE[name][1]) | {f.name for f in _settings(module)}
        if module is not None and name == "RecoverCharacter":
            recovery = body.get("recovery") if isinstance(body.get("recovery"), str) else "rest"
            return ENVELOPE | set(WORKSPACE[name][1]) | {f.name for f in _recovery_fields(module, recovery)}
        if module is not None and name == "StartDuel":
            top = () if isinstance(body.get("setup"), dict) else module.SETUP
            return ENVELOPE | set(WORKSPACE[name][1]) | set(FORM_SIDES) | {f.name for f in top}
        return ENVELOPE | set(workspace_properties(name))
    module = rules.RULESETS.get(ruleset or "")
    if module is None or name not in module.COMMANDS:
        return None
    return ENVELOPE | set(DUEL_ENVELOPE) | {f.name for f in module.COMMANDS[name].FIELDS}


def command_schemas() -> dict[str, dict]:
    """Every command the API takes, by component name (a ruleset's as ``<ruleset>.<Command>``)."""
    found = {}
    for name in workspace_commands.COMMANDS:
        found[name] = _command(name, WORKSPACE[name][0], workspace_properties(name))
    for module in rules.RULESETS.values():
        for name, command in module.COMMANDS.items():
            fields = {f.name: field_schema(f) for f in command.FIELDS}
            required = ["duel_id", "expected_version"] + [f.name for f in command.FIELDS
                                                           if f.required and f.default is None and f.kind != "bool"]
            found[f"{module.NAME}.{name}"] = schema = _command(name, required, {**DUEL_ENVELOPE, **fields},
                                                               f"{module.TITLE}: {(command.__doc__ or name).strip()}")
            dependent = fields_schema(command.FIELDS).get("dependentRequired")
            if dependent:
                schema["dependentRequired"] = dependent
    return found


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict, description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _problem(description: str, **headers: str) -> dict:
    answer = {"description": description, "content": {"application/problem+json": {"schema": _ref("Problem")}}}
    if headers:
        answer["headers"] = {name: {"description": said, "schema": STRING} for name, said in headers.items()}
    return answer


# Each status an operation may answer, documented one by one (no "default": a status the
# description does not name is a bug the fuzzing test catches).
FAILURES = {
    "400": "bad_request: a malformed address (a query number SQLite cannot hold, bytes that are not UTF-8)",
    "403": "forbidden: the access policy refuses this command to this GM or through the API",
    "404": "not_found: no such campaign, character, session, duel, event or link (or not the GM's)",
    "409": "conflict: expected_version is stale (with stream, expected_version, current_version)",
    "413": "too_large: the body is over the limit (limit_bytes)",
    "422": "invalid or refused: a field is wrong or unknown, or the rules refuse (errors names each field)",
    "429": "too_many_attempts: too many requests or guesses; wait and retry",
    "503": "unavailable: the database is out of reach (Retry-After)",
}
READ_FAILURES = ("400", "404", "422", "429", "503")
COMMAND_FAILURES = ("400", "403", "404", "409", "413", "422", "429", "503")


def _failures(statuses) -> dict:
    found = {}
    for status in statuses:
        found[status] = _problem(FAILURES[status])
        if status in openapi_links.PROBLEM_EXAMPLES:
            found[status]["content"]["application/problem+json"]["example"] = openapi_links.PROBLEM_EXAMPLES[status]
    return found


ERRORS = _failures(READ_FAILURES)
UNAUTHORIZED = {"401": _problem("no valid API token", **{"WWW-Authenticate": 'Bearer realm="touche" (RFC 6750)'})}
UNAUTHORIZED["401"]["content"]["application/problem+json"]["example"] = openapi_links.PROBLEM_EXAMPLES["401"]


def _answer(description: str, linked: bool = True) -> dict:
    """A command's answer, with an example and (for a new answer) the links from the id it names
    to what follows."""
    answer = _json(_ref("CommandAnswer"), description)
    answer["content"]["application/json"]["example"] = openapi_links.ANSWER_EXAMPLE
    if linked:
        answer["links"] = openapi_links.command_links()
    return answer


def _read(summary: str, schema: dict, parameters: list | None = None, secured: bool = True) -> dict:
    operation = {"summary": summary, "responses": {"200": _json(schema, "the read"),
                                                   **(UNAUTHORIZED if secured else {}), **ERRORS}}
    if parameters:
        operation["parameters"] = parameters
    if not secured:
        operation["security"] = []
    return {"get": operation}


def _path(name: str, description: str) -> dict:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[A-Za-z0-9_]+$"}}


def _query(name: str, description: str, maximum: int = LARGEST_INT) -> dict:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": {"type": "integer", "minimum": 0, "maximum": maximum}}


FOLLOW = [_query("since", "the version (or position) the client last saw; the answer waits for a later one"),
          _query("wait", "seconds to wait for a change (0 to 30; the server may cut it)", maximum=30)]


WHOLE = {"name": "whole", "in": "query", "required": False, "schema": {"enum": ["true", "false"]},
         "description": "true: the whole read (every step), not only the steps after `since`"}
LAST_EVENT_ID = {"name": "Last-Event-ID", "in": "header", "required": False, "schema": STRING,
                 "description": "the id of the last event the client holds (an EventSource sends it when it"
                                " reconnects): the stream starts after it, as `since` does"}


def _stream(summary: str, parameters: list, secured: bool = True) -> dict:
    """A ``text/event-stream`` follow: each event's ``id:`` the version (or position) it brings."""
    path = _read(summary, OBJECT, [*parameters, _query("since", "the version (or position) the client holds"),
                                   LAST_EVENT_ID], secured)
    path["get"]["responses"]["200"] = {
        "description": "server-sent events, each `id:` the version (or log position) it brings the client to,"
                       " `data:` one line of JSON; `retry:` says when to reconnect once the stream ends",
        "content": {"text/event-stream": {"schema": {
            "type": "object", "description": "one event",
            "properties": {"id": STRING, "event": STRING, "retry": {"type": ["integer", "string"]},
                           "data": {"type": "string", "description": "one line of JSON"}}},
            "example": {"id": "7", "event": "duel", "data": '{"version":7,"duel":{}}'}}}}
    return path


PAGED = [{"name": "limit", "in": "query", "required": False, "description": "rows a page (default 100)",
          "schema": {"type": "integer", "minimum": 1, "maximum": 1000}},
         {"name": "cursor", "in": "query", "required": False, "schema": {**STRING, "maxLength": 64},
          "description": "the next_cursor of the page before (its Link rel=\"next\" carries it)"}]
LINK = {"Link": {"description": "RFC 8288: `<…>; rel=\"next\"` to the next page, when there is one",
                 "schema": STRING}}


def _list(summary: str, name: str, parameters: list) -> dict:
    """A paged list: ``name`` (a page of rows) and ``next_cursor``, with its Link header."""
    schema = {"type": "object", "required": [name, "next_cursor"],
              "properties": {name: {"type": "array", "items": {"type": "object", "additionalProperties": True}},
                             "next_cursor": {"type": ["string", "null"],
                                             "description": "the cursor of the next page; null on the last"}}}
    path = _read(summary, schema, [*parameters, *PAGED])
    path["get"]["responses"]["200"]["headers"] = LINK
    return path


STEPS_SINCE = _query("steps_since", "every step (and state history line) logged after this version:"
                     " a follower sends the version it last read, and is sent only what is new; 0: the whole history")
HISTORY_BEFORE = _query("history_before", "without steps_since: the steps and history lines of the versions"
                        " just before this one (the read's `earlier`), to page back through a long duel")
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False, "schema": STRING,
                 "description": "the ETag of the read the client holds: 304 and no body while it is current"}
ETAG = {"ETag": {"description": "a weak tag derived from the duel's version, the campaign log's position,"
                                " the audience, the language, steps_since and history_before", "schema": STRING}}


def _tagged(path: dict) -> dict:
    """A duel read's operation with its ETag, If-None-Match and 304, ``steps_since`` and ``history_before``."""
    operation = path["get"]
    operation["parameters"] = [*operation.get("parameters", []), STEPS_SINCE, HISTORY_BEFORE, IF_NONE_MATCH]
    operation["responses"]["200"]["headers"] = ETAG
    operation["responses"]["304"] = {"description": "the read named by If-None-Match is current: no body",
                                     "headers": ETAG}
    return path


def schemas() -> dict[str, dict]:
    """The components: answers, reads and every command."""
    row = {"type": "object", "additionalProperties": True}
    field_spec = {"type": "object", "required": ["kind", "type", "required", "label"],
                  "properties": {"kind": STRING, "required": BOOLEAN, "label": STRING,
                                 "type": {"enum": sorted(set(JSON_TYPES.values())),
                                          "description": "the JSON type of the value the field takes"},
                                 "default": {"description": "the value a client sends when it has none of its own"},
                                 "choices": {"type": "array"}, "minimum": INTEGER, "maximum": INTEGER,
                                 "dice": {"type": "array", "items": INTEGER,
                                          "description": "the sizes of the dice always rolled, in order"},
                                 "rolls": {"type": "array", "description": "each roll the field's dice feed",
                                           "items": {"type": "object", "required": ["for", "expression", "when"],
                                                     "properties": {"for": STRING,
                                                                    "expression": {**STRING, "description": "e.g. 1d8+4"},
                                                                    "when": {"enum": list(ROLL_WHEN)}}}},
                                 "depends_on": {"type": "array", "items": STRING,
                                                "description": "the fields this one needs or whose first value its"
                                                               " choices assume"}}}
    commands = command_schemas()
    return {
        "Problem": {"type": "object", "required": ["type", "title", "status", "detail", "errors", "error", "message"],
                    "description": "RFC 9457 problem details, with each field's message in `errors`",
                    "properties": {"type": {**STRING, "description": "the kind of problem, a URI: tag:touche,2026:problem:<error>"},
                                   "title": {**STRING, "description": "the kind in words"},
                                   "status": INTEGER, "detail": {**STRING, "description": "this occurrence in words"},
                                   "errors": {"type": "object", "additionalProperties": STRING,
                                              "description": "each field's message ({} when no one field is to blame)"},
                                   "error": {**STRING, "description": "the kind's short name (invalid, refused, conflict…)"},
                                   "message": {**STRING, "description": "the same words as detail"},
                                   "stream": STRING, "expected_version": INTEGER, "current_version": INTEGER,
                                   "limit_bytes": INTEGER}},
        "Event": {"type": "object", "required": ["position", "stream", "version", "type", "data"],
                  "properties": {"position": INTEGER, "stream": STRING, "version": INTEGER, "type": STRING,
                                 "data": OBJECT}},
        "CommandAnswer": {"type": "object", "required": ["stream", "id", "version", "replayed", "events"],
                          "properties": {"stream": NULLABLE_STRING, "id": NULLABLE_STRING,
                                         "version": {"type": ["integer", "null"]}, "replayed": BOOLEAN,
                                         "secret": {**STRING, "description": "IssueApiToken: the new token, once"},
                                         "url": {**STRING, "description": "IssuePlayerLink: the link to share"},
                                         "events": {"type": "array", "items": _ref("Event")},
                                         "current_version": {"type": ["integer", "null"], "description":
                                                             "the stream's version now: the next expected_version"},
                                         "status": {**STRING, "description": "a duel's: running or over"},
                                         "legal_actions": {"type": "array", "items": _ref("LegalAction"),
                                                           "description": "a duel's legal next actions, as its read gives them"}}},
        "LegalAction": {"type": "object", "required": ["type", "by", "side", "fields"],
                        "properties": {"type": STRING,
                                       "by": {**STRING, "description": "who may send it: gm (a seat may add its own)"},
                                       "side": {"type": ["string", "null"]},
                                       "fields": {"type": "object", "additionalProperties": field_spec}}},
        "Step": {"type": "object", "required": ["at", "event"], "additionalProperties": True,
                 "properties": {"at": INTEGER, "event": STRING}},
        "DuelRead": {"type": "object", "additionalProperties": True,
                     "required": ["id", "campaign_id", "session_id", "ruleset", "kind", "status", "version",
                                  "audience", "state", "steps", "legal_actions", "assumptions"],
                     "properties": {"id": STRING, "campaign_id": STRING, "session_id": STRING, "ruleset": STRING,
                                    "kind": STRING, "status": STRING, "winner": NULLABLE_STRING,
                                    "version": INTEGER, "audience": {**STRING, "description": "gm or table"}, "state": OBJECT,
                                    "steps_since": {"type": ["integer", "null"], "description":
                                                    "the steps_since asked for: steps and state.history hold"
                                                    " everything logged after it; null: those of the latest"
                                                    " versions only (see earlier)"},
                                    "history_before": {"type": ["integer", "null"], "description":
                                                       "the history_before asked for"},
                                    "earlier": {"type": ["integer", "null"], "description":
                                                "without steps_since: the history_before that reads the steps"
                                                " and lines before these; null when these reach the duel's start"},
                                    "steps": {"type": "array", "items": _ref("Step")},
                                    "legal_actions": {"type": "array", "items": _ref("LegalAction")},
                                    "adjustable_tracks": {"type": "array", "items": OBJECT, "description":
                                                          "the GM's AdjustDuelTrack targets while the duel runs"
                                                          " (character, name, side, track, label, value, max);"
                                                          " empty for the table"},
                                    "assumptions": {"type": "array", "items": STRING}}},
        "DuelChanges": {"type": "object", "required": ["changed", "version", "duel"],
                        "properties": {"changed": BOOLEAN, "version": INTEGER,
                                       "duel": {"anyOf": [_ref("DuelRead"), {"type": "null"}]}}},
        "CampaignChanges": {"type": "object", "required": ["changed", "position", "entries"],
                            "properties": {"changed": BOOLEAN, "position": INTEGER,
                                           "entries": {"type": "array", "items": row}}},
        "Me": {"type": "object", "required": ["gm", "token", "campaigns"],
               "properties": {"gm": {"type": "object", "required": ["id", "username"],
                                     "properties": {"id": STRING, "username": STRING}},
                              "token": {"type": "object", "required": ["id", "label", "read_only", "campaign_id"],
                                        "properties": {"id": STRING, "label": STRING, "read_only": BOOLEAN,
                                                       "campaign_id": {"type": ["string", "null"], "description":
                                                                       "the one campaign the token reaches"}}},
                              "campaigns": {"type": "array", "items": {
                                  "type": "object", "required": ["id", "name", "ruleset", "role"],
                                  "properties": {"id": STRING, "name": STRING, "ruleset": STRING,
                                                 "role": {"enum": ["owner", "co-gm"]}}}}}},
        "Campaigns": {"type": "object", "required": ["campaigns", "next_cursor"],
                      "properties": {"campaigns": {"type": "array", "items": row},
                                     "next_cursor": {"type": ["string", "null"], "description":
                                                     "the cursor of the next page; null on the last"}}},
        "CampaignRead": {"type": "object", "required": ["campaign", "characters", "sessions", "duels", "position"],
                         "properties": {"campaign": row, "characters": {"type": "array", "items": row},
                                        "sessions": {"type": "array", "items": row},
                                        "duels": {"type": "array", "items": row}, "position": INTEGER}},
        "CharacterSheet": {"type": "object", "required": ["character", "tracks", "wounds", "duels", "record"],
                           "additionalProperties": True},
        "SessionRead": {"type": "object", "required": ["session", "duels"],
                        "properties": {"session": row, "duels": {"type": "array", "items": row}}},
        "LogPage": {"type": "object", "required": ["entries", "next_before"],
                    "properties": {"entries": {"type": "array", "items": row},
                                   "next_before": {"type": ["integer", "null"]}}},
        "Ruleset": {"type": "object", "required": ["name", "title", "kinds", "schemas"],
                    "properties": {"name": STRING, "title": STRING,
                                   "kinds": {"type": "object", "additionalProperties": STRING,
                                             "description": "each kind of duel (a set-up's kind), in words"},
                                   "schemas": {"type": "object", "required": ["sheet", "setup"],
                                               "properties": {"sheet": OBJECT, "setup": OBJECT},
                                               "description": "JSON Schemas (2020-12): its character sheet's"
                                                              " stats block and its duel set-up"}}},
        "Rulesets": {"type": "object", "required": ["rulesets"],
                     "properties": {"rulesets": {"type": "array", "items": _ref("Ruleset")}}},
        **{f"{module.NAME}.{part.capitalize()}": schema for module in rules.RULESETS.values()
           for part, schema in ruleset_schemas(module).items()},
        # anyOf, not oneOf: a common ending (Yield…) is the same command in every ruleset.
        "Command": {"anyOf": [_ref(name) for name in commands]},
        **commands,
    }


RATE_HEADERS = {name: {"description": said, "schema": INTEGER if name != "RateLimit-Policy" else STRING} for name, said in (
    ("RateLimit-Limit", "requests this token (or client address) may make in the window"),
    ("RateLimit-Remaining", "requests left in this window"),
    ("RateLimit-Reset", "seconds until the window starts again"),
    ("RateLimit-Policy", "the quota and its window in seconds, e.g. `3000;w=60`"))}


def _rate_limited(paths: dict) -> None:
    """Every operation's answers name the rate limit (tracker.web.ratelimits); past it, a 429."""
    for operations in paths.values():
        for operation in operations.values():
            for status, answer in operation["responses"].items():
                if status[0] in "23":
                    answer["headers"] = {**answer.get("headers", {}), **RATE_HEADERS}
            refused = _problem("too many requests (`too_many_requests`), or too many failed password checks"
                               " (`too_many_attempts`): nothing was run", **{"Retry-After": "seconds to wait"})
            refused["headers"].update(RATE_HEADERS)
            operation["responses"]["429"] = refused


def description() -> dict:
    """The whole OpenAPI 3.1 document."""
    paths = {
        "/api/v1/commands": {"post": {
            "summary": "Run one command (its `type` and fields); answer with the events it appended",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": _ref("Command"), "examples": openapi_links.command_examples()}}},
            "responses": {"201": _answer("the command appended these events"),
                          "200": _answer("a command id sent again: the first answer", linked=False),
                          **UNAUTHORIZED, **_failures(COMMAND_FAILURES)}}},
        "/api/v1/rulesets": _read("Every ruleset: its name, title, kinds, and the schemas of its character sheet"
                                  " and duel set-up", _ref("Rulesets")),
        "/api/v1/rulesets/{ruleset}": _read(
            "One ruleset: its kinds and the JSON Schemas of its character sheet (`stats.<ruleset>`) and duel"
            " set-up (`setup`)", _ref("Ruleset"),
            [{"name": "ruleset", "in": "path", "required": True, "description": "the ruleset's name",
              "schema": {"type": "string", "minLength": 1, "maxLength": 64}}]),
        "/api/v1/me": _read("Who this token acts for: the GM, the token's label, the campaigns it may open",
                            _ref("Me")),
        "/api/v1/campaigns": _read("Every campaign the GM may open, a page at a time", _ref("Campaigns"), PAGED),
        "/api/v1/campaigns/{campaign_id}/characters": _list(
            "The campaign's characters by name, a page at a time", "characters", [_path("campaign_id", "the campaign")]),
        "/api/v1/campaigns/{campaign_id}/sessions": _list(
            "The campaign's sessions, the latest first, a page at a time", "sessions",
            [_path("campaign_id", "the campaign")]),
        "/api/v1/campaigns/{campaign_id}/duels": _list(
            "The campaign's duels, the latest first, a page at a time", "duels", [_path("campaign_id", "the campaign")]),
        "/api/v1/campaigns/{campaign_id}": _read("A campaign with its characters, sessions and duels",
                                                 _ref("CampaignRead"), [_path("campaign_id", "the campaign")]),
        "/api/v1/campaigns/{campaign_id}/log": _read(
            "A page of the campaign's log, newest first", _ref("LogPage"),
            [_path("campaign_id", "the campaign"),
             {"name": "category", "in": "query", "required": False,
              "schema": {"enum": ["campaign", "character", "session", "duel", "correction"]}},
             {"name": "type", "in": "query", "required": False, "schema": STRING},
             {"name": "subject", "in": "query", "required": False, "schema": STRING},
             _query("before", "the position the next page starts before"),
             {"name": "limit", "in": "query", "required": False, "description": "entries a page (default 50)",
              "schema": {"type": "integer", "minimum": 1, "maximum": 1000}}]),
        "/api/v1/campaigns/{campaign_id}/changes": _read(
            "The campaign's log entries after position `since`, waiting up to `wait` seconds for one",
            _ref("CampaignChanges"), [_path("campaign_id", "the campaign"), *FOLLOW]),
        "/api/v1/characters/{character_id}": _read("A character sheet", _ref("CharacterSheet"),
                                                   [_path("character_id", "the character")]),
        "/api/v1/sessions/{session_id}": _read("A session and its duels", _ref("SessionRead"),
                                               [_path("session_id", "the session")]),
        "/api/v1/duels/{duel_id}": _tagged(_read(
            "A duel as the GM sees it: its row, state, the numbers of its latest versions' steps (with "
            "`steps_since`, every one after it; `history_before` pages back), the legal next actions, the "
            "assumptions in force", _ref("DuelRead"),
            [_path("duel_id", "the duel")])),
        "/api/v1/duels/{duel_id}/changes": _read(
            "The duel once its version passed `since`, waiting up to `wait` seconds for it",
            _ref("DuelChanges"), [_path("duel_id", "the duel"), *FOLLOW, STEPS_SINCE, WHOLE]),
        "/api/v1/duels/{duel_id}/stream": _stream(
            "The duel's changes as server-sent events: each `duel` event `{version, duel}`, the read with only"
            " the steps after the version the client held", [_path("duel_id", "the duel"), WHOLE]),
        "/api/v1/campaigns/{campaign_id}/stream": _stream(
            "The campaign's new log entries as server-sent events: each `entries` event `{position, entries}`",
            [_path("campaign_id", "the campaign")]),
        "/api/v1/display/{token}/stream": _stream(
            "The duel's changes as server-sent events, as its table display shows them (no API token)",
            [{"name": "token", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}}],
            secured=False),
        "/api/v1/display/{token}": _tagged(_read(
            "A duel as its table display shows it (a player link's token, no API token): the public "
            "view, no action; with `since`, the DuelChanges answer", {"anyOf": [_ref("DuelRead"), _ref("DuelChanges")]},
            [{"name": "token", "in": "path", "required": True, "schema": {"type": "string", "minLength": 1}},
             *FOLLOW], secured=False)),
        "/api/v1/openapi.json": _read("This description", OBJECT, secured=False),
    }
    paths["/api/v1/campaigns"]["get"]["responses"]["200"]["headers"] = LINK
    paths["/api/v1/campaigns"]["get"]["responses"]["200"]["links"] = openapi_links.campaigns_links()
    paths["/api/v1/campaigns/{campaign_id}"]["get"]["responses"]["200"]["links"] = openapi_links.campaign_read_links()
    paths["/api/v1/duels/{duel_id}"]["get"]["responses"]["200"]["links"] = openapi_links.duel_links("$response.body#/version")
    examples = openapi_links.read_examples()
    for path, operations in paths.items():
        for operation in operations.values():
            operation["operationId"] = name = openapi_links.OPERATION_IDS[path]
            if name in examples:
                operation["responses"]["200"]["content"]["application/json"]["example"] = examples[name]
    paths["/api/v1/campaigns/{campaign_id}/log"]["get"]["responses"]["200"]["headers"] = LINK
    _rate_limited(paths)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Touché JSON API", "version": "1",
                 "description": "Every command through one endpoint, every projection as JSON. The old "
                                "unversioned paths (`/api/...`) are aliases of these. See docs/api.md."},
        "paths": paths,
        "components": {"schemas": schemas(),
                       "securitySchemes": {"token": {"type": "http", "scheme": "bearer",
                                                     "description": "a GM's API token (flask issue-token)"}}},
        "security": [{"token": []}],
    }
