"""Schemathesis against the running app (waitress, as `make run` serves it): every endpoint and
command of /api/v1/openapi.json fuzzed for about a minute, its examples sent and its links
followed (stateful), so the run creates campaigns, characters, sessions and duels and plays duel
commands, not only 404s and 422s. Never a 5xx, every answer's status (each one documented: no
``default``), content type and body as the description says, and commands accepted."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from bench.server import Client, Server, created, gm_with_token
from tracker import rules
from tracker.web.openapi_links import EXAMPLE_IDS

FUZZ_SECONDS = int(os.environ.get("TOUCHE_API_FUZZ_SECONDS") or 60)
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"


@pytest.fixture
def server(tmp_path, monkeypatch):
    path = str(tmp_path / "fuzz.db")
    _, token = gm_with_token(path)
    monkeypatch.setenv("TOUCHE_LONG_POLL_MAX", "0.3")  # a fuzzed `wait` never holds the run up
    monkeypatch.setenv("TOUCHE_SSE_MAX", "0.3")  # nor does a stream: it ends, and says when to come back
    with Server(path, threads=4) as running:
        running.token = token
        yield running
        assert "Traceback" not in running.errors()


def real_ids(client: Client) -> dict:
    """A campaign with a session, two characters with a sheet for every ruleset, and a duel:
    the ids the description's examples hold a place for."""
    first = rules.shipped()[0]
    # Named to come first in the list of campaigns, and its two duellists first in its read,
    # so that the links list -> campaign -> a duel between its first two characters start duels.
    campaign = created(client.command({"type": "CreateCampaign", "name": "!Fuzz", "ruleset": first.NAME}))["id"]
    stats = {module.NAME: module.samples.DUELISTS[0]["stats"][module.NAME] for module in rules.shipped()}
    duelists = [created(client.command({"type": "CreateCharacter", "campaign_id": campaign, "name": name,
                                        "rank": "pj", "stats": stats}))["id"] for name in ("Aitana", "Alonso")]
    session = created(client.command({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                      "date": "2026-11-29", "title": "Fuzz"}))["id"]
    started = created(client.command({"type": "StartDuel", "session_id": session, "ruleset": first.NAME,
                                   "setup": first.samples.SETUPS[0],
                                   "duelists": [{"character_id": duelists[0], "side": "a"},
                                                {"character_id": duelists[1], "side": "b"}]}))
    duel = started["id"]
    link = created(client.command({"type": "IssuePlayerLink", "link_kind": "display", "target": duel}))
    return {"campaign_id": campaign, "session_id": session, "duel_id": duel, "character_id": duelists[0],
            "rival_id": duelists[1], "token": link["url"].rsplit("/", 2)[-2],
            "duel_version": started["current_version"]}


def with_real_ids(description: dict, ids: dict) -> dict:
    """The description with a real id as each path parameter's example, and in the commands'
    examples in place of the placeholder ids they hold."""
    for operations in description["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path" and parameter["name"] in ids:
                    parameter["schema"] = dict(parameter["schema"], examples=[ids[parameter["name"]]])
    body = description["paths"]["/api/v1/commands"]["post"]["requestBody"]["content"]["application/json"]
    text = json.dumps(body["examples"])
    for name, placeholder in EXAMPLE_IDS.items():
        text = text.replace(f'"{placeholder}"', json.dumps(ids[name]))
    body["examples"] = json.loads(text)
    body["examples"]["Yield"]["value"]["expected_version"] = ids["duel_version"]
    return description


def answered(har: dict) -> Counter:
    """(command type or "GET <path>", status) -> how many times, from the run's HAR report."""
    seen: Counter = Counter()
    for entry in har["log"]["entries"]:
        request, status = entry["request"], entry["response"]["status"]
        if request["method"] == "POST":
            try:
                kind = json.loads(request.get("postData", {}).get("text") or "null")["type"]
            except (ValueError, TypeError, KeyError):
                kind = "?"
            seen[(str(kind), status)] += 1
        else:
            seen[(f"{request['method']} {request['url'].split('?')[0].rsplit('/', 1)[-1]}", status)] += 1
    return seen


def test_schemathesis_finds_no_server_error_and_no_answer_off_its_schema(server, tmp_path):
    client = Client(server.port, server.token)
    ids = real_ids(client)
    status, description = client.get("/api/v1/openapi.json")
    client.close()
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(with_real_ids(description, ids)))
    schemathesis = os.path.join(os.path.dirname(sys.executable), "schemathesis")
    run = subprocess.run(
        [schemathesis, "run", str(spec), "--url", f"http://127.0.0.1:{server.port}",
         "-H", f"Authorization: Bearer {server.token}", "--checks", CHECKS, "--max-time", str(FUZZ_SECONDS),
         "--seed", "18", "--generation-database", "none", "--workers", "1", "--no-color",
         "--request-timeout", "10", "--report", "har", "--report-har-path", str(tmp_path / "run.har")],
        capture_output=True, text=True, cwd=tmp_path, timeout=FUZZ_SECONDS + 120)
    (tmp_path / "schemathesis.txt").write_text(run.stdout + run.stderr)
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:]
    assert "passed" in run.stdout
    seen = answered(json.loads((tmp_path / "run.har").read_text()))
    accepted = Counter({kind: n for (kind, status), n in seen.items() if status in (200, 201)
                        and not kind.startswith("GET ")})
    assert not [key for key in seen if key[1] >= 500], seen
    # The examples and the links reach the rules: campaigns, characters, sessions and duels are
    # created, duels started by following links (beyond the examples' own), and played.
    for kind in ("CreateCampaign", "CreateCharacter", "PlanSession"):
        assert accepted[kind] > 0, (kind, sorted(seen.items()))
    examples = description["paths"]["/api/v1/commands"]["post"]["requestBody"]["content"]["application/json"]
    started_by_examples = sum(1 for name in examples["examples"] if name.startswith("StartDuel."))
    assert accepted["StartDuel"] > started_by_examples, sorted(seen.items())
    duel_commands = {name for module in rules.shipped() for name in module.COMMANDS}
    assert sum(n for kind, n in accepted.items() if kind in duel_commands) >= 2, sorted(seen.items())
