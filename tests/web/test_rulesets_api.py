"""The rulesets' JSON Schemas through the API: GET /api/v1/rulesets and /rulesets/<name> serve
them, the OpenAPI description holds them as components and refers to them from the commands that
carry a sheet or a set-up, and a key they do not have is refused with 422."""
from __future__ import annotations

from tracker import rules
from tracker.rules.json_schema import ruleset_schemas

SHIPPED = [module.NAME for module in rules.shipped()]


def test_the_api_serves_each_rulesets_schemas_and_the_description_holds_them(client, anonymous):
    listed = client.get("/api/v1/rulesets").json["rulesets"]
    assert [r["name"] for r in listed] == list(rules.RULESETS)
    components = anonymous.get("/api/v1/openapi.json").json["components"]["schemas"]
    for ruleset in SHIPPED:
        served = client.get(f"/api/v1/rulesets/{ruleset}").json
        assert served["schemas"] == ruleset_schemas(rules.get(ruleset))
        assert components[f"{ruleset}.Sheet"] == served["schemas"]["sheet"]
        assert components[f"{ruleset}.Setup"] == served["schemas"]["setup"]
    stats = components["CreateCharacter"]["properties"]["stats"]
    assert stats["additionalProperties"] is False
    assert stats["properties"]["rocet"] == {"$ref": "#/components/schemas/rocet.Sheet"}
    setup = components["StartDuel"]["properties"]["setup"]["anyOf"]
    assert {"$ref": "#/components/schemas/pirate.Setup"} in setup
    assert client.get("/api/v1/rulesets/chess").status_code == 404


def test_an_unknown_key_in_a_stats_block_or_a_set_up_is_refused(client):
    campaign = client.post("/api/v1/commands", json={"type": "CreateCampaign", "name": "S", "ruleset": "rocet"}).json
    sheet = dict(rules.get("rocet").samples.DUELISTS[0]["stats"]["rocet"])
    answer = client.post("/api/v1/commands", json={
        "type": "CreateCharacter", "campaign_id": campaign["id"], "name": "Inés", "rank": "pj",
        "stats": {"rocet": {**sheet, "pubic": True}, "chess": {}}})
    assert answer.status_code == 422
    assert set(answer.json["errors"]) == {"stats.rocet.pubic", "stats.chess"}
    answer = client.post("/api/v1/commands", json={
        "type": "StartDuel", "campaign_id": campaign["id"], "ruleset": "rocet",
        "duelists": [{"character_id": "x", "side": "a"}, {"character_id": "y", "side": "b"}],
        "setup": {"kind": "relojes", "weapon_typ": "Espada"}})
    assert answer.status_code == 422 and "setup.weapon_typ" in answer.json["errors"]
