"""Session recaps in a big campaign: prints each figure beside its target. Not a timed test.

    .venv/bin/python bench/recap.py [--events 100000] [--duels 300]

The campaign holds ``--duels`` duels and ``--events`` events (random duels through the real
rules, copied with fresh ids, as in bench/run.py). A new play session of six duels is then
played in it through the service, and its recap is served in each format to each audience.
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

from bench.common import gm_client, report, write_log  # noqa: E402
from bench.corpus import SETUPS, template  # noqa: E402
from bench.driver import play  # noqa: E402
from tracker import create_app  # noqa: E402
from tracker.bootstrap.db import open_db  # noqa: E402
from tracker.projections.rebuild import rebuild  # noqa: E402
from tracker import bootstrap  # noqa: E402
from tracker.application.services import Context  # noqa: E402
from tracker.eventstore.store import EventStore  # noqa: E402

TARGET_MS = 100


def big_campaign(path: str, events: int, duels: int) -> None:
    """A campaign of about ``duels`` duels and exactly ``events`` events, read models rebuilt."""
    per_duel = max(20, events // duels)
    lines = template(duels=30, max_actions=per_duel)
    write_log(path, lines, events)
    db = open_db(path)
    rebuild(db, EventStore(db))
    db.close()


def play_session(path: str, duels: int = 6, seed: int = 11) -> str:
    """A new session in the big campaign: ``duels`` duels of every ruleset, played at random."""
    db = open_db(path)
    rng = random.Random(seed)
    service = bootstrap.service(db, Context(rng=rng))
    campaign = db.execute("SELECT id FROM campaigns ORDER BY rowid LIMIT 1").fetchone()[0]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 2, "date": "2026-12-06",
                              "title": "The recap session", "notes": "for the bench"}).key
    for index in range(duels):
        ruleset, pair, setup = SETUPS[(index * 3) % len(SETUPS)]
        rivals = [service.handle({"type": "CreateCharacter", "campaign_id": campaign,
                                  **dict(sheet, name=f"{sheet['name']} R{index}")}).key for sheet in pair]
        duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": ruleset, "setup": setup,
                               "stakes": "honour", "duelists": [{"character_id": rivals[0], "side": "a"},
                                                                {"character_id": rivals[1], "side": "b"}]}).key
        play(service, duel, rng, 60)
    db.close()
    return session


def serve(path: str, session: str, repeat: int) -> None:
    app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "TESTING": True, "WTF_CSRF_ENABLED": False})
    client = gm_client(app, path)
    db = open_db(path)
    counts = db.execute("SELECT COUNT(*), (SELECT COUNT(*) FROM events WHERE stream IN (SELECT 'duel-' || id"
                        " FROM duels WHERE session_id = ?)) FROM duels WHERE session_id = ?",
                        [session, session]).fetchone()
    total = db.execute("SELECT COUNT(*), (SELECT COUNT(*) FROM duels) FROM events").fetchone()
    db.close()
    print(f"campaign: {total[1]:,} duels, {total[0]:,} events; session recapped: {counts[0]} duels, "
          f"{counts[1]:,} events", flush=True)
    for audience in ("gm", "players"):
        for fmt in ("md", "html", "json"):
            url = f"/sessions/{session}/recap.{fmt}?audience={audience}"
            first = client.get(url)
            assert first.status_code == 200, first.text
            times = []
            for _ in range(repeat):
                started = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - started) * 1000)
                assert response.data == first.data  # the same events, the same bytes
            median = statistics.median(times)
            report(f"session recap, {audience}, {fmt} ({len(first.data):,} bytes), median",
                   f"{median:.1f} ms", f"< {TARGET_MS} ms", median < TARGET_MS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--duels", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        path = os.path.join(workdir, "recap.db")
        started = time.perf_counter()
        big_campaign(path, args.events, args.duels)
        session = play_session(path)
        print(f"built in {time.perf_counter() - started:.0f} s", flush=True)
        serve(path, session, args.repeat)


if __name__ == "__main__":
    main()
