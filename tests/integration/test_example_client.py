"""The example client of docs/examples/play_a_duel.py (written from docs/api.md and the OpenAPI
description alone, no Touché import), run against a live server as `make run` serves it: it plays
a duel of every ruleset and kind to its end from the legal actions alone (first action, first
choices, server dice) with 0 refused offers (issue 28's "Done when")."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from bench.server import ROOT, Server, gm_with_token
from tests.fuzz.test_retraction_properties import SETUPS

EXAMPLE = Path(ROOT) / "docs" / "examples" / "play_a_duel.py"


def example():
    spec = importlib.util.spec_from_file_location("play_a_duel", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_client_plays_every_kind_and_imports_nothing_of_touches():
    source = EXAMPLE.read_text()
    assert "import tracker" not in source and "from tracker" not in source
    kinds = example().KINDS
    assert set(kinds) == {name for name in SETUPS if name != "coin"}
    for ruleset, setups in kinds.items():
        assert setups == SETUPS[ruleset], f"the example plays every {ruleset} kind the contract test does"
    # A player's character with no seat on side A, an NPC on side B: the GM's to play either way,
    # sealed duels included (once, a sealed Rocèt duel with a seatless PC offered nothing and looped).
    for ruleset, (pc, npc) in example().SHEETS.items():
        assert pc["rank"] == "pj" and npc["rank"] != "pj", ruleset


def test_the_example_client_finishes_every_duel_kind_with_no_refused_offer(tmp_path):
    path = str(tmp_path / "example.db")
    _, token = gm_with_token(path, username="marta")
    # The production rate limit: the client follows RateLimit-Remaining and Retry-After.
    with Server(path, threads=4, api_limit="3000 per minute") as server:
        cpu = os.times()
        run = subprocess.run([sys.executable, str(EXAMPLE), "--json"], capture_output=True, text=True, timeout=900,
                             env=dict(os.environ, TOUCHE_URL=f"http://127.0.0.1:{server.port}", TOUCHE_TOKEN=token))
        client = os.times()
        assert "Traceback" not in server.errors()
    served = os.times()  # the server is waited for once stopped: its CPU is counted from here
    assert run.returncode in (0, 1), run.stderr
    figures = json.loads(run.stdout)
    print(f"\nexample client: {figures['kinds']} kinds, {figures['requests']} requests, {figures['steps']} steps, "
          f"{figures['refused']} refused offers, {figures['ended']} ended; {figures['seconds']} s wall, CPU "
          f"{client.children_user + client.children_system - cpu.children_user - cpu.children_system:.1f} s "
          f"client, {served.children_user + served.children_system - client.children_user - client.children_system:.1f}"
          f" s server")
    for ruleset in ("rocet", "pirate", "pf2e"):
        duels = [d for d in figures["duels"] if d["ruleset"] == ruleset]
        print(f"  {ruleset}: {len(duels)} kinds, {sum(d['requests'] for d in duels)} requests, "
              f"{sum(d['refused'] for d in duels)} refused, {sum(d['ended'] for d in duels)} ended")
    refused = [f"{d['ruleset']} {d['setup']}: {why}" for d in figures["duels"] for why in d["refusals"]]
    assert not refused, "\n".join(refused)
    unfinished = [f"{d['ruleset']} {d['setup']}" for d in figures["duels"] if not d["ended"]]
    assert not unfinished, "\n".join(unfinished)
    assert not [d for d in figures["duels"] if d["first_was_an_ending"]]
    assert figures["kinds"] == sum(len(s) for name, s in SETUPS.items() if name != "coin") and run.returncode == 0
