"""The database handle for a request: opened on first use, kept on ``g``, closed at teardown."""
from __future__ import annotations

import hashlib
import os
import sqlite3
import threading

import click
from flask.cli import with_appcontext
from flask import Flask, current_app, g

from tracker.eventstore import dialect, store
from tracker.projections import history, schema

# What the tables look like in this version: a PostgreSQL database already at it is left alone.
SCHEMA_FINGERPRINT = hashlib.sha256(
    (dialect.STORE_SCHEMA + schema.READ_MODELS + history.DDL).encode()).hexdigest()


def open_db(path: str):
    """Open the database file (or PostgreSQL URL) and make sure the log and the read models exist."""
    if dialect.is_postgres(path):
        db = store.connect(path)
        _create_pg(db)
        return db
    new_file = path != ":memory:" and not path.startswith("file:") and not os.path.exists(path)
    if new_file:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        # Readable by its owner only (it holds password hashes); SQLite gives its -wal and -shm
        # files the database file's mode. SQLite creates the empty file (and its close keeps the
        # locks of this process's other connections), then the mode is changed by path, before
        # anything is written. Never os.open/os.close it here: POSIX record locks belong to the
        # process, so closing any descriptor of the file drops the locks of every live
        # connection, and the next connection to close anywhere deletes the WAL and every write
        # logged in it.
        sqlite3.connect(path).close()
        os.chmod(path, 0o600)
    db = store.connect(path)
    store.create(db)
    schema.create(db)
    return db


def _create_pg(db) -> None:
    dialect.ensure_schema(db, lambda: (store.create(db), schema.create(db)), SCHEMA_FINGERPRINT)


# A served app keeps one connection per server thread: opening one costs milliseconds, and closing
# the last one checkpoints the WAL with an fsync, which at the table's pace was every request.
_kept = threading.local()


def get_db():
    if "db" not in g:
        path = current_app.config["DATABASE"]
        if dialect.is_postgres(path):
            # A pool per process; its connections are lent for a request and given back after.
            g.db = dialect.pooled(path, on_first=_create_pg, size=int(current_app.config.get("PG_POOL_SIZE", 20)))
        elif current_app.testing:
            g.db = open_db(path)
        else:
            kept = _kept.__dict__.setdefault("dbs", {})
            g.db = kept[path] = kept.get(path) or open_db(path)
        g.db.conn.execute(f"PRAGMA busy_timeout={int(current_app.config.get('BUSY_TIMEOUT_MS', 10000))}")
    return g.db


def close_db(_error=None) -> None:
    db = g.pop("db", None)
    if db is None:
        return
    if current_app.testing or dialect.is_pg(db):
        db.close()  # PostgreSQL: back to the pool
    elif db.conn.in_transaction:
        db.conn.rollback()


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the event log and the read models (keeps existing data)."""
    open_db(current_app.config["DATABASE"]).close()
    click.echo(f"Initialised {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)
