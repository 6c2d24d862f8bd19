"""Round trips to PostgreSQL, counted in psycopg: a statement sent outside pipeline mode is one (a
request, then its answer awaited), and in pipeline mode each wait for the server is one: a fetch of
a result still to come (psycopg sends a flush request and waits), a sync, the pipeline's end.
Whether the answer was already in the socket when the client looked does not change the count, so
it is the same on a loaded machine. Statements are counted beside them (BEGIN and COMMIT too)."""
from __future__ import annotations

import contextlib
from typing import Iterator


class Counter:
    def __init__(self) -> None:
        self.round_trips = 0
        self.statements = 0


@contextlib.contextmanager
def counting(db) -> Iterator[Counter]:
    """Count the round trips and statements of everything psycopg runs meanwhile (``db``, a
    PgDatabase, names which database; the count is the process's)."""
    from psycopg import _pipeline_base, connection, cursor

    counter = Counter()
    pipeline = _pipeline_base.BasePipeline
    saved = (connection.Connection.wait, connection.Connection._exec_command, cursor.Cursor.execute,
             cursor.Cursor.executemany, pipeline._fetch_gen, pipeline._sync_gen, pipeline._exit_gen)
    real_wait, real_command, real_execute, real_many, real_fetch, real_sync, real_exit = saved
    syncing = [0]

    def wait(self, gen, *args, **kwargs):
        if self._pipeline is None:
            counter.round_trips += 1
        return real_wait(self, gen, *args, **kwargs)

    def exec_command(self, *args, **kwargs):
        counter.statements += 1
        return real_command(self, *args, **kwargs)

    def execute(self, *args, **kwargs):
        counter.statements += 1
        return real_execute(self, *args, **kwargs)

    def executemany(self, query, params_seq, *args, **kwargs):
        params_seq = list(params_seq)
        counter.statements += len(params_seq)
        return real_many(self, query, params_seq, *args, **kwargs)

    def fetch_gen(self, *, flush):
        if flush and self.result_queue and not syncing[0]:
            counter.round_trips += 1
        return (yield from real_fetch(self, flush=flush))

    def syncing_gen(real):
        def gen(self):
            counter.round_trips += 1
            syncing[0] += 1
            try:
                return (yield from real(self))
            finally:
                syncing[0] -= 1
        return gen

    connection.Connection.wait, connection.Connection._exec_command = wait, exec_command
    cursor.Cursor.execute, cursor.Cursor.executemany = execute, executemany
    pipeline._fetch_gen, pipeline._sync_gen, pipeline._exit_gen = fetch_gen, syncing_gen(real_sync), syncing_gen(real_exit)
    try:
        yield counter
    finally:
        (connection.Connection.wait, connection.Connection._exec_command, cursor.Cursor.execute,
         cursor.Cursor.executemany, pipeline._fetch_gen, pipeline._sync_gen, pipeline._exit_gen) = saved


def per_command(url: str, n: int = 200) -> dict[str, tuple[float, float]]:
    """Round trips and statements per EditCharacter on the PostgreSQL database at ``url`` (empty):
    sent from the command line, and by a logged-in GM through the JSON API (policy checks too)."""
    from tracker import bootstrap, rules
    from tracker.application import policy
    from tracker.bootstrap.db import open_db
    from tracker.application.services import Context

    ruleset = rules.shipped()[0]
    db = open_db(url)
    found = {}
    gm = bootstrap.service(db, Context(new_id=lambda: "rtgm", password_method="pbkdf2:sha256:1000")).handle(
        {"type": "RegisterGM", "username": "rt", "password": "a round trip password"}).key
    for name, context in (("command line", Context()), ("GM through the API", Context(actor=gm, door=policy.API))):
        service = bootstrap.service(db, context)
        campaign = service.handle({"type": "CreateCampaign", "name": "RT", "ruleset": ruleset.NAME}).key
        character = service.handle({"type": "CreateCharacter", "campaign_id": campaign,
                                    **dict(ruleset.samples.DUELISTS[0], name="C", rank="pj")}).key
        with counting(db) as counter:
            for i in range(n):
                bootstrap.service(db, context).handle({"type": "EditCharacter", "character_id": character,
                                                       "name": f"C{i}", "rank": "pj", "expected_version": i + 1})
        found[name] = (counter.round_trips / n, counter.statements / n)
    found["GM's duel turn through the API"] = duel_turns(db, Context(actor=gm, door=policy.API), n)
    db.close()
    return found


def duel_turns(db, context, n: int) -> tuple[float, float]:
    """Round trips and statements per duel turn a GM logs: random legal turns of the shipped
    rulesets' sample duels (bench/driver.py), each counted from the command's arrival to its answer."""
    import random

    from bench.corpus import SETUPS
    from bench.driver import random_action
    from tracker import bootstrap

    rng, trips, statements, turns = random.Random(1), 0, 0, 0
    service = bootstrap.service(db, context)
    campaign = service.handle({"type": "CreateCampaign", "name": "Duels", "ruleset": SETUPS[0][0]}).key
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-12-03",
                              "title": "Round trips"}).key
    real_handle = type(service).handle
    with counting(db) as counter:
        def handle(self, message):
            nonlocal trips, statements, turns
            before = counter.round_trips, counter.statements
            outcome = real_handle(self, message)  # a refused try raises: not counted
            trips, statements = trips + counter.round_trips - before[0], statements + counter.statements - before[1]
            turns += 1
            return outcome

        index = 0
        while turns < n:
            ruleset, pair, setup = SETUPS[index % len(SETUPS)]
            index += 1
            rivals = [real_handle(service, {"type": "CreateCharacter", "campaign_id": campaign,
                                            **dict(sheet, name=f"{sheet['name']} {index}")}).key for sheet in pair]
            duel = real_handle(service, {"type": "StartDuel", "session_id": session, "ruleset": ruleset, "setup": setup,
                                         "duelists": [{"character_id": rivals[0], "side": "a"},
                                                      {"character_id": rivals[1], "side": "b"}]}).key
            type(service).handle = handle
            try:
                for _ in range(20):
                    if turns >= n or not random_action(service, duel, rng):
                        break
            finally:
                type(service).handle = real_handle
    return trips / max(turns, 1), statements / max(turns, 1)


def measure(n: int = 200) -> dict[str, tuple[float, float]] | None:
    """``per_command`` on a throwaway cluster, its socket a Unix one (tests/pg_cluster.py); None
    when no PostgreSQL server is installed."""
    import os
    import sys

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tests import pg_cluster

    bin_dir = pg_cluster.binaries()
    if bin_dir is None:
        return None
    cluster = pg_cluster.Cluster(bin_dir, durable=True).start()
    try:
        cluster.admin("CREATE DATABASE touche_rt")
        return per_command(cluster.url("touche_rt"), n)
    finally:
        cluster.stop()


def main() -> None:
    found = measure()
    if found is None:
        print("(no PostgreSQL server installed)")
    for name, (trips, statements) in (found or {}).items():
        print(f"PostgreSQL, one command ({name}): {trips:.1f} round trips, {statements:.1f} statements")


if __name__ == "__main__":
    main()
