"""Bringing a character in from Foundry VTT or Pathbuilder: the character page's form (a file or
pasted JSON), the JSON API, a re-import that updates, and refusals that name the field at fault
with nothing appended. Each figure's source is said in tests/unit/test_pf2e_imports.py."""
from __future__ import annotations

import io
import json
from pathlib import Path

from tests.conftest import count_events, redirect_key, text_of
from tracker.bootstrap.db import open_db
from tracker.projections import queries

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "imports"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def campaign(client) -> str:
    response = client.post("/api/v1/commands", json={"type": "CreateCampaign", "name": "Season", "ruleset": "pf2e"})
    assert response.status_code in (200, 201), response.json
    return response.json["id"]


def character(app, character_id: str) -> dict:
    db = open_db(app.config["DATABASE"])
    try:
        return queries.character(db, character_id)
    finally:
        db.close()


def events_of(app, character_id: str) -> list[str]:
    db = open_db(app.config["DATABASE"])
    try:
        return [row[0] for row in db.execute("SELECT type FROM events WHERE stream = ? ORDER BY version",
                                             [f"character-{character_id}"]).fetchall()]
    finally:
        db.close()


def test_the_form_takes_a_file_and_the_sheet_shows_its_figures(app, client):
    campaign_id = campaign(client)
    page = client.get(f"/campaigns/{campaign_id}/characters/import")
    assert page.status_code == 200 and 'type="file"' in page.text
    upload = (io.BytesIO((FIXTURES / "goblin-warrior.json").read_bytes()), "goblin-warrior.json")
    response = client.post(f"/campaigns/{campaign_id}/characters/import", data={"file": upload},
                           content_type="multipart/form-data")
    goblin = redirect_key(response)
    sheet = character(app, goblin)
    assert sheet["name"] == "Goblin Warrior" and sheet["rank"] == "villano"
    stats = sheet["stats"]["pf2e"]
    assert (stats["ac"], stats["hp_max"], stats["attack_bonus"], stats["damage"]) == (16, 6, 8, "1d6")
    assert events_of(app, goblin) == ["CharacterCreated", "CharacterImported"]
    shown = text_of(client.get(f"/characters/{goblin}").text)
    assert "Goblin Warrior" in shown and "Import from Foundry / Pathbuilder" in shown
    assert "Sheet brought in from a Foundry VTT actor (PF2e system). Not imported: saving throw: Fortitude +5" in shown
    spanish = text_of(client.get(f"/characters/{goblin}?lang=es").text)
    assert "Hoja traída de: actor de Foundry VTT (sistema PF2e). No importado: tirada de salvación: Fortitude +5" in spanish
    log = text_of(client.get(f"/campaigns/{campaign_id}/log").text)
    assert "brought in from a Foundry VTT actor (PF2e system)" in log and "Strike: Shortbow" in log


def test_pasted_json_in_spanish(app, client):
    campaign_id = campaign(client)
    response = client.post(f"/campaigns/{campaign_id}/characters/import?lang=es",
                           data={"json": json.dumps(fixture("pathbuilder-seoni")), "player": "Ana"})
    seoni = redirect_key(response)
    sheet = character(app, seoni)
    assert sheet["rank"] == "pj" and sheet["player"] == "Ana" and sheet["stats"]["pf2e"]["spell_dc"] == 19
    log = text_of(client.get(f"/campaigns/{campaign_id}/log?lang=es").text)
    assert "exportación JSON de Pathbuilder 2e" in log and "no importado" in log


def test_a_bad_file_is_refused_next_to_the_field_with_its_path_and_nothing_appended(app, client):
    campaign_id = campaign(client)
    goblin = fixture("goblin-warrior")
    goblin["system"]["attributes"]["hp"]["max"] = 5000
    before = count_events(app)
    response = client.post(f"/campaigns/{campaign_id}/characters/import", data={"json": json.dumps(goblin)})
    assert response.status_code == 422
    assert 'id="e-json"' in response.text
    assert "system.attributes.hp.max: must be between 1 and 999, not 5000" in text_of(response.text)
    assert count_events(app) == before
    neither = client.post(f"/campaigns/{campaign_id}/characters/import", data={"json": '{"hello": 1}'})
    assert neither.status_code == 422 and "is none of the formats" in text_of(neither.text)
    spanish = client.post(f"/campaigns/{campaign_id}/characters/import?lang=es", data={"json": "{oops"})
    assert spanish.status_code == 422 and "no es JSON" in text_of(spanish.text)
    assert count_events(app) == before


def test_a_newer_export_updates_the_same_character(app, client):
    campaign_id = campaign(client)
    first = redirect_key(client.post(f"/campaigns/{campaign_id}/characters/import",
                                     data={"json": json.dumps(fixture("goblin-warrior"))}))
    newer = fixture("goblin-warrior")
    newer["system"]["attributes"]["hp"]["max"] = 9  # the GM's Elite adjustment, exported again
    again = redirect_key(client.post(f"/campaigns/{campaign_id}/characters/import",
                                     data={"json": json.dumps(newer), "rank": "elite"}))
    assert again == first
    sheet = character(app, first)
    assert sheet["stats"]["pf2e"]["hp_max"] == 9 and sheet["rank"] == "elite"
    assert events_of(app, first) == ["CharacterCreated", "CharacterImported", "CharacterEdited", "CharacterImported"]
    db = open_db(app.config["DATABASE"])
    try:
        assert len(queries.characters(db, campaign_id)) == 1
    finally:
        db.close()


def test_the_character_page_imports_into_that_character(app, client):
    campaign_id = campaign(client)
    made = client.post("/api/v1/commands", json={"type": "CreateCharacter", "campaign_id": campaign_id,
                                                  "name": "Val", "rank": "pj", "notes": "our fighter"}).json["id"]
    form = client.get(f"/campaigns/{campaign_id}/characters/import?character_id={made}")
    assert f'value="{made}"' in form.text
    response = client.post(f"/campaigns/{campaign_id}/characters/import",
                           data={"json": json.dumps(fixture("valeros-level-1")), "character_id": made,
                                 "expected_version": "1"})
    assert redirect_key(response) == made
    sheet = character(app, made)
    assert sheet["name"] == "Valeros (Level 1)" and sheet["notes"] == "our fighter"
    assert (sheet["stats"]["pf2e"]["hp_max"], sheet["stats"]["pf2e"]["ac"]) == (21, 18)


def test_the_api_imports_an_export_sent_as_an_object(app, client):
    campaign_id = campaign(client)
    response = client.post("/api/v1/commands", json={"type": "ImportCharacter", "campaign_id": campaign_id,
                                                     "json": fixture("boggard-swampseer")})
    assert response.status_code in (200, 201), response.json
    assert [e["type"] for e in response.json["events"]] == ["CharacterCreated", "CharacterImported"]
    imported = response.json["events"][1]["data"]
    assert imported["source"] == "foundry" and imported["source_id"] == "pG3UPgbAxNCXAyQE"
    assert ["spell_attack", "+11"] in imported["left_out"]
    sheet = character(app, response.json["id"])
    assert (sheet["stats"]["pf2e"]["spell_dc"], sheet["stats"]["pf2e"]["spell_slots"]) == (21, "1:3, 2:2")
    before = count_events(app)
    bad = fixture("boggard-swampseer")
    del bad["system"]["attributes"]["ac"]
    refused = client.post("/api/v1/commands", json={"type": "ImportCharacter", "campaign_id": campaign_id, "json": bad})
    assert refused.status_code == 422
    assert refused.json["errors"]["json"] == "system.attributes.ac.value: is required"
    unknown = client.post("/api/v1/commands", json={"type": "ImportCharacter", "campaign_id": campaign_id,
                                                    "json": bad, "source": "hero-lab"})
    assert unknown.status_code == 422 and "source" in unknown.json["errors"]
    assert count_events(app) == before
