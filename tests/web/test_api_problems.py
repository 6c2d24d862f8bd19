"""An honest API (issue 28): a field a command does not take is refused, not ignored; errors are
RFC 9457 problem details; a 401 names its scheme; a command's answer says the stream's new version
and, for a duel, the next legal actions."""
from __future__ import annotations

import re

import pytest

from tests.conftest import count_events
from tracker import rules

V1 = "/api/v1"


def send(client, **command):
    response = client.post(f"{V1}/commands", json=command)
    assert response.status_code in (200, 201), response.json
    return response.json


def rocet_duel(client, setup=None):
    module = rules.get("rocet")
    campaign = send(client, type="CreateCampaign", name="Season", ruleset="rocet")["id"]
    ids = [send(client, type="CreateCharacter", campaign_id=campaign, **sheet)["id"] for sheet in module.samples.DUELISTS]
    session = send(client, type="PlanSession", campaign_id=campaign, number=1, date="2026-11-30", title="Dawn")["id"]
    duel = send(client, type="StartDuel", session_id=session, ruleset="rocet",
                duelists=[{"character_id": ids[0], "side": "a"}, {"character_id": ids[1], "side": "b"}],
                setup=setup or module.samples.SETUPS[0])
    return campaign, session, duel


# --- 1. unknown fields ---------------------------------------------------------------------------

def test_a_typo_in_a_field_name_is_refused_and_logs_nothing(client, app):
    _, _, started = rocet_duel(client)
    before = count_events(app)
    answer = client.post(f"{V1}/commands", json={"type": "NoteDuel", "duel_id": started["id"],
                                                 "text": "for the players", "pubic": True})
    assert answer.status_code == 422
    assert set(answer.json["errors"]) == {"pubic"}
    assert "NoteDuel" in answer.json["errors"]["pubic"]
    assert count_events(app) == before


@pytest.mark.parametrize("command", [
    {"type": "CreateCampaign", "name": "S", "ruleset": "rocet", "colour": "red"},
    {"type": "IssueApiToken", "label": "bot", "scope": "read"},
    {"type": "EndAllSessions", "everywhere": True},
])
def test_every_workspace_and_account_command_refuses_a_field_it_does_not_take(client, app, command):
    before = count_events(app)
    answer = client.post(f"{V1}/commands", json=command)
    assert answer.status_code == 422, answer.json
    extra = (set(command) - {"type", "name", "ruleset", "label"}).pop()
    assert list(answer.json["errors"]) == [extra]
    assert count_events(app) == before


def test_a_duel_command_takes_only_its_rulesets_fields(client, app):
    _, _, started = rocet_duel(client)
    duel = client.get(f"{V1}/duels/{started['id']}").json
    action = duel["legal_actions"][0]
    command = {"type": action["type"], "duel_id": duel["id"], "expected_version": duel["version"],
               **{name: spec["choices"][0] for name, spec in action["fields"].items() if spec.get("choices")},
               "server_roll": True}
    before = count_events(app)
    # A PF2e field is no Rocèt field.
    refused = client.post(f"{V1}/commands", json={**command, "attacker": duel["state"]["duelists"][0]["id"]})
    assert refused.status_code == 422 and list(refused.json["errors"]) == ["attacker"]
    assert count_events(app) == before
    assert client.post(f"{V1}/commands", json=command).status_code == 201


def test_old_field_names_and_nested_duelists_are_checked_as_the_description_says(client, app):
    campaign, session, started = rocet_duel(client)
    # An old name is still a field (read as its new one).
    link = client.post(f"{V1}/commands", json={"type": "IssuePlayerLink", "kind": "display", "target": started["id"]})
    assert link.status_code == 201, link.json
    characters = client.get(f"{V1}/campaigns/{campaign}").json["characters"]
    refused = client.post(f"{V1}/commands", json={
        "type": "StartDuel", "session_id": session, "ruleset": "rocet", "setup": rules.get("rocet").samples.SETUPS[0],
        "duelists": [{"character_id": characters[0]["id"], "side": "a", "team": 2},
                     {"character_id": characters[1]["id"], "side": "b"}]})
    assert refused.status_code == 422 and list(refused.json["errors"]) == ["duelists"]


def test_another_gms_duel_is_a_404_whatever_fields_are_sent(client, app):
    answer = client.post(f"{V1}/commands", json={"type": "PlayTurn", "duel_id": "nosuchduel", "expected_version": 1,
                                                 "pubic": True})
    assert answer.status_code == 404


def test_the_description_says_no_other_field_is_taken(client):
    schemas = client.get(f"{V1}/openapi.json").json["components"]["schemas"]
    commands = [name for name in schemas if "properties" in schemas[name]
                and "const" in schemas[name]["properties"].get("type", {})]
    assert commands and all(schemas[name]["additionalProperties"] is False for name in commands)
    assert {"insults", "rest_restores", "rest_full_hp"} <= set(schemas["ChangeCampaignRules"]["properties"])


# --- 2. RFC 9457 problem details ---------------------------------------------------------------------

def problem_of(response, status: int, kind: str) -> dict:
    """The answer as RFC 9457 problem details of the kind ``kind``."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/problem+json"
    body = response.json
    assert body["type"] == f"tag:touche,2026:problem:{kind}" and body["status"] == status
    assert body["title"] and body["detail"] and body["detail"] == body["message"] and body["error"] == kind
    assert isinstance(body["errors"], dict) and "__all__" not in body["errors"]
    return body


def test_a_refusal_of_the_whole_command_says_why_in_detail_with_no_field_to_blame(client):
    _, _, started = rocet_duel(client)
    duel = client.get(f"{V1}/duels/{started['id']}").json
    # A turn is not a retraction's business: the rules refuse RerollTie when no tie waits.
    answer = client.post(f"{V1}/commands", json={"type": "RerollTie", "duel_id": duel["id"],
                                                 "expected_version": duel["version"], "server_roll": True})
    body = problem_of(answer, 422, "refused")
    assert body["errors"] == {}


def test_a_bad_field_is_named_in_errors(client):
    body = problem_of(client.post(f"{V1}/commands", json={"type": "CreateCampaign", "name": "", "ruleset": "rocet"}),
                      422, "invalid")
    assert set(body["errors"]) == {"name"}
    body = problem_of(client.post(f"{V1}/commands", data="{", content_type="application/json"), 422, "invalid")
    assert set(body["errors"]) == {"body"}


def test_conflict_not_found_forbidden_and_http_errors_are_problems_too(client):
    campaign, _, _ = rocet_duel(client)
    body = problem_of(client.post(f"{V1}/commands", json={"type": "EditCampaign", "campaign_id": campaign,
                                                          "expected_version": 0, "name": "X", "ruleset": "rocet"}),
                      409, "conflict")
    assert body["stream"] == f"campaign-{campaign}" and body["current_version"] > body["expected_version"] == 0
    problem_of(client.get(f"{V1}/duels/nosuchduel"), 404, "not_found")
    problem_of(client.get(f"{V1}/nowhere"), 404, "not_found")
    problem_of(client.put(f"{V1}/commands", json={}), 405, "method_not_allowed")
    problem_of(client.post(f"{V1}/commands", json={"type": "RegisterGM", "username": "x", "password": "y" * 12}),
               403, "forbidden")
    problem_of(client.get(f"{V1}/campaigns/{campaign}/log?before=1e30"), 400, "bad_request")


def test_the_pages_still_show_each_fields_message_next_to_it(client):
    """The HTML forms are not problem details: their messages stay next to their fields."""
    _, _, started = rocet_duel(client, {"kind": "relojes", "cards": "physical", "weapon_type": "Espada"})
    duel = client.get(f"{V1}/duels/{started['id']}").json
    play = next(a for a in duel["legal_actions"] if a["type"] == "PlayTurn")
    page = client.post(f"/duels/{duel['id']}/do/PlayTurn", data={
        "expected_version": duel["version"], "card_a": play["fields"]["card_a"]["choices"][0],
        "card_b": play["fields"]["card_b"]["choices"][0], "dice_a": "13 2", "dice_b": "1 1"})
    assert page.status_code == 422 and page.mimetype == "text/html"
    assert re.search(r'id="e-dice_a">a d\d+ cannot show 13', page.get_data(as_text=True))


def test_the_description_answers_errors_as_problems(client):
    spec = client.get(f"{V1}/openapi.json").json
    assert "Error" not in spec["components"]["schemas"]
    for path, operations in spec["paths"].items():
        for operation in operations.values():
            # Each failure documented on its own, as a problem: no catch-all "default".
            assert "default" not in operation["responses"], path
            failures = {status: answer for status, answer in operation["responses"].items() if status >= "400"}
            assert {"400", "404"} <= set(failures), path
            for status, answer in failures.items():
                assert set(answer["content"]) == {"application/problem+json"}, (path, status)


# --- 3. a 401 names its scheme --------------------------------------------------------------------------

def test_a_401_carries_www_authenticate_bearer(anonymous):
    none = anonymous.get(f"{V1}/campaigns")
    problem_of(none, 401, "unauthorized")
    assert none.headers["WWW-Authenticate"] == 'Bearer realm="touche"'
    wrong = anonymous.get(f"{V1}/campaigns", headers={"Authorization": "Bearer not-a-token"})
    problem_of(wrong, 401, "unauthorized")
    assert wrong.headers["WWW-Authenticate"] == 'Bearer realm="touche", error="invalid_token"'
    spec = anonymous.get(f"{V1}/openapi.json").json
    assert "WWW-Authenticate" in spec["paths"]["/api/v1/commands"]["post"]["responses"]["401"]["headers"]


# --- 4. a command's answer carries the next step -------------------------------------------------------

def test_a_duel_commands_answer_carries_the_new_version_and_the_next_legal_actions(client):
    from tests import api_client

    _, _, started = rocet_duel(client)
    duel = client.get(f"{V1}/duels/{started['id']}").json
    assert started["version"] == started["current_version"] == duel["version"]
    assert started["legal_actions"] == duel["legal_actions"] and started["status"] == "running"
    answer = started
    for _ in range(400):  # a whole duel from the answers alone
        if answer["status"] == "over":
            break
        command = api_client.next_command({"id": duel["id"], "version": answer["current_version"],
                                           "legal_actions": answer["legal_actions"]})
        answer = send(client, **command)
        read = client.get(f"{V1}/duels/{duel['id']}").json
        assert answer["current_version"] == answer["version"] == read["version"]
        assert answer["legal_actions"] == read["legal_actions"] and answer["status"] == read["status"]
    assert answer["status"] == "over"


def test_a_replayed_command_says_the_streams_version_now(client):
    campaign = send(client, type="CreateCampaign", name="S", ruleset="rocet", command_id="c-1")
    assert campaign["current_version"] == campaign["version"] == 1 and "legal_actions" not in campaign
    send(client, type="EditCampaign", campaign_id=campaign["id"], expected_version=1, name="T", ruleset="rocet")
    again = send(client, type="CreateCampaign", name="S", ruleset="rocet", command_id="c-1")
    assert again["replayed"] and again["version"] == 1 and again["current_version"] == 2


def test_the_description_lists_what_an_answer_carries(client):
    answer = client.get(f"{V1}/openapi.json").json["components"]["schemas"]["CommandAnswer"]["properties"]
    assert {"current_version", "status", "legal_actions"} <= set(answer)
