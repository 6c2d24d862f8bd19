"""Where the time goes: cProfile's top lines for rebuild, import (its check and append alone,
then whole) and the one-command path.

    .venv/bin/python bench/profiles.py [--events 100000] [--top 25]

Prints, for each, the functions with the most own and cumulative time, and the statements one
command runs (SQLite's trace callback). Times are the process's CPU time, not the wall clock, so
that other work on a shared machine weighs on them as little as it can; the profiler itself
slows calls down, so read the shares, not the rates.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import re
import sys
import tempfile
import time
from unittest import mock

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import write_log  # noqa: E402
from bench.corpus import template  # noqa: E402
from tracker import backup, bootstrap, rules
from tracker.eventstore import forked  # noqa: E402
from tracker.bootstrap.db import open_db  # noqa: E402
from tracker.projections.rebuild import rebuild  # noqa: E402
from tracker.eventstore.store import EventStore, write_transaction  # noqa: E402


def profiled(title: str, work, top: int) -> None:
    profile = cProfile.Profile(time.process_time)
    started = time.process_time()
    profile.enable()
    count = work()
    profile.disable()
    elapsed = time.process_time() - started
    print(f"\n## {title}: {count:,} in {elapsed:.2f} s of CPU under the profiler ({count / elapsed:,.0f}/s)\n")
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(order).print_stats(top)
        text = out.getvalue()
        body = text[text.index("   ncalls"):].rstrip()
        print(f"by {order}:\n```\n{body}\n```")


def statements(db, work) -> None:
    """How many statements of each kind the work ran (SQLite's trace callback)."""
    counts: dict[str, int] = {}

    def seen(sql: str) -> None:
        # The trace gives each statement with its values bound: counted by its SQL alone.
        key = re.sub(r"'[^']*'|\b\d+\b", "?", " ".join(sql.split()))[:90]
        counts[key] = counts.get(key, 0) + 1

    db.conn.set_trace_callback(seen)
    try:
        work()
    finally:
        db.conn.set_trace_callback(None)
    print("statements run:\n```")
    for sql, n in sorted(counts.items(), key=lambda kv: -kv[1])[:15]:
        print(f"{n:>9,}  {sql}")
    print("```")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--commands", type=int, default=2000)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        lines = template(duels=60, seed=args.seed)
        path = os.path.join(workdir, "log.db")
        write_log(path, lines, args.events)
        db = open_db(path)
        # In one process: the work each part of a parallel rebuild does (cProfile sees one process).
        profiled(f"rebuild of {args.events:,} events (one process)", lambda: rebuild(db, EventStore(db), parts=1),
                 args.top)
        exported = []
        backup.export_lines(db, type("Out", (), {"write": lambda self, t: exported.append(t)})())
        db.close()

        # The check and append alone: what bench/run.py's bulk import times against raw sqlite3.
        # In one process, both halves in one profile: past a few thousand lines an import forks
        # a child to check while it appends (tracker.eventstore.forked), which cProfile would not see.
        appended = open_db(os.path.join(workdir, "append.db"))

        def append() -> int:
            check = backup.Check()
            with write_transaction(appended), mock.patch.object(forked, "can_fork", lambda: False):
                backup.append_lines(appended, exported, check)
            return check.events

        profiled(f"import-log's check and append of {args.events:,} events (no rebuild, one process)", append,
                 args.top)
        appended.close()

        target = open_db(os.path.join(workdir, "import.db"))
        profiled(f"import-log of {args.events:,} events (check, append, rebuild; the check past the first "
                 f"{backup.PARALLEL_AFTER * backup.BATCH:,} lines in a forked child, which is not profiled)",
                 lambda: backup.import_lines(target, exported).events, args.top)
        target.close()

        db = open_db(os.path.join(workdir, "one.db"))
        service = bootstrap.service(db)
        ruleset = rules.shipped()[0]
        campaign = service.handle({"type": "CreateCampaign", "name": "Bench", "ruleset": ruleset.NAME}).key
        character = service.handle({"type": "CreateCharacter", "campaign_id": campaign,
                                    **dict(ruleset.samples.DUELISTS[0], name="C", rank="pj")}).key
        version = [1]

        def commands(n: int) -> int:
            for _ in range(n):
                service.handle({"type": "EditCharacter", "character_id": character, "name": f"C{version[0]}",
                                "rank": "pj", "expected_version": version[0]})
                version[0] += 1
            return n

        profiled(f"one command per transaction, {args.commands:,} commands",
                 lambda: commands(args.commands), args.top)
        statements(db, lambda: commands(10))


if __name__ == "__main__":
    main()
