"""Following a long duel through the JSON API: the bytes and milliseconds of a duel read at 10
and at 1,000 versions, whole and with ``steps_since``, printed beside the target (issue 28: with
``steps_since``, a read at 1,000 versions costs no more than 1.3x one at 10). Not a timed test.

    .venv/bin/python bench/follow.py [--versions 1000] [--reads 30]

Each duel is a Rocèt duel to the death whose every damage on offer is declined, so it runs as
long as asked, played through ``POST /api/v1/commands`` from its legal actions. A follower asks
with ``steps_since`` the version it read last: here, five versions back.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import GM_ID, report  # noqa: E402
from tracker import bootstrap, create_app, rules  # noqa: E402
from tracker.bootstrap.db import open_db  # noqa: E402
from tracker.application.services import Context  # noqa: E402

TARGET_RATIO = 1.3
BEHIND = 5  # how many versions the follower is behind
ENDINGS = {"Yield", "Disqualify", "Abandon"}


def api_client(app, path: str):
    """A test client carrying a new GM's API token."""
    db = open_db(path)
    try:
        bootstrap.service(db, Context(new_id=lambda: GM_ID, password_method="pbkdf2:sha256:1000")).handle(
            {"type": "RegisterGM", "username": "bench", "password": "a bench password"})
        token = bootstrap.service(db, Context(actor=GM_ID, new_id=lambda: "benchtok")).handle(
            {"type": "IssueApiToken", "label": "bench"}).secret
    finally:
        db.close()
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client


def send(client, **command) -> dict:
    answer = client.post("/api/v1/commands", json=command)
    assert answer.status_code in (200, 201), answer.get_json()
    return answer.get_json()


def long_duel(client, versions: int) -> str:
    """A duel played until its version reaches ``versions``; its id."""
    module = rules.get("rocet")
    campaign = send(client, type="CreateCampaign", name=f"Long {versions}", ruleset="rocet")["id"]
    ids = [send(client, type="CreateCharacter", campaign_id=campaign, **sheet)["id"]
           for sheet in module.samples.DUELISTS]
    session = send(client, type="PlanSession", campaign_id=campaign, number=1, date="2026-11-30", title="Dawn")["id"]
    duel = send(client, type="StartDuel", session_id=session, ruleset="rocet",
                duelists=[{"character_id": ids[0], "side": "a"}, {"character_id": ids[1], "side": "b"}],
                setup={"kind": "a_muerte", "cards": "virtual", "weapon_type": "Espada"})["id"]
    read = client.get(f"/api/v1/duels/{duel}").get_json()
    now = {"current_version": read["version"], "status": read["status"], "legal_actions": read["legal_actions"]}
    while now["current_version"] < versions:
        assert now["status"] == "running", "the duel ended before its length"
        offered = [a for a in now["legal_actions"] if a["type"] not in ENDINGS]
        action = next((a for a in offered if a["type"] == "DeclineDamage"), offered[0])
        command = {"type": action["type"], "duel_id": duel, "expected_version": now["current_version"]}
        for name, field in action["fields"].items():
            if field.get("choices"):
                command[name] = next((c for c in field["choices"] if c != ""), field["choices"][0])
            elif field["kind"] == "bool":
                command[name] = True
        now = send(client, **command)
    return duel


def measure(client, reads: int, *targets: str) -> list[tuple[int, float, float]]:
    """For each target (a duel read's address): the bytes of its read, and its median wall-clock
    and CPU milliseconds over ``reads`` reads. The targets are read in turn, round after round, so
    that a machine busy with other work slows them alike."""
    wall: dict[str, list[float]] = {t: [] for t in targets}
    cpu: dict[str, list[float]] = {t: [] for t in targets}
    size: dict[str, int] = {}
    for _ in range(reads):
        for target in targets:
            started, cpu_started = time.perf_counter(), time.thread_time()
            answer = client.get(target)
            wall[target].append((time.perf_counter() - started) * 1000)
            cpu[target].append((time.thread_time() - cpu_started) * 1000)
            assert answer.status_code == 200
            size[target] = len(answer.data)
    return [(size[t], statistics.median(wall[t]), statistics.median(cpu[t])) for t in targets]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", type=int, default=1000)
    parser.add_argument("--reads", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "follow.db")
        app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                          "BASE_URL": "http://localhost"})
        client = api_client(app, path)
        targets, names = [], []
        for length in (10, args.versions):
            started = time.perf_counter()
            duel = long_duel(client, length)
            version = client.get(f"/api/v1/duels/{duel}").get_json()["version"]
            print(f"(a duel of {version} versions played in {time.perf_counter() - started:.1f} s)", flush=True)
            for label, query in (("whole", ""), ("steps_since", f"?steps_since={version - BEHIND}")):
                targets.append(f"/api/v1/duels/{duel}{query}")
                names.append((length, version, label))
        figures = {}
        # Whole reads and steps_since reads apart: a whole read's garbage would slow the next read.
        measured = {}
        for label in ("whole", "steps_since"):
            alike = [(n, t) for n, t in zip(names, targets) if n[2] == label]
            measured.update(zip([n for n, _ in alike], measure(client, args.reads, *[t for _, t in alike])))
        for (length, version, label), (size, ms, cpu) in measured.items():
            figures[length, label] = size, ms, cpu
            report(f"duel read at {version} versions, {label}", f"{size / 1024:.1f} KiB {ms:.1f} ms ({cpu:.1f} CPU)",
                   "—")
        small, big = figures[10, "steps_since"], figures[args.versions, "steps_since"]
        target = f"<= {TARGET_RATIO}x the read at 10"
        for index, what in ((0, "bytes"), (1, "ms"), (2, "CPU ms")):
            ratio = big[index] / small[index]
            report(f"steps_since read at {args.versions} / at 10: {what}", f"{ratio:.2f}x", target,
                   ratio <= TARGET_RATIO)
        whole = figures[args.versions, "whole"]
        report(f"whole read at {args.versions} / steps_since read", f"{whole[0] / big[0]:.1f}x bytes "
               f"{whole[1] / big[1]:.1f}x ms", "(what steps_since saves)")

if __name__ == "__main__":
    main()
