"""The OpenAPI 3.1 description served at /api/v1/openapi.json: valid by a standard validator, and
naming every endpoint the API serves and every command the service takes."""
from __future__ import annotations

from openapi_spec_validator import validate

from tracker import commands, rules


def test_the_description_is_valid_openapi_3_1_and_needs_no_token(anonymous):
    response = anonymous.get("/api/v1/openapi.json")
    assert response.status_code == 200
    validate(response.json)
    assert response.json["openapi"] == "3.1.0"


def test_every_api_route_is_described(app, anonymous):
    described = set(anonymous.get("/api/v1/openapi.json").json["paths"])
    served = {rule.rule.replace("<", "{").replace(">", "}") for rule in app.url_map.iter_rules()
              if rule.endpoint.startswith("api_v1.")}
    assert served == described


def test_every_command_is_described_with_its_fields(anonymous):
    schemas = anonymous.get("/api/v1/openapi.json").json["components"]["schemas"]
    named = {schema["properties"]["type"]["const"] for schema in schemas.values()
             if "const" in schema.get("properties", {}).get("type", {})}
    assert set(commands.COMMANDS) | {n for m in rules.RULESETS.values() for n in m.COMMANDS} <= named
    play = schemas["rocet.PlayTurn"]
    assert play["properties"]["card_a"]["enum"][0] == "Estocada Alta"
    assert {"duel_id", "expected_version", "card_a", "card_b"} <= set(play["required"])
