"""Schemathesis against the running app (waitress, as `make run` serves it): every endpoint and
command of /api/v1/openapi.json fuzzed for about a minute. Never a 5xx, every answer's status,
content type and body as the description says. Real ids are given as examples, so the reads and
the duel commands reach the rules, not only the 404s."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bench.server import Client, Server, campaign_with_session, created, gm_with_token, start_duel

FUZZ_SECONDS = int(os.environ.get("TOUCHE_API_FUZZ_SECONDS") or 60)
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"


@pytest.fixture
def server(tmp_path, monkeypatch):
    path = str(tmp_path / "fuzz.db")
    _, token = gm_with_token(path)
    monkeypatch.setenv("TOUCHE_LONG_POLL_MAX", "0.3")  # a fuzzed `wait` never holds the run up
    with Server(path, threads=4) as running:
        running.token = token
        yield running
        assert "Traceback" not in running.errors()


def with_examples(description: dict, ids: dict[str, str]) -> dict:
    """The description with a real id as each path parameter's example."""
    for operations in description["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["in"] == "path" and parameter["name"] in ids:
                    parameter["schema"] = dict(parameter["schema"], examples=[ids[parameter["name"]]])
    return description


def test_schemathesis_finds_no_server_error_and_no_answer_off_its_schema(server, tmp_path):
    client = Client(server.port, server.token)
    campaign, session = campaign_with_session(client)
    duel = start_duel(client, campaign, session, "rocet")
    link = created(client.command({"type": "IssuePlayerLink", "link_kind": "display", "target": duel}))
    status, read = client.get(f"/api/v1/duels/{duel}")
    ids = {"campaign_id": campaign, "session_id": session, "duel_id": duel,
           "character_id": read["state"]["duelists"][0]["id"], "token": link["url"].rsplit("/", 2)[-2]}
    status, description = client.get("/api/v1/openapi.json")
    client.close()
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(with_examples(description, ids)))
    schemathesis = os.path.join(os.path.dirname(sys.executable), "schemathesis")
    run = subprocess.run(
        [schemathesis, "run", str(spec), "--url", f"http://127.0.0.1:{server.port}",
         "-H", f"Authorization: Bearer {server.token}", "--checks", CHECKS, "--max-time", str(FUZZ_SECONDS),
         "--seed", "18", "--generation-database", "none", "--workers", "1", "--no-color",
         "--request-timeout", "10"],
        capture_output=True, text=True, cwd=tmp_path, timeout=FUZZ_SECONDS + 120)
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-2000:]
    assert "passed" in run.stdout
