"""The JSON API: any command in, the events it appended out (201), or 409 / 422."""
import pytest

pytestmark = pytest.mark.both_backends  # the same tests on SQLite and on PostgreSQL


def create(client, **body):
    return client.post("/api/commands", json={"type": "CreateCampaign", "name": "Season", "ruleset": "rocet", **body})


def test_a_command_answers_with_its_events(client):
    response = create(client)
    assert response.status_code == 201
    assert response.json["events"][0]["type"] == "CampaignCreated"
    assert response.json["events"][0]["data"]["name"] == "Season"
    assert client.get(f"/api/campaigns/{response.json['id']}").json["campaign"]["name"] == "Season"


def test_field_errors_are_a_422(client):
    response = client.post("/api/commands", json={"type": "CreateCampaign", "name": 5})
    assert response.status_code == 422
    assert response.json["errors"] == {"name": "must be text", "ruleset": "is required"}


def test_unknown_commands_and_bodies_are_refused(client):
    assert client.post("/api/commands", json={"type": "Explode"}).status_code == 422
    assert client.post("/api/commands", data="not json").status_code == 422
    assert client.post("/api/commands", json=[1, 2]).status_code == 422


def test_a_stale_version_is_a_409(client):
    campaign = create(client).json["id"]
    edit = {"type": "EditCampaign", "campaign_id": campaign, "name": "S2", "ruleset": "rocet", "expected_version": 1}
    assert client.post("/api/commands", json=edit).status_code == 201
    conflict = client.post("/api/commands", json=edit)
    assert conflict.status_code == 409
    assert conflict.json["current_version"] == 2 and "changed since you opened it" in conflict.json["message"]


def test_a_repeated_command_id_appends_once(client):
    first = create(client, command_id="abc")
    again = create(client, command_id="abc")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json["replayed"] is True and again.json["events"] == first.json["events"]
    assert len(client.get("/api/campaigns").json["campaigns"]) == 1


def test_every_projection_reads_as_json(client):
    campaign = create(client).json["id"]
    character = client.post("/api/commands", json={"type": "CreateCharacter", "campaign_id": campaign,
                                                    "name": "Inés", "rank": "pj", "stats": {"rocet": {"des": "d8", "int": "d8", "pg_max": 9, "pm_max": 9, "weapons": "Sable | Espada | 2"}}}).json["id"]
    session = client.post("/api/commands", json={"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                                 "date": "2026-11-29", "title": "Dawn"}).json["id"]
    assert client.get(f"/api/characters/{character}").json["tracks"][0]["current"] == 9
    assert client.get(f"/api/sessions/{session}").json["session"]["title"] == "Dawn"
    assert len(client.get(f"/api/campaigns/{campaign}/log").json["entries"]) == 3
    assert client.get("/api/duels/nope").status_code == 404
