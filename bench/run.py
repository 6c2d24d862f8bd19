"""The core's benchmark: prints each figure beside its target (issues 2 and 17), beside raw
sqlite3 on the same schema in the same run. Not a timed test.

    .venv/bin/python bench/run.py [--events 1000000]

With the optional ``bench`` extra installed (``pip install -e ".[bench]"``), it also prints what
the ``eventsourcing`` library does on the same machine (far less: no read models at all).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import INSERT, gm_client, report, write_log  # noqa: E402
from bench.corpus import copies, template  # noqa: E402
from tracker import backup, create_app, rules  # noqa: E402
from tracker.bootstrap.db import open_db  # noqa: E402
from tracker import bootstrap  # noqa: E402
from tracker.eventstore.store import SCHEMA, loads, write_transaction  # noqa: E402



def raw_db(path: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.executescript(SCHEMA)
    return conn


def bulk_import(workdir: str, lines: list[str], n: int, rounds: int = 3) -> None:
    """import-log's pass (every line read from its file, checked, appended; its rebuild left
    out) against the floor any import has: raw sqlite3 inserting the same rows, already in
    memory, with one executemany (no file read, no check). The two take turns ``rounds`` times,
    each on a fresh database, and the median of the rounds' ratios is judged (``paired``)."""
    rows = list(copies(lines, n))
    path, digest = os.path.join(workdir, "bulk.jsonl"), ""
    with open(path, "w", encoding="utf-8") as out:
        for r in rows:
            item = {"position": r[0], "stream": r[1], "version": r[2], "type": r[3], "schema": r[4],
                    "data": loads(r[5]), "metadata": loads(r[6])}
            digest = backup.chain(digest, item)
            out.write(backup.dumps({**item, "hash": digest}) + "\n")
        out.write(backup.dumps({"format": backup.FORMAT, "events": len(rows), "hash": digest}) + "\n")

    def raw(round_: int) -> Rates:
        conn = raw_db(os.path.join(workdir, f"raw-bulk{round_}.db"))
        with timed(n) as rates:
            conn.execute("BEGIN")
            conn.executemany(INSERT, rows)
            conn.execute("COMMIT")
        return rates

    def ours(round_: int) -> Rates:
        db = open_db(os.path.join(workdir, f"ours-bulk{round_}.db"))
        with timed(n) as rates, write_transaction(db), open(path, "rb") as f:  # import-log's pass, before its rebuild
            backup.append_lines(db, backup.TextLines(f), backup.Check())
        return rates

    raw_rate, our_rate, ratio = paired(raw, ours, rounds)
    report(f"bulk import of {n:,} events (raw executemany)", f"{raw_rate.wall:,.0f} ev/s", "baseline",
           cpu=f"{raw_rate.cpu:,.0f}")
    report("bulk import: check every line + append (import-log)", f"{our_rate.wall:,.0f} ev/s",
           f">= 50% raw (median of {rounds} rounds: {ratio.wall:.0%}; per CPU second {ratio.cpu:.0%})",
           ratio.wall >= 0.5, cpu=f"{our_rate.cpu:,.0f}")


class Rates:
    """Events (or commands) a second by the wall clock and per CPU second (this process and the
    children it waited for: a loaded machine slows the first, hardly the second)."""

    def __init__(self, wall: float = 0.0, cpu: float = 0.0):
        self.wall, self.cpu = wall, cpu


def _cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)  # os.times() counts in 10 ms ticks
    return time.process_time() + children.ru_utime + children.ru_stime


@contextlib.contextmanager
def timed(n: int):
    """Time the block: ``n`` over its wall seconds and over its CPU seconds, into the Rates yielded."""
    rates = Rates()
    wall, cpu = time.perf_counter(), _cpu_seconds()
    yield rates
    rates.wall = n / (time.perf_counter() - wall)
    rates.cpu = n / max(_cpu_seconds() - cpu, 1e-9)


def paired(raw: Callable[[int], Rates], ours: Callable[[int], Rates], rounds: int) -> tuple[Rates, Rates, Rates]:
    """Each side's median rates and the median of the rounds' ratios, ours / raw, the two taking
    turns: on a shared machine the load drifts between runs, so a ratio is read from a raw run
    and one of ours taken side by side, never from one lone run of each. By the wall clock and
    per CPU second alike."""
    pairs = []
    for round_ in range(rounds):
        baseline = raw(round_)
        pairs.append((baseline, ours(round_)))

    def medians(side: Callable[[Rates, Rates], tuple[float, float]]) -> Rates:
        return Rates(*(statistics.median(side(b, o)[i] for b, o in pairs) for i in (0, 1)))

    return (medians(lambda b, o: (b.wall, b.cpu)), medians(lambda b, o: (o.wall, o.cpu)),
            medians(lambda b, o: (o.wall / b.wall, o.cpu / b.cpu)))


def one_per_transaction(workdir: str, n: int = 2000, rounds: int = 3) -> None:
    """The web path, one command per transaction, against raw sqlite3's one event per commit:
    taking turns ``rounds`` times, each on a fresh database (``paired``)."""
    ruleset = rules.shipped()[0]

    def raw(round_: int) -> Rates:
        conn = raw_db(os.path.join(workdir, f"raw-one{round_}.db"))
        with timed(n) as rates:
            for i in range(1, n + 1):
                conn.execute("BEGIN")
                conn.execute(INSERT, (i, f"s-{i % 50}", i // 50 + 1, "CampaignEdited", 1, '{"name":"x"}', "{}", None))
                conn.execute("COMMIT")
        return rates

    def ours(round_: int) -> Rates:
        db = open_db(os.path.join(workdir, f"ours-one{round_}.db"))
        service = bootstrap.service(db)
        campaign = service.handle({"type": "CreateCampaign", "name": "Bench", "ruleset": ruleset.NAME}).key
        character = service.handle({"type": "CreateCharacter", "campaign_id": campaign,
                                    **dict(ruleset.samples.DUELISTS[0], name="C", rank="pj")}).key
        with timed(n) as rates:
            for i in range(n):  # a service per command, as the web makes one per request: nothing kept between them
                bootstrap.service(db).handle({"type": "EditCharacter", "character_id": character, "name": f"C{i}",
                                              "rank": "pj", "expected_version": i + 1})
        return rates

    def replayed(round_: int) -> Rates:
        return replay(recording, f"replayed{round_}.db")

    recording = record_commands(workdir, ruleset, n)
    # Three sides taking turns: raw, the service, and the service's own SQL replayed.
    sides = [(raw(r), ours(r), replayed(r)) for r in range(rounds)]
    mid = statistics.median

    def rates(index: int) -> Rates:
        return Rates(mid(s[index].wall for s in sides), mid(s[index].cpu for s in sides))

    def ratio(top: int, bottom: int) -> Rates:
        return Rates(mid(s[top].wall / s[bottom].wall for s in sides), mid(s[top].cpu / s[bottom].cpu for s in sides))

    raw_rate, our_rate, floor = rates(0), rates(1), rates(2)
    whole, ceiling, python = ratio(1, 0), ratio(2, 0), ratio(1, 2)
    report("one event per commit (raw INSERT + COMMIT)", f"{raw_rate.wall:,.0f} ev/s", "baseline",
           cpu=f"{raw_rate.cpu:,.0f}")
    report("one command per transaction (service: decide+append+project)", f"{our_rate.wall:,.0f} cmd/s",
           f">= 30% raw (median of {rounds} rounds: {whole.wall:.0%}; per CPU second {whole.cpu:.0%})",
           whole.wall >= 0.30, cpu=f"{our_rate.cpu:,.0f}")
    report("  its SQL statements alone, replayed without Python", f"{floor.wall:,.0f} cmd/s",
           f">= 40% raw ({ceiling.wall:.0%}; per CPU second {ceiling.cpu:.0%})", ceiling.wall >= 0.40,
           cpu=f"{floor.cpu:,.0f}")
    report("  the service, as a share of its own SQL replayed", f"{python.wall:.0%}",
           f">= 75% (per CPU second {python.cpu:.0%})", python.wall >= 0.75)
    report("  per command: statements, pages written to the WAL", f"{recording.statements:.1f}, {recording.pages:.1f}",
           f"for comparison (raw: 3, {raw_pages(workdir, n):.1f})")


class Recording:
    """A connection that keeps every statement run through it, with its values."""

    def __init__(self, conn: sqlite3.Connection):
        self._conn, self.statements = conn, []

    def execute(self, sql: str, params=()):
        self.statements.append((self._conn.execute, sql, params))
        return self._conn.execute(sql, params)

    def executemany(self, sql: str, rows):
        rows = list(rows)
        self.statements.append((self._conn.executemany, sql, rows))
        return self._conn.executemany(sql, rows)

    def __getattr__(self, name: str):
        return getattr(self._conn, name)


class Recorded:
    """The statements of ``n`` commands (after those that set them up), as run, values included,
    with what they cost: statements and pages written to the WAL per command."""

    def __init__(self, workdir: str, statements: list, setup: int, n: int, pages: float):
        self.workdir, self.all, self.setup, self.n, self.pages = workdir, statements, setup, n, pages
        self.statements = sum(1 if run.__name__ == "execute" else len(params)
                              for run, _, params in statements[setup:]) / n


def record_commands(workdir: str, ruleset, n: int) -> Recorded:
    """The same commands as ``one_per_transaction``, run once with every statement recorded."""
    path = os.path.join(workdir, "recorded.db")
    db = open_db(path)
    db.conn.execute("PRAGMA wal_autocheckpoint=0")  # the WAL only grows: its frames are counted
    recording = db.conn = Recording(db.conn)
    service = bootstrap.service(db)
    campaign = service.handle({"type": "CreateCampaign", "name": "Bench", "ruleset": ruleset.NAME}).key
    character = service.handle({"type": "CreateCharacter", "campaign_id": campaign,
                                **dict(ruleset.samples.DUELISTS[0], name="C", rank="pj")}).key
    setup, wal = len(recording.statements), os.path.getsize(path + "-wal")
    for i in range(n):
        bootstrap.service(db).handle({"type": "EditCharacter", "character_id": character, "name": f"C{i}",
                                      "rank": "pj", "expected_version": i + 1})
    pages = (os.path.getsize(path + "-wal") - wal) / (24 + PAGE) / n
    db.conn = recording._conn
    db.close()
    return Recorded(workdir, recording.statements, setup, n, pages)


PAGE = 4096  # SQLite's page size here; a WAL frame is a page and a 24-byte header


def replay(recorded: Recorded, name: str) -> Rates:
    """Commands per second of the web path's own SQL, with nothing else: the recorded statements
    replayed as they were into a fresh database of the same schema. What is left between this and
    the service's own figure is the Python of a command."""
    conn = open_db(os.path.join(recorded.workdir, name)).conn
    statements = [(getattr(conn, run.__name__), sql, params) for run, sql, params in recorded.all]
    for run, sql, params in statements[:recorded.setup]:
        run(sql, params)
    with timed(recorded.n) as rates:
        for run, sql, params in statements[recorded.setup:]:
            run(sql, params)
    return rates


def raw_pages(workdir: str, n: int) -> float:
    """Pages raw sqlite3's one event per commit writes to the WAL."""
    path = os.path.join(workdir, "raw-pages.db")
    conn = raw_db(path)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    wal = os.path.getsize(path + "-wal")
    for i in range(1, n + 1):
        conn.execute("BEGIN")
        conn.execute(INSERT, (i, f"s-{i % 50}", i // 50 + 1, "CampaignEdited", 1, '{"name":"x"}', "{}", None))
        conn.execute("COMMIT")
    pages = (os.path.getsize(path + "-wal") - wal) / (24 + PAGE) / n
    conn.close()
    return pages


def postgresql_round_trips() -> None:
    """Round trips to PostgreSQL of one command (bench/roundtrips.py), on a Unix socket."""
    from bench import roundtrips

    found = roundtrips.measure()
    if found is None:
        print("(no PostgreSQL server installed: round trips not counted)", flush=True)
    for name, (trips, statements) in (found or {}).items():
        report(f"PostgreSQL, one command ({name}): round trips", f"{trips:.1f}",
               f"<= 6 ({statements:.1f} statements, pipelined)", trips <= 6)


def rebuild_in_child(path: str) -> tuple[float, float, float, int, float]:
    """Rebuild in a fresh process: its rate, its own peak RSS and the largest peak RSS of the
    processes it started to fold parts of the log, in MB, how many processes folded, and the CPU
    seconds all of them spent (what a shared machine's load skews least). Measured
    inside it as VmHWM: ru_maxrss survives exec on Linux, so it would count the parent's ~400 MB
    of bench data; its parts' peaks are theirs alone (RUSAGE_CHILDREN, after they ended)."""
    code = ("import resource, sys, time; sys.path.insert(0, %r)\n"
            "from tracker.bootstrap.db import open_db\nfrom tracker.eventstore.store import EventStore\n"
            "from tracker.projections import rebuild\n"
            "db = open_db(%r); t, cpu = time.perf_counter(), time.process_time()\n"
            "n = rebuild.rebuild(db, EventStore(db))\n"
            "rate = n / (time.perf_counter() - t)\n"
            "peak = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
            "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "cpu = time.process_time() - cpu + used.ru_utime + used.ru_stime\n"
            "print(rate, peak, used.ru_maxrss, rebuild.parts_for(n), cpu)\n"
            ) % (os.getcwd(), path)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    rate, peak_kb, parts_kb, parts, cpu = out.stdout.split()
    return float(rate), int(peak_kb) / 1024, int(parts_kb) / 1024, int(parts), float(cpu)


def page_medians(paths: list[str], repeat: int = 200, clock=time.perf_counter) -> list[dict[str, float]]:
    """Median time of each page on each database, the databases taking turns request by request
    so that drift in the process (caches warming, the allocator) weighs on both alike; ``clock``
    may be ``time.process_time``, what a machine loaded by other jobs skews least. Every
    database shows the same character: one of the first database's, whose duels are over there;
    the copies in a larger log go to fresh rivals, so it has the same duels in each."""
    clients, urls = [], []
    first = open_db(paths[0])
    character = first.execute(
        "SELECT p.character_id FROM duelists p JOIN duels d ON d.id = p.duel_id WHERE d.status = 'over'"
        " ORDER BY p.rowid DESC LIMIT 1").fetchone()[0]
    first.close()
    for path in paths:
        # Served as a server serves it: one connection kept and reused, request after request.
        # Under TESTING each request opens the file and runs the schema's statements again
        # (~3 ms, a third of the target), which no served request pays (tracker/bootstrap/db.py).
        app = create_app({"DATABASE": path, "SECRET_KEY": "bench", "SESSION_COOKIE_SECURE": False})
        clients.append(gm_client(app, path))
        db = open_db(path)
        campaign = db.execute("SELECT id FROM campaigns ORDER BY rowid LIMIT 1").fetchone()[0]
        last = db.execute("SELECT MAX(position) FROM events").fetchone()[0]
        urls.append({"character sheet": f"/characters/{character}", "event log page": f"/campaigns/{campaign}/log",
                     "event log, one character": f"/campaigns/{campaign}/log?subject=character-{character}",
                     "event log, duels only, page 2": f"/campaigns/{campaign}/log?category=duel&before={last - 100}"})
        db.close()
    medians: list[dict[str, float]] = [{} for _ in paths]
    for name in urls[0]:
        times: list[list[float]] = [[] for _ in paths]
        for client, pages in zip(clients, urls):
            assert client.get(pages[name]).status_code == 200, pages[name]
        for _ in range(repeat):
            for index, (client, pages) in enumerate(zip(clients, urls)):
                started = clock()
                client.get(pages[name])
                times[index].append((clock() - started) * 1000)
        for index in range(len(paths)):
            medians[index][name] = statistics.median(times[index])
    return medians


def eventsourcing_figures(workdir: str, bulk: int = 100_000, one: int = 2000) -> None:
    """The eventsourcing library on SQLite, on this machine, if installed (the ``bench`` extra):
    one aggregate's events saved at once, one event per commit, and every event read and decoded."""
    try:
        from eventsourcing.application import Application
        from eventsourcing.domain import Aggregate, event
    except ImportError:
        print("(eventsourcing not installed: pip install -e '.[bench]' to compare with it)", flush=True)
        return

    class Character(Aggregate):
        @event("Created")
        def __init__(self, name: str):
            self.name = name

        @event("Edited")
        def edit(self, name: str) -> None:
            self.name = name

    def app(name: str) -> Application:
        return Application(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite",
                                "SQLITE_DBNAME": os.path.join(workdir, f"es-{name}.db")})

    bulk_app = app("bulk")
    hero = Character("C")
    for i in range(bulk - 1):
        hero.edit(f"C{i}")
    started = time.perf_counter()
    bulk_app.save(hero)
    saved = bulk / (time.perf_counter() - started)
    started = time.perf_counter()
    read = sum(1 for _ in bulk_app.events.get(hero.id))
    scanned = read / (time.perf_counter() - started)
    one_app = app("one")
    hero = Character("C")
    one_app.save(hero)
    started = time.perf_counter()
    for i in range(one):
        hero.edit(f"C{i}")
        one_app.save(hero)
    each = one / (time.perf_counter() - started)
    report("eventsourcing (no read models): bulk save", f"{saved:,.0f} ev/s", "for comparison")
    report("eventsourcing: one event per commit", f"{each:,.0f} ev/s", "for comparison")
    report("eventsourcing: scan and decode", f"{scanned:,.0f} ev/s", "for comparison")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--page-clock", choices=("wall", "cpu"), default="wall",
                        help="time the pages by the wall clock, or by this process's CPU time (a loaded machine)")
    parser.add_argument("--page-repeat", type=int, default=200, help="requests of each page on each store")
    parser.add_argument("--rounds", type=int, default=3,
                        help="turns raw sqlite3 and Touché take at the import and the web path (median ratio judged)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        print(f"Touché core benchmark — {os.cpu_count()} cores, {args.events:,} events", flush=True)
        lines = template(duels=60)
        bulk_import(workdir, lines, min(args.events, 200_000), args.rounds)
        one_per_transaction(workdir, rounds=args.rounds)
        postgresql_round_trips()
        small, large = os.path.join(workdir, "small.db"), os.path.join(workdir, "large.db")
        write_log(small, lines, 1000)
        write_log(large, lines, args.events)
        rate, peak, part_peak, parts, cpu = rebuild_in_child(large)
        report(f"rebuild of {args.events:,} events ({parts} process{'es' if parts > 1 else ''})",
               f"{rate:,.0f} ev/s", ">= 50,000 ev/s", rate >= 50_000)
        report("rebuild: events per CPU second, all its processes", f"{args.events / cpu:,.0f} ev/s",
               "for comparison (the load of a shared machine skews it least)")
        memory = peak + part_peak * (parts - 1)
        report("rebuild peak memory (max RSS, all its processes)",
               f"{memory:,.0f} MB" + (f" ({peak:,.0f} + {parts - 1}x{part_peak:,.0f})" if parts > 1 else ""),
               "< 200 MB", memory < 200)
        rebuild_in_child(small)
        eventsourcing_figures(workdir)
        clock = time.process_time if args.page_clock == "cpu" else time.perf_counter
        at_small, at_large = page_medians([small, large], args.page_repeat, clock)
        for name in at_large:
            report(f"{name}, median {args.page_clock} at {args.events:,} events", f"{at_large[name]:.2f} ms", "< 10 ms",
                   at_large[name] < 10)
            ratio = at_large[name] / at_small[name]
            report(f"{name}, vs at 1,000 events ({at_small[name]:.2f} ms)", f"{ratio:.2f}x",
                   "<= 1.3x (same page content)" if "character" in name else "<= 1.3x", ratio <= 1.3)


if __name__ == "__main__":
    main()
