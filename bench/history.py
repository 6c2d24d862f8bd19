"""The duel history's benchmark: prints each figure beside its target. Not a timed test.

    .venv/bin/python bench/history.py [--events 100000] [--duels 30] [--actions 400]

A campaign of about 300 duels and 100,000 events (a template of random duels copied with fresh
ids), rebuilt from the log; then the history page under each filter, a character's record and
the statistics page, each requested again and again through the test client.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import gm_client, report, write_log  # noqa: E402
from bench.corpus import template  # noqa: E402
from tracker import create_app  # noqa: E402
from tracker.bootstrap.db import open_db  # noqa: E402
from tracker.projections import history  # noqa: E402
from tracker.projections.rebuild import rebuild  # noqa: E402
from tracker.eventstore.store import EventStore  # noqa: E402

TARGET_MS = 100


def build(path: str, lines: list[str], events: int) -> tuple[float, float]:
    """Write the copied log straight into the events table, then rebuild the read models twice,
    without the history rows and with them: both rates in ev/s."""
    write_log(path, lines, events)
    db = open_db(path)
    rates = []
    for write in (lambda *args: None, history.write_duel):
        history.write_duel, real = write, history.write_duel
        try:
            started = time.perf_counter()
            count = rebuild(db, EventStore(db))
            rates.append(count / (time.perf_counter() - started))
        finally:
            history.write_duel = real
    db.close()
    return rates[0], rates[1]


def urls(path: str) -> dict[str, str]:
    db = open_db(path)
    one = lambda sql: db.execute(sql).fetchone()[0]  # noqa: E731
    campaign = one("SELECT id FROM campaigns ORDER BY rowid LIMIT 1")
    # The character with the most duels: the longest record to read.
    character = one("SELECT character_id FROM duelists GROUP BY character_id ORDER BY COUNT(*) DESC LIMIT 1")
    session = one("SELECT id FROM sessions LIMIT 1")
    ruleset = one("SELECT ruleset FROM history_duels GROUP BY ruleset ORDER BY COUNT(*) DESC LIMIT 1")
    base = f"/campaigns/{campaign}/history"
    db.close()
    return {
        "history page, no filter": base,
        "history, one character": f"{base}?character={character}",
        "history, one ruleset, longest first, page 3": f"{base}?ruleset={ruleset}&sort=longest&page=3",
        "history, one session, ended by yield": f"{base}?session={session}&ending=yield",
        "history, a character's losses, bloodiest first": f"{base}?character={character}&outcome=loss&sort=bloodiest",
        "history, htmx fragment, drawn duels": f"{base}?outcome=draw",
        "a character's record": f"/characters/{character}/record",
        "campaign statistics": f"/campaigns/{campaign}/statistics",
    }


def medians(path: str, repeat: int) -> dict[str, float]:
    app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "TESTING": True})
    # The pages need a logged-in GM; a campaign made outside the web is open to every GM.
    client = gm_client(app, path)
    result = {}
    for name, url in urls(path).items():
        headers = {"HX-Request": "true"} if "htmx" in name else {}
        assert client.get(url, headers=headers).status_code == 200, url
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            client.get(url, headers=headers)
            times.append((time.perf_counter() - started) * 1000)
        result[name] = statistics.median(times)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--duels", type=int, default=30, help="duels played at random in the template")
    parser.add_argument("--actions", type=int, default=400, help="most actions in one template duel")
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        path = os.path.join(workdir, "history.db")
        print(f"Touché duel history benchmark — {os.cpu_count()} cores", flush=True)
        started = time.perf_counter()
        lines = template(duels=args.duels, max_actions=args.actions)
        print(f"template of {args.duels} duels played in {time.perf_counter() - started:.0f} s", flush=True)
        without, rate = build(path, lines, args.events)
        db = open_db(path)
        duels = db.execute("SELECT COUNT(*) FROM history_duels").fetchone()[0]
        events = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        db.close()
        report("campaign size", f"{duels} duels", "~300 duels")
        report("", f"{events:,} events", "~100,000 events")
        report("rebuild without the history rows", f"{without:,.0f} ev/s", "baseline")
        report("rebuild with them", f"{rate:,.0f} ev/s", f">= {without * 0.85:,.0f} (85% baseline)",
               rate >= without * 0.85)
        for name, ms in medians(path, args.repeat).items():
            report(f"{name}, median", f"{ms:.2f} ms", f"< {TARGET_MS} ms", ms < TARGET_MS)


if __name__ == "__main__":
    main()
