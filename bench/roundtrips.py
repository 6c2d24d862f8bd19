"""Round trips to PostgreSQL, counted on the client: each time psycopg, having sent all it had to
send, waits to read the server's answer (a run of reads in a row is one wait). Statements are
counted beside them: without pipeline mode each is a round trip of its own."""
from __future__ import annotations

import contextlib
import select
from typing import Iterator

_POLL_IN = select.POLLIN | select.POLLERR | select.POLLHUP


class Counter:
    def __init__(self) -> None:
        self.round_trips = 0
        self.statements = 0


def _counting_wait(counter: Counter):
    def wait(gen, fileno, interval=None, timeout=None):
        try:
            state, reading = next(gen), False
            while True:
                events = (select.POLLIN if state & 1 else 0) | (select.POLLOUT if state & 2 else 0)
                if state == 1 and not reading:  # all sent, only an answer to wait for: a round trip
                    counter.round_trips += 1
                reading = state == 1
                poller = select.poll()
                poller.register(fileno, events)
                ready = poller.poll(None if timeout is None else int(timeout * 1000))
                flags = 0
                for _, happened in ready:
                    flags |= (1 if happened & _POLL_IN else 0) | (2 if happened & select.POLLOUT else 0)
                state = gen.send(flags)
        except StopIteration as done:
            return done.value
    return wait


@contextlib.contextmanager
def counting(db) -> Iterator[Counter]:
    """Count the round trips and statements of everything run on ``db`` (a PgDatabase) meanwhile."""
    from psycopg import connection, cursor

    counter = Counter()
    real_wait, real_execute, real_many = connection.waiting.wait, cursor.Cursor.execute, cursor.Cursor.executemany

    def execute(self, *args, **kwargs):
        counter.statements += 1
        return real_execute(self, *args, **kwargs)

    def executemany(self, query, params_seq, *args, **kwargs):
        params_seq = list(params_seq)
        counter.statements += len(params_seq)
        return real_many(self, query, params_seq, *args, **kwargs)

    connection.waiting.wait = _counting_wait(counter)
    cursor.Cursor.execute, cursor.Cursor.executemany = execute, executemany
    try:
        yield counter
    finally:
        connection.waiting.wait = real_wait
        cursor.Cursor.execute, cursor.Cursor.executemany = real_execute, real_many


def per_command(url: str, n: int = 200) -> dict[str, tuple[float, float]]:
    """Round trips and statements per EditCharacter on the PostgreSQL database at ``url`` (empty):
    sent from the command line, and by a logged-in GM through the JSON API (policy checks too)."""
    from psycopg import connection as pg_connection

    from tracker import bootstrap, policy, rules
    from tracker.db import open_db
    from tracker.services import Context

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
        real_command = pg_connection.Connection._exec_command
        with counting(db) as counter:
            def exec_command(self, *args, **kwargs):
                counter.statements += 1  # BEGIN, COMMIT, SAVEPOINT
                return real_command(self, *args, **kwargs)
            pg_connection.Connection._exec_command = exec_command
            try:
                for i in range(n):
                    bootstrap.service(db, context).handle({"type": "EditCharacter", "character_id": character,
                                                           "name": f"C{i}", "rank": "pj", "expected_version": i + 1})
            finally:
                pg_connection.Connection._exec_command = real_command
        found[name] = (counter.round_trips / n, counter.statements / n)
    db.close()
    return found


def main() -> None:
    import os
    import sys

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tests import pg_cluster

    bin_dir = pg_cluster.binaries()
    if bin_dir is None:
        print("(no PostgreSQL server installed)")
        return
    cluster = pg_cluster.Cluster(bin_dir, durable=True).start()
    try:
        cluster.admin("CREATE DATABASE touche_rt")
        for name, (trips, statements) in per_command(cluster.url("touche_rt")).items():
            print(f"PostgreSQL, one command ({name}): {trips:.1f} round trips, {statements:.1f} statements")
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
