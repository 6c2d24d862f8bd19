"""Load benchmark: the production server (waitress, as `make run` serves it) on loopback, on a
store that already holds 1,000,000 events; GMs logging turns over the JSON API, beside the bare
GET /health route on the same server as the floor. Prints each figure beside its target.

In the same run, the same load on PostgreSQL served by two app servers (the GMs spread over them,
as a reverse proxy would): the URL given with ``--postgresql`` (an empty database), or else a
throwaway cluster when Debian's PostgreSQL server is installed (``make postgres``).
``--sqlite-only`` skips it.

    .venv/bin/python bench/load.py [--events 1000000] [--store PATH] [--pace-seconds 60]
                                   [--postgresql URL | --sqlite-only]
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.corpus import template  # noqa: E402
from bench.common import report, write_log as build  # noqa: E402
from bench.run import rebuild_in_child  # noqa: E402
from bench.server import Client, Server, Table, campaign_with_session, gm_with_token, shipped_rulesets, start_duel  # noqa: E402

RULESETS = shipped_rulesets()


def store(path: str, events: int) -> None:
    """A log of ``events`` events with its read models rebuilt; reused when it is already there."""
    import sqlite3

    from tracker.projections.schema import READ_MODELS

    started, built = time.perf_counter(), 0.0
    stamp = path + ".read-models"  # the read models' schema it was rebuilt with
    if os.path.exists(path) and sqlite3.connect(path).execute("SELECT COUNT(*) FROM events").fetchone()[0] >= events:
        if os.path.exists(stamp) and open(stamp).read() == READ_MODELS:
            print(f"reusing {path}", flush=True)
            return
    else:
        for stale in (path, path + "-wal", path + "-shm"):
            if os.path.exists(stale):
                os.remove(stale)
        build(path, template(duels=60), events)
        built = time.perf_counter() - started
    rate, _ = rebuild_in_child(path)
    with open(stamp, "w") as out:
        out.write(READ_MODELS)
    written = f"{events:,} events written in {built:.0f} s" if built else f"the log in {path} reused"
    print(f"set-up: {written}, read models rebuilt at {rate:,.0f} ev/s; "
          f"{time.perf_counter() - started:.0f} s in all", flush=True)


def gm(port: int, token: str, seed: int, pace: float, seconds: float, hello: bool) -> dict:
    """One GM at the table: a turn (or a hello) every ``pace`` seconds, or back to back when 0."""
    client, rng = Client(port, token), random.Random(seed)
    campaign, session = campaign_with_session(client)
    ruleset = RULESETS[seed % len(RULESETS)]
    table = Table(client, start_duel(client, campaign, session, ruleset), rng)
    times, statuses, acknowledged = [], {}, []
    deadline = time.perf_counter() + seconds
    next_at = time.perf_counter() + rng.uniform(0, pace)  # the GMs do not all press at once
    while True:
        if pace:
            time.sleep(max(0.0, next_at - time.perf_counter()))
            next_at += pace
        if time.perf_counter() >= deadline:
            break
        command = None if hello or table.over else table.next_command()
        if command is None and not hello:  # the duel is over: the next one (not timed)
            table = Table(client, start_duel(client, campaign, session, ruleset), rng)
            continue
        started = time.perf_counter()
        if hello:
            status, _ = client.get("/health")
        else:
            command["command_id"] = uuid.uuid4().hex
            status, body = table.send(command)
        times.append((time.perf_counter() - started) * 1000)
        statuses[status] = statuses.get(status, 0) + 1
        if status == 201:
            acknowledged.append((command["command_id"], len(body["events"])))
    client.close()
    return {"times": times, "statuses": statuses, "acknowledged": acknowledged}


def _gm_in_process(args):
    return gm(*args)


def scenario(ports: list[int], tokens: list[str], clients: int, pace: float, seconds: float, hello: bool,
             processes: bool = False) -> dict:
    """Run ``clients`` GMs at once (threads, or a process each), spread over the servers' ports;
    merge what they saw. Rates are counted over the wall-clock time they all took."""
    jobs = [(ports[i % len(ports)], tokens[i % len(tokens)], i, pace, seconds, hello) for i in range(clients)]
    started = time.perf_counter()
    if processes:
        with multiprocessing.Pool(clients) as pool:  # every client at once, each in its own process
            results = pool.map(_gm_in_process, jobs)
    else:
        results = [None] * clients

        def run(index):
            results[index] = gm(*jobs[index])

        threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    seconds = max(seconds, time.perf_counter() - started - 1.0)  # less each client's set-up
    merged = {"times": [], "statuses": {}, "acknowledged": [], "seconds": seconds, "ok": 0}
    for result in results:
        merged["times"] += result["times"]
        merged["acknowledged"] += result["acknowledged"]
        for status, count in result["statuses"].items():
            merged["statuses"][status] = merged["statuses"].get(status, 0) + count
    return merged


def figures(name: str, result: dict, median_target: float | None = None, p99_target: float | None = None,
            rate_target: float | None = None) -> dict:
    times = sorted(result["times"])
    median, p99 = statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]
    rate = len(times) / result["seconds"]
    errors = sum(count for status, count in result["statuses"].items() if status not in (200, 201))
    report(f"{name}: throughput", f"{rate:,.0f} req/s", f">= {rate_target:,.0f}" if rate_target else "",
           rate >= rate_target if rate_target else None)
    report(f"{name}: median", f"{median:.2f} ms", f"< {median_target} ms" if median_target else "",
           median < median_target if median_target else None)
    report(f"{name}: p99", f"{p99:.2f} ms", f"< {p99_target} ms" if p99_target else "",
           p99 < p99_target if p99_target else None)
    report(f"{name}: errors", f"{errors} of {len(times):,}", "0", errors == 0)
    return {"rate": rate, "median": median, "p99": p99, "errors": errors}


def nothing_lost(path: str, results: list[dict]) -> int:
    """Every acknowledged turn is in the log, whole, exactly once."""
    from tracker.bootstrap.db import open_db

    db = open_db(path)
    acknowledged = [item for result in results for item in result["acknowledged"]]
    missing = 0
    for command_id, count in acknowledged:
        logged = db.execute("SELECT COUNT(*) FROM events WHERE command_id = ?", [command_id]).fetchone()[0]
        missing += logged != count
    db.close()
    report("acknowledged turns missing from the log", f"{missing} of {len(acknowledged):,}", "0", missing == 0)
    return missing


def pg_store(url: str, events: int) -> None:
    """The same log on PostgreSQL, its read models rebuilt there."""
    from tracker.bootstrap.db import open_db

    started = time.perf_counter()
    db = open_db(url)
    held = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    db.close()
    if held:
        raise SystemExit(f"{url} already holds {held:,} events: give the benchmark an empty database")
    build(url, template(duels=60), events)
    built = time.perf_counter() - started
    rate, _ = rebuild_in_child(url)
    print(f"set-up on PostgreSQL: {events:,} events written in {built:.0f} s, read models rebuilt at "
          f"{rate:,.0f} ev/s; {time.perf_counter() - started:.0f} s in all", flush=True)


def run_on(label: str, database: str, servers: int, args) -> dict:
    """Every scenario against ``servers`` app servers on one database; the headline figures."""
    tokens = [gm_with_token(database, f"gm{uuid.uuid4().hex[:8]}")[1] for _ in range(args.gms)]
    running = [Server(database).start() for _ in range(servers)]
    ports = [server.port for server in running]
    try:
        print(f"-- {label}: {servers} app server{'s' if servers > 1 else ''}", flush=True)
        pace = scenario(ports, tokens, args.gms, 1.0, args.pace_seconds, hello=False)
        at_pace = figures(f"{label}: table pace ({args.gms} GMs, 1 turn/s each): turn", pace, 10, 50)
        floor = scenario(ports, tokens, args.gms, 1.0, min(args.pace_seconds, 20), hello=True)
        figures(f"{label}: table pace: GET /health floor", floor)
        full = scenario(ports, tokens, args.clients, 0, args.saturation_seconds, hello=False, processes=True)
        saturated = figures(f"{label}: saturation ({args.clients} clients, no pause): turn", full, rate_target=300)
        hello = scenario(ports, tokens, args.clients, 0, min(args.saturation_seconds, 10), hello=True, processes=True)
        figures(f"{label}: saturation: GET /health floor", hello)
    finally:
        for server in running:
            server.stop()
    server_errors = sum(server.errors().count("Traceback") for server in running)
    report(f"{label}: server tracebacks", str(server_errors), "0", server_errors == 0)
    lost = nothing_lost(database, [pace, full])
    return {"pace": at_pace, "saturation": saturated, "tracebacks": server_errors, "lost": lost}


def summary(results: dict[str, dict]) -> None:
    print("\n| store | app servers | pace: median | pace: p99 | saturation | errors | lost |", flush=True)
    print("|---|---|---|---|---|---|---|")
    for label, (servers, r) in results.items():
        errors = r["pace"]["errors"] + r["saturation"]["errors"] + r["tracebacks"]
        print(f"| {label} | {servers} | {r['pace']['median']:.1f} ms | {r['pace']['p99']:.1f} ms"
              f" | {r['saturation']['rate']:,.0f} turns/s | {errors} | {r['lost']} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--store", help="keep the built store here and reuse it next time")
    parser.add_argument("--pace-seconds", type=float, default=60)
    parser.add_argument("--saturation-seconds", type=float, default=20)
    parser.add_argument("--gms", type=int, default=20)
    parser.add_argument("--clients", type=int, default=8, help="clients at saturation")
    parser.add_argument("--postgresql", metavar="URL", help="an empty PostgreSQL database for the second half")
    parser.add_argument("--pg-servers", type=int, default=2, help="app servers on PostgreSQL")
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    cluster = None
    with tempfile.TemporaryDirectory() as workdir:
        path = args.store or os.path.join(workdir, "load.db")
        print(f"Touché load benchmark — {os.cpu_count()} cores, {args.events:,} events, "
              f"waitress on loopback", flush=True)
        url = args.postgresql
        if not args.sqlite_only and not url:
            from tests import pg_cluster

            bin_dir = pg_cluster.binaries()
            if bin_dir is None:
                raise SystemExit("PostgreSQL's server is not installed: `make postgres`, or --sqlite-only")
            cluster = pg_cluster.Cluster(bin_dir, durable=True).start()
            cluster.admin("CREATE DATABASE touche_load")
            url = cluster.url("touche_load")
        try:
            store(path, args.events)
            results = {"SQLite": (1, run_on("SQLite", path, 1, args))}
            if url:
                pg_store(url, args.events)
                results["PostgreSQL"] = (args.pg_servers, run_on("PostgreSQL", url, args.pg_servers, args))
            summary(results)
        finally:
            if cluster is not None:
                cluster.stop()


if __name__ == "__main__":
    main()
