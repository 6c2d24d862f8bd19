"""Duels of any length (issue 30, item 4): a duel read, the GM's duel page, a seat page and the
table display (its page and its follow fragment), at 10 and at 1,000 versions of one duel, each
ruleset, printed beside the target (at 1,000 versions at most 1.3x the same at 10, in time and in
bytes). Not a timed test.

    .venv/bin/python bench/long_duels.py [--versions 1000] [--reads 20] [--rulesets rocet,pf2e,pirate]

Each duel is played through the service from the rules' own legal actions, the server rolling, the
damage or the victory on offer declined so that it runs as long as asked (``long_duel``; the tests
build theirs the same way). The seat and the display link are issued once the duel is played, so
the GM plays every side. Medians of wall-clock and CPU milliseconds of the reads, taken in turn
round after round so that a machine busy with other work slows them alike.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import GM_ID, gm_client, report  # noqa: E402
from tracker import bootstrap, rules  # noqa: E402
from tracker.projections import queries, windows  # noqa: E402
from tracker.rules import legal  # noqa: E402
from tracker.application.services import Context  # noqa: E402

TARGET_RATIO = 1.3
# Long duels: Rocèt to the death, PF2e to a knockout, pirate sword to the death; each ending on
# offer (a damage, a victory) is declined, so the duel lasts as long as asked.
SETUPS = {"rocet": {"kind": "a_muerte", "cards": "virtual", "weapon_type": "Espada"},
          "pf2e": {"kind": "combat"},
          "pirate": {"kind": "sword", "sword_victory": "death"}}
ENDINGS = {"Yield", "Disqualify", "Abandon", "ConfirmVictory"}
# A pirate sword duel offers no damage to decline: the GM tops up a wounded duelist's PV by hand
# (AdjustDuelTrack) before each blow, and the duel lasts.
TOPPED_UP = {"pirate"}
# Printed, not held to the target: a duel of 10 versions has next to no earlier lines to load.
WITHOUT_TARGET = {"earlier lines (htmx)"}


def first_value(spec: dict):
    """A field filled from its description: its first real choice, its default, its lowest bound."""
    if spec.get("choices"):
        return next((c for c in spec["choices"] if c != ""), spec["choices"][0])
    if "default" in spec:
        return spec["default"]
    if spec["kind"] == "int" and spec.get("required") and "minimum" in spec:
        return spec["minimum"]
    return None


def started(service, ruleset: str, name: str) -> dict:
    """A new duel of ``ruleset`` between its sample duellists, in a campaign and session of its own:
    its ``duel``, ``session``, ``campaign`` and ``people`` (side A's first)."""
    module = rules.get(ruleset)
    campaign = service.handle({"type": "CreateCampaign", "name": name, "ruleset": ruleset}).key
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": name}).key
    people = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, **sheet}).key
              for sheet in module.samples.DUELISTS]
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": ruleset,
                           "duelists": [{"character_id": i, "side": s} for s, i in zip("ab", people)],
                           "setup": SETUPS[ruleset]}).key
    return {"duel": duel, "session": session, "people": people, "campaign": campaign}


def next_command(module, state: dict) -> dict:
    """What the long duel does next: the first action on offer that does not end it (a declined
    damage or victory first), each field its first value, the server rolling."""
    offered = [a for a in module.legal_actions(module.seen_by(state, "api"), legal.GM) if a["type"] not in ENDINGS]
    action = next((a for a in offered if a["type"].startswith("Decline")), offered[0])
    command = {name: first_value(spec) for name, spec in action["fields"].items()}
    command = {name: value for name, value in command.items() if value is not None}
    if "server_roll" in action["fields"]:
        command["server_roll"] = True
    return {**command, "type": action["type"]}


def top_up(module, state: dict) -> dict | None:
    """The GM's correction of the first wounded track back to its maximum, if any is wounded."""
    for track in module.adjustable_tracks(state):
        if 0 < track["value"] < track["max"]:
            return {"type": "AdjustDuelTrack", "character_id": track["character"], "track": track["track"],
                    "amount": track["max"] - track["value"], "reason": "the bench keeps the duel going"}
    return None


def long_duel(service, db, ruleset: str, versions: int, name: str = "Long") -> dict:
    """A duel (``started``) played command by command through the service until its version
    reaches ``versions``, as a GM at the table plays it."""
    built = started(service, ruleset, f"{name} {versions}")
    module, duel = rules.get(ruleset), built["duel"]
    while True:
        row = queries.duel(db, duel)
        version, state = row["version"], row["state"]
        if version >= versions:
            return built
        assert not state.get("outcome"), f"the {ruleset} duel ended at version {version}"
        command = (ruleset in TOPPED_UP and top_up(module, state)) or next_command(module, state)
        service.handle({**command, "duel_id": duel, "expected_version": version})


def long_duel_at_once(service, db, ruleset: str, versions: int, name: str = "Long", seed: int = 7) -> dict:
    """The same duel decided by the pure rules in memory, its events appended through the service in
    one command: the same log and read models in a fraction of the time (a test's fixture), but
    one command's log entry instead of one per action."""
    from tracker.application import commands
    from tracker.rules.dice import Dice
    from tracker.rules.duel import AdjustTrackInDuel, decide_adjustment
    from tracker.rules.fields import parse_command

    built = started(service, ruleset, f"{name} {versions}")
    module, stream = rules.get(ruleset), f"duel-{built['duel']}"
    rng = random.Random(seed)
    version, state = queries.stream_version(db, stream), queries.stream_state(db, stream)
    at, events, first = version, [], None
    while at < versions:
        assert not state.get("outcome"), f"the {ruleset} duel ended at version {at}"
        command = (ruleset in TOPPED_UP and top_up(module, state)) or next_command(module, state)
        first = first or command
        if command["type"] == "AdjustDuelTrack":
            decided = decide_adjustment(state, module.adjustable_tracks(state), AdjustTrackInDuel(
                command["character_id"], command["track"], command["amount"], command["reason"]))
        else:
            dice = Dice({}, source=lambda sides: rng.randint(1, sides), shuffle=lambda n: rng.sample(range(n), n))
            decided = module.decide(state, parse_command(module.COMMANDS[command["type"]], command), dice)
        for event in decided:
            at += 1
            state = module.evolve(state, event, at)
            events.append(event)
    sent = commands.parse(first["type"], {**first, "duel_id": built["duel"]}, duel=True)
    service.append(stream, built["campaign"], version, sent, lambda _: events)
    return built


def links(service, app, built: dict) -> tuple[str, str]:
    """A seat for side A's character and a table display of the duel: their paths."""
    from tracker.web.links import sign

    seat = service.handle({"type": "IssuePlayerLink", "kind": "seat", "target": built["session"],
                           "character_id": built["people"][0]}).events[0].data["link_id"]
    shown = service.handle({"type": "IssuePlayerLink", "kind": "display",
                            "target": built["duel"]}).events[0].data["link_id"]
    with app.app_context():
        return f"/seat/{sign(seat)}", f"/play/{sign(shown)}/display"


def targets(service, app, db, built: dict) -> dict[str, tuple[str, dict]]:
    """What is measured of one duel: each read's address and its headers."""
    seat, display = links(service, app, built)
    version = queries.stream_version(db, f"duel-{built['duel']}")
    return {"API read": (f"/api/v1/duels/{built['duel']}", {"Authorization": f"Bearer {app.bench_token}"}),
            "GM duel page": (f"/duels/{built['duel']}", {}),
            "seat page": (seat, {}),
            "display page": (display, {}),
            "display fragment": (f"{display}/live?v={version - 1}", {}),
            "earlier lines (htmx)": (f"/duels/{built['duel']}/earlier?before={version}", {"HX-Request": "true"})}


def measure(client, reads: int, wanted: dict, cold: bool = False) -> dict:
    """For each target: its bytes, and its median wall-clock and CPU milliseconds over ``reads``;
    ``cold``: each read the first of its version (the shared parse of stored states forgotten
    before it, as after each command), else a read of a version already read (a display's, a
    seat's or a follower's next poll)."""
    wall = {name: [] for name in wanted}
    cpu = {name: [] for name in wanted}
    size = {}
    for _ in range(reads):
        for name, (path, headers) in wanted.items():
            if cold:
                windows.parsed.cache_clear()
                queries._shared_state.cache_clear()
            started, cpu_started = time.perf_counter(), time.thread_time()
            answer = client.get(path, headers=headers)
            wall[name].append((time.perf_counter() - started) * 1000)
            cpu[name].append((time.thread_time() - cpu_started) * 1000)
            assert answer.status_code == 200, (name, path, answer.status_code)
            size[name] = len(answer.data)
    return {name: (size[name], statistics.median(wall[name]), statistics.median(cpu[name])) for name in wanted}


def compare(ruleset: str, versions: int, warm: dict, cold: dict) -> None:
    """Each target at 10 and at ``versions``, and the ratios beside the target."""
    for name in warm[10]:
        (small_size, small_ms, small_cpu), (big_size, big_ms, big_cpu) = warm[10][name], warm[versions][name]
        report(f"{ruleset} {name} at 10 / at {versions}",
               f"{small_size / 1024:.1f}/{big_size / 1024:.1f} KiB {small_ms:.1f}/{big_ms:.1f} ms "
               f"({small_cpu:.1f}/{big_cpu:.1f} CPU)", "—")
        if name in WITHOUT_TARGET:
            continue
        for figures, index, what in ((warm, 0, "bytes"), (warm, 1, "ms"), (warm, 2, "CPU ms"),
                                     (cold, 2, "CPU ms, first read of a version")):
            ratio = figures[versions][name][index] / figures[10][name][index]
            report(f"  {name}: {what}", f"{ratio:.2f}x", f"<= {TARGET_RATIO}x", ratio <= TARGET_RATIO)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--versions", type=int, default=1000)
    parser.add_argument("--reads", type=int, default=20)
    parser.add_argument("--rulesets", default="rocet,pf2e,pirate")
    parser.add_argument("--at-once", action="store_true",
                        help="decide each duel in memory and append it in one command (faster to build)")
    args = parser.parse_args()
    from tracker import create_app
    from tracker.bootstrap.db import open_db

    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared)", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "long.db")
        app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False,
                          "BASE_URL": "http://localhost"})
        client = gm_client(app, path)
        db = open_db(path)
        app.bench_token = bootstrap.service(db, Context(actor=GM_ID, new_id=lambda: "benchtok")).handle(
            {"type": "IssueApiToken", "label": "bench"}).secret
        service = bootstrap.service(db, dataclasses.replace(Context(actor=GM_ID)))
        for ruleset in args.rulesets.split(","):
            both = {}
            for length in (10, args.versions):
                started, cpu_started = time.perf_counter(), time.process_time()
                built = (long_duel_at_once if args.at_once else long_duel)(service, db, ruleset, length, name=ruleset)
                print(f"({ruleset}: a duel of {length} versions played in {time.perf_counter() - started:.1f} s,"
                      f" {time.process_time() - cpu_started:.1f} CPU s)", flush=True)
                both[length] = targets(service, app, db, built)
            warm = {length: measure(client, args.reads, wanted) for length, wanted in both.items()}
            cold = {length: measure(client, args.reads, wanted, cold=True) for length, wanted in both.items()}
            compare(ruleset, args.versions, warm, cold)
        db.close()
    print(f"load average after: {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
