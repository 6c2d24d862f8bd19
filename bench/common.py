"""What the benchmarks share: writing a big log fast, a logged-in client, printing a figure."""
from __future__ import annotations

from bench.corpus import copies
from tracker.bootstrap.db import open_db
from tracker import bootstrap
from tracker.application import logins
from tracker.application.services import Context

INSERT = ("INSERT INTO events (position, stream, version, type, schema, data, metadata, command_id)"
          " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
GM_ID = "benchgm"


def report(name: str, figure: str, target: str, ok: bool | None = None, cpu: str = "") -> None:
    """One figure beside its target, marked ok or MISSED when it has one; ``cpu``, the same figure
    per CPU second (what a machine loaded by other work skews least), printed beside it."""
    mark = "" if ok is None else ("  ok" if ok else "  MISSED")
    per_cpu = f" ({cpu} per CPU-s)" if cpu else ""
    print(f"{name:<58} {figure:>22}{per_cpu}   target: {target}{mark}", flush=True)


def write_log(path: str, lines: list[str], events: int) -> None:
    """``events`` copied events written straight into the log (read models not rebuilt), into a
    SQLite file or a PostgreSQL database alike."""
    from itertools import islice

    from tracker.eventstore.store import insert_rows, write_transaction

    db = open_db(path)
    rows = iter(copies(lines, events))
    with write_transaction(db):
        while batch := list(islice(rows, 10_000)):
            insert_rows(db, batch)
    db.close()


def gm_client(app, path: str):
    """A test client logged in as the bench's GM (created once per database)."""
    db = open_db(path)
    if not db.execute("SELECT 1 FROM gms WHERE id = ?", [GM_ID]).fetchone():
        bootstrap.service(db, Context(new_id=lambda: GM_ID, password_method="pbkdf2:sha256:1000")).handle(
            {"type": "RegisterGM", "username": "bench", "password": "a bench password"})
    generation = logins.current_generation(db, GM_ID)
    db.close()
    client = app.test_client()
    with client.session_transaction() as session:  # what a login leaves in the cookie
        session.update(gm_id=GM_ID, session_id="bench-session", generation=generation)
    return client
