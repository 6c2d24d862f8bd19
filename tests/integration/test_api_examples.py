"""The API's examples, run as docs/api.md prints them against a real server (waitress, several
threads), and following duels live: a long-poll held on one thread ends as soon as a command
logged through another thread changes the duel."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench.server import ROOT, Client, Server, campaign_with_session, gm_with_token, start_duel
from tests import api_client

DOCS = Path(ROOT) / "docs" / "api.md"


def example(name: str) -> str:
    """The code block docs/api.md shows under ``<!-- example: name -->``."""
    found = re.search(rf"<!-- example: {re.escape(name)} -->\n```python\n(.*?)```", DOCS.read_text(), re.S)
    assert found, f"docs/api.md shows no example {name}"
    return found.group(1)


@pytest.fixture
def server(tmp_path):
    path = str(tmp_path / "examples.db")
    _, token = gm_with_token(path, username="marta")
    with Server(path, threads=8) as running:  # four may wait (tracker.web.serve: half the threads)
        running.token, running.database = token, path
        yield running
        assert "Traceback" not in running.errors()


def run_example(server, tmp_path, name: str, *args: str, **env: str) -> subprocess.Popen:
    script = tmp_path / name
    script.write_text(example(name))
    environment = dict(os.environ, FLASK_DATABASE=server.database, SECRET_KEY="loopback", PYTHONPATH=ROOT,
                       TOUCHE_URL=f"http://127.0.0.1:{server.port}", **env)
    return subprocess.Popen([sys.executable, str(script), *args], cwd=ROOT, env=environment,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_the_bot_example_gets_a_token_plays_a_rocet_duel_to_the_end_and_prints_it(server, tmp_path):
    bot = run_example(server, tmp_path, "play_rocet.py")
    out, err = bot.communicate(timeout=120)
    assert bot.returncode == 0, err
    lines = out.strip().splitlines()
    assert lines[0].startswith("turn 1: ") and " wins it" in lines[0]
    # Its first action deals the damage on offer, so a clock duel may end at 0 PG before a clock fills.
    assert re.fullmatch(r"(Inés|Lope) won by (clock|unconscious).*", lines[-1])


def api_play(client: Client, duel: str) -> dict:
    def read():
        status, body = client.get(f"/api/v1/duels/{duel}")
        assert status == 200, body
        return body

    def send(command):
        status, body = client.request("POST", "/api/v1/commands", command)
        assert status == 201, body

    return api_client.play(read, send)


def test_the_follow_example_prints_each_step_as_another_client_plays(server, tmp_path):
    client = Client(server.port, server.token)
    duel = start_duel(client, *campaign_with_session(client), "pirate")
    follower = run_example(server, tmp_path, "follow_duel.py", duel, TOUCHE_TOKEN=server.token)
    time.sleep(0.5)  # let it start waiting
    final = api_play(client, duel)
    out, err = follower.communicate(timeout=60)
    assert follower.returncode == 0, err
    assert out.strip().splitlines()[-1] == final["summary"]
    assert "PirateInitiativeRolled" in out and "PirateSwordAttacked" in out


def test_long_polls_on_several_threads_each_end_when_another_thread_logs(server):
    client = Client(server.port, server.token)
    duel = start_duel(client, *campaign_with_session(client), "rocet")
    version = client.get(f"/api/v1/duels/{duel}")[1]["version"]
    answers: list[tuple[float, dict]] = []

    def follow():
        watcher = Client(server.port, server.token)
        asked = time.monotonic()
        status, body = watcher.get(f"/api/v1/duels/{duel}/changes?since={version}&wait=20")
        answers.append((time.monotonic() - asked, body))
        watcher.close()

    followers = [threading.Thread(target=follow) for _ in range(3)]
    for thread in followers:
        thread.start()
    time.sleep(1.0)  # all three are waiting, each on its own server thread
    assert answers == []
    status, read = client.get(f"/api/v1/duels/{duel}")  # a free thread still answers at once
    play = next(a for a in read["legal_actions"] if a["type"] == "PlayTurn")
    status, body = client.request("POST", "/api/v1/commands", {
        "type": "PlayTurn", "duel_id": duel, "expected_version": version, "server_roll": True,
        "card_a": play["fields"]["card_a"]["choices"][0], "card_b": play["fields"]["card_b"]["choices"][0]})
    assert status == 201, body
    for thread in followers:
        thread.join(timeout=10)
    assert len(answers) == 3
    for waited, body in answers:
        assert body["changed"] and body["version"] > version and body["duel"]["steps"]
        assert 0.9 < waited < 5  # ended by the command, not by the 20 s wait
