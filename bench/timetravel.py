"""Time travel and the table display, timed in a campaign of about 300 duels and 100,000 events.
Prints each figure beside its target. Not a timed test.

    .venv/bin/python bench/timetravel.py [--events 100000] [--duels 300] [--samples 150]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import orjson  # noqa: E402

from bench.common import gm_client, report, write_log  # noqa: E402
from bench.corpus import template  # noqa: E402
from tracker import create_app  # noqa: E402
from tracker.bootstrap.db import open_db  # noqa: E402
from tracker.projections.engine import refold  # noqa: E402
from tracker.projections.rebuild import rebuild  # noqa: E402
from tracker import bootstrap  # noqa: E402
from tracker.application.services import Context  # noqa: E402
from tracker.eventstore.store import EventStore  # noqa: E402


def long_duels(lines: list[str], events: int, duels: int) -> list[str]:
    """The template's lines, keeping only its longest duels: enough that ``duels`` copies of them
    hold about ``events`` events (the export's closing line, which has no stream, is dropped)."""
    pairs = [(line, orjson.loads(line)) for line in lines]
    pairs = [(line, item) for line, item in pairs if "stream" in item]
    items = [item for _, item in pairs]
    sizes: dict[str, int] = {}
    for item in items:
        if item["stream"].startswith("duel-"):
            sizes[item["stream"]] = sizes.get(item["stream"], 0) + 1
    wanted = events / duels
    kept = sorted(sizes, key=sizes.get, reverse=True)
    while len(kept) > 1 and sum(sizes[s] for s in kept) / len(kept) < wanted:
        kept.pop()
    return [line for line, item in pairs if not item["stream"].startswith("duel-") or item["stream"] in kept]


def build(path: str, lines: list[str], n: int) -> None:
    write_log(path, lines, n)
    db = open_db(path)
    started = time.perf_counter()
    rebuild(db, EventStore(db))
    print(f"  read models rebuilt in {time.perf_counter() - started:.1f} s", flush=True)
    db.close()


def timed(client, url: str, **headers) -> float:
    started = time.perf_counter()
    response = client.get(url, headers=headers)
    elapsed = (time.perf_counter() - started) * 1000
    assert response.status_code in (200, 204), (url, response.status_code)
    return elapsed


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    return f"median {statistics.median(ordered):.1f} ms · p95 {ordered[int(len(ordered) * .95)]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--duels", type=int, default=300)
    parser.add_argument("--samples", type=int, default=150)
    args = parser.parse_args()
    rng = random.Random(4)
    with tempfile.TemporaryDirectory() as workdir:
        path = os.path.join(workdir, "campaign.db")
        print(f"Touché time travel and table display — {os.cpu_count()} cores", flush=True)
        build(path, long_duels(template(duels=30, max_actions=400), args.events, args.duels), args.events)
        app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "TESTING": True})
        client = gm_client(app, path)
        db = open_db(path)
        duels = db.execute("SELECT id, version FROM duels").fetchall()
        total = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        print(f"  {len(duels)} duels, {total:,} events; the longest duel has {max(v for _, v in duels)} events "
              f"(median {statistics.median(v for _, v in duels):.0f})", flush=True)

        jumps, steps, pages, folds = [], [], [], []
        for duel, last in rng.sample(duels, min(args.samples, len(duels))):
            at = rng.randint(2, max(2, last - 1))
            base = f"/duels/{duel}/travel?at="
            jumps.append(timed(client, f"{base}{at}", **{"HX-Request": "true"}))
            for to in (at + 1, at, at - 1):  # next, then back twice: what stepping does
                steps.append(timed(client, f"{base}{min(to, last)}", **{"HX-Request": "true"}))
            pages.append(timed(client, f"{base}{at}"))
            started = time.perf_counter()
            refold(EventStore(db), f"duel-{duel}", at)
            folds.append((time.perf_counter() - started) * 1000)
        report("time-travel step (prev/next, htmx fragment)", summary(steps), "median < 50 ms",
               statistics.median(steps) < 50)
        report("time-travel jump to any event, first visit", summary(jumps), "median < 50 ms",
               statistics.median(jumps) < 50)
        report("time-travel full page (no JavaScript), revisited", summary(pages), "median < 50 ms",
               statistics.median(pages) < 50)
        report("  for reference: engine.refold alone, cold", summary(folds), "—")

        compares = [timed(client, f"/duels/{duel}/compare?a=1&b={last}") for duel, last in rng.sample(duels, 30)]
        report("compare two events side by side (cold)", summary(compares), "median < 100 ms",
               statistics.median(compares) < 100)

        service = bootstrap.service(db, Context(actor="benchgm"))
        polls, fragments = [], []
        with app.app_context():
            from tracker.web.player import sign

            for duel, last in rng.sample(duels, 30):
                link = service.handle({"type": "IssuePlayerLink", "kind": "display", "target": duel})
                token = sign(link.events[0].data["link_id"])
                version = db.execute("SELECT version FROM duels WHERE id = ?", [duel]).fetchone()[0]
                fragments.append(timed(client, f"/play/{token}/display/live", **{"HX-Request": "true"}))
                polls += [timed(client, f"/play/{token}/display/live?v={version}", **{"HX-Request": "true"})
                          for _ in range(10)]
        report("table display poll, duel unchanged (204)", summary(polls), "median < 5 ms",
               statistics.median(polls) < 5)
        report("table display fragment after a change", summary(fragments), "median < 50 ms",
               statistics.median(fragments) < 50)
        db.close()


if __name__ == "__main__":
    main()
