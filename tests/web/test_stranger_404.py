"""Another GM's campaign does not exist for a stranger: on every route taking an id, and for every
command naming one, the stranger's answer on a real object is the answer for an id that names
nothing, the same status and the same body (issue 27: a duel's command told its ruleset, 422
"… duels have no command 'Strike'", before the access check)."""
import dataclasses
import re

import pytest

from tests.conftest import logged_in, register_gm
from tracker import bootstrap
from tracker.bootstrap.db import open_db

MISSING = "nothing0here"  # names nothing, in any category


@pytest.fixture
def theirs(app):
    """Another GM's campaign with a session, two characters, a duel under way and player links."""
    register_gm(app, "other", "other")
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, dataclasses.replace(app.config["SERVICE_CONTEXT"], actor="other"))
    campaign = service.handle({"type": "CreateCampaign", "name": "Theirs", "ruleset": "rocet"}).key
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": "T"}).key
    a, b = (service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                            "stats": {"rocet": {"des": "d8", "int": "d8", "pg_max": 10, "pm_max": 10, "weapons": "Sable | Espada | 2"}}}).key for name in ("Aa", "Bb"))
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "weapon_type": "Espada",
                           "duelists": [{"character_id": a, "side": "a"}, {"character_id": b, "side": "b"}]})
    display = service.handle({"type": "IssuePlayerLink", "link_kind": "display", "target": duel.key})
    db.close()
    link = display.events[0].data["link_id"]
    return {"campaign_id": campaign, "session_id": session, "character_id": a, "duel_id": duel.key,
            "position": duel.events[0].position, "link_id": link}


GETS = ["/campaigns/{campaign_id}", "/campaigns/{campaign_id}/log", "/campaigns/{campaign_id}/history",
        "/campaigns/{campaign_id}/statistics", "/campaigns/{campaign_id}/backup.jsonl",
        "/campaigns/{campaign_id}/edit", "/campaigns/{campaign_id}/duels/new", "/characters/{character_id}",
        "/characters/{character_id}/edit", "/characters/{character_id}/record", "/sessions/{session_id}",
        "/sessions/{session_id}/edit", "/sessions/{session_id}/recap.md", "/sessions/{session_id}/duels/new",
        "/duels/{duel_id}", "/duels/{duel_id}/live", "/duels/{duel_id}/travel", "/duels/{duel_id}/compare",
        "/duels/{duel_id}/rewind", "/duels/{duel_id}/rematch", "/events/{position}",
        "/events/{position}/retract", "/api/campaigns/{campaign_id}", "/api/campaigns/{campaign_id}/log",
        "/api/campaigns/{campaign_id}/changes", "/api/characters/{character_id}", "/api/sessions/{session_id}",
        "/api/duels/{duel_id}", "/api/duels/{duel_id}/changes", "/api/v1/duels/{duel_id}"]

POSTS = [("/duels/{duel_id}/do/Strike", {}), ("/duels/{duel_id}/do/Yield", {"side": "a"}),
         ("/duels/{duel_id}/notes", {"text": "hi"}), ("/duels/{duel_id}/adjust", {}),
         ("/duels/{duel_id}/undo", {}), ("/duels/{duel_id}/restore", {}), ("/duels/{duel_id}/display-links", {}),
         ("/duels/{duel_id}/display-links/{link_id}/revoke", {}), ("/characters/{character_id}/edit",
                                                                   {"name": "X", "rank": "pj"}),
         ("/characters/{character_id}/recover", {}), ("/characters/{character_id}/adjust", {}),
         ("/sessions/{session_id}/edit", {"title": "X"}), ("/sessions/{session_id}/close", {}),
         ("/sessions/{session_id}/recap-links", {}), ("/sessions/{session_id}/seats", {}),
         ("/sessions/{session_id}/rest", {}), ("/campaigns/{campaign_id}/edit", {"name": "X", "ruleset": "rocet"}),
         ("/campaigns/{campaign_id}/share", {"username": "gm"}), ("/campaigns/{campaign_id}/characters",
                                                                  {"name": "X", "rank": "pj"}),
         ("/campaigns/{campaign_id}/sessions", {}), ("/events/{position}/retract", {}),
         ("/events/{position}/restore", {})]

COMMANDS = [{"type": "Strike", "duel_id": "{duel_id}"}, {"type": "Yield", "duel_id": "{duel_id}"},
            {"type": "Yield", "duel_id": "{duel_id}", "side": "a", "expected_version": 1},
            {"type": "NoteDuel", "duel_id": "{duel_id}", "text": "hi"},
            {"type": "AdjustDuelTrack", "duel_id": "{duel_id}", "duelist": "a", "track": "hits", "amount": 1,
             "reason": "x"},
            {"type": "EditCharacter", "character_id": "{character_id}", "name": "X", "rank": "pj"},
            {"type": "RecoverCharacter", "character_id": "{character_id}"},
            {"type": "EditSession", "session_id": "{session_id}", "number": 1, "date": "2026-11-29", "title": "X"},
            {"type": "CloseSession", "session_id": "{session_id}"},
            {"type": "StartDuel", "session_id": "{session_id}", "ruleset": "rocet", "weapon_type": "Espada",
             "duelists": [{"character_id": "{character_id}", "side": "a"}]},
            {"type": "PlanSession", "campaign_id": "{campaign_id}", "number": 2, "date": "2026-11-29", "title": "X"},
            {"type": "CreateCharacter", "campaign_id": "{campaign_id}", "name": "X", "rank": "pj"},
            {"type": "EditCampaign", "campaign_id": "{campaign_id}", "name": "X", "ruleset": "rocet"},
            {"type": "ShareCampaign", "campaign_id": "{campaign_id}", "username": "gm"},
            {"type": "IssuePlayerLink", "link_kind": "display", "target": "{duel_id}"},
            {"type": "IssuePlayerLink", "link_kind": "recap", "target": "{session_id}"},
            {"type": "RevokePlayerLink", "link_id": "{link_id}"},
            {"type": "RetractEvent", "position": "{position}", "expected_version": 1},
            {"type": "RestoreRetraction", "position": "{position}", "expected_version": 1}]


def filled(template, ids):
    if isinstance(template, str):
        for name, value in ids.items():
            if template == "{" + name + "}" and name == "position":
                return value
            template = template.replace("{" + name + "}", str(value))
        return template
    if isinstance(template, dict):
        return {k: filled(v, ids) for k, v in template.items()}
    if isinstance(template, list):
        return [filled(v, ids) for v in template]
    return template


def nowhere(ids):
    return {name: 999_999 if name == "position" else MISSING for name in ids}


def seen(response, ids):
    """What the stranger learns: the status, and the body with the ids it was asked about taken out."""
    body = response.get_data(as_text=True)
    body = re.sub(r'("X-CSRFToken": |name="csrf_token" value=)"[^"]*"', r'\1"TOKEN"', body)  # timestamped
    for name, value in ids.items():
        body = body.replace(f"/events/{value}" if name == "position" else value, "ID")
    return response.status_code, body


@pytest.mark.parametrize("route", GETS)
def test_a_stranger_opens_another_gms_object_as_one_that_does_not_exist(client, theirs, route):
    real = client.get(filled(route, theirs))
    missing = client.get(filled(route, nowhere(theirs)))
    assert real.status_code == 404
    a, b = seen(real, theirs), seen(missing, nowhere(theirs))
    assert a[0] == b[0], (a, b)
    assert [pair for pair in zip(a[1].splitlines(), b[1].splitlines()) if pair[0] != pair[1]] == []


@pytest.mark.parametrize("route, form", POSTS, ids=[route for route, _ in POSTS])
def test_a_stranger_posting_to_another_gms_object_is_answered_as_for_nothing(client, theirs, route, form):
    real = client.post(filled(route, theirs), data=form)
    missing = client.post(filled(route, nowhere(theirs)), data=form)
    assert real.status_code == 404
    a, b = seen(real, theirs), seen(missing, nowhere(theirs))
    assert a[0] == b[0], (a, b)
    assert [pair for pair in zip(a[1].splitlines(), b[1].splitlines()) if pair[0] != pair[1]] == []


@pytest.mark.parametrize("command", COMMANDS, ids=[f"{c['type']}-{i}" for i, c in enumerate(COMMANDS)])
def test_a_strangers_command_on_another_gms_object_is_answered_as_for_nothing(client, theirs, command):
    real = client.post("/api/commands", json=filled(command, theirs))
    missing = client.post("/api/commands", json=filled(command, nowhere(theirs)))
    assert real.status_code in (404, 422)
    a, b = seen(real, theirs), seen(missing, nowhere(theirs))
    assert a[0] == b[0], (a, b)
    assert [pair for pair in zip(a[1].splitlines(), b[1].splitlines()) if pair[0] != pair[1]] == []
