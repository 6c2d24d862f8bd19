"""The OpenAPI 3.1 description served at /api/v1/openapi.json: valid by a standard validator, and
naming every endpoint the API serves and every command the service takes."""
from __future__ import annotations

from openapi_spec_validator import validate

from tracker import rules
from tracker.application import commands


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


def _validator(spec: dict, schema: dict):
    from jsonschema import Draft202012Validator

    return Draft202012Validator({**schema, "components": spec["components"]})


def test_every_operation_has_an_id_its_failures_examples_and_the_command_answer_its_links(anonymous):
    spec = anonymous.get("/api/v1/openapi.json").json
    ids = [op["operationId"] for ops in spec["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids)) == sum(len(ops) for ops in spec["paths"].values())
    for path, operations in spec["paths"].items():
        for operation in operations.values():
            responses = operation["responses"]
            assert "default" not in responses and {"400", "404"} <= set(responses), path
            success = responses.get("200") or responses["201"]
            content = success["content"].get("application/json") or success["content"]["text/event-stream"]
            assert "example" in content, path
    answer = spec["paths"]["/api/v1/commands"]["post"]["responses"]["201"]
    targets = {link["operationId"] for link in answer["links"].values()}
    assert {"readCampaign", "readCharacter", "readSession", "readDuel", "runCommand"} <= targets
    operations = set(ids)
    for ops in spec["paths"].values():
        for op in ops.values():
            for response in op["responses"].values():
                assert {link["operationId"] for link in response.get("links", {}).values()} <= operations


def test_every_example_is_valid_by_its_schema(anonymous):
    spec = anonymous.get("/api/v1/openapi.json").json
    checked = 0
    for path, operations in spec["paths"].items():
        for operation in operations.values():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            for example in (body or {}).get("examples", {}).values():
                _validator(spec, body["schema"]).validate(example["value"])
                checked += 1
            for status, response in operation["responses"].items():
                for media in response.get("content", {}).values():
                    if "example" in media:
                        _validator(spec, media["schema"]).validate(media["example"])
                        checked += 1
    assert checked > 20


def test_the_command_examples_are_accepted_with_real_ids(client, anonymous):
    spec = anonymous.get("/api/v1/openapi.json").json
    examples = spec["paths"]["/api/v1/commands"]["post"]["requestBody"]["content"]["application/json"]["examples"]
    answers = {}
    for name in ("CreateCampaign",):
        answers[name] = client.post("/api/v1/commands", json=examples[name]["value"])
        assert answers[name].status_code == 201, answers[name].json
    campaign = answers["CreateCampaign"].json["id"]
    for name, example in examples.items():
        if name.startswith("CreateCharacter.") or name == "PlanSession":
            answer = client.post("/api/v1/commands", json={**example["value"], "campaign_id": campaign})
            assert answer.status_code == 201, (name, answer.json)
