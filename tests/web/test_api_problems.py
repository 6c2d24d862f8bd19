"""An honest API (issue 28): a field a command does not take is refused, not ignored; errors are
RFC 9457 problem details; a 401 names its scheme; a command's answer says the stream's new version
and, for a duel, the next legal actions."""
from __future__ import annotations

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
