"""The event store: an append-only log in SQLite, read through sqlite-utils.

One table, ``events``. Each row has a global ``position``, the ``stream`` it belongs to
(``campaign-…``, ``character-…``, ``session-…``, ``duel-…``), its ``version`` in that
stream (``UNIQUE(stream, version)``), its type and schema, its JSON data and metadata.
Appends name the stream version they expect, so a stale writer gets a ``Conflict``
instead of silently interleaving; a command id makes a retried command append once.
Rows are never updated or deleted: a mistake is corrected by appending a retraction.

A command id belongs to whoever sent it: ``commands`` indexes each (principal, command id) with
the fingerprint of the command it named and the events it appended, so the same id from someone
else is a different command, and the same id for a different command can be told apart. The
index is kept in the append's transaction and can be derived again from the events' metadata.
"""
from __future__ import annotations

import contextlib
import sqlite3
from typing import Any, Iterable, Iterator, NamedTuple

import orjson
import sqlite_utils

from tracker.eventstore import dialect
from tracker.domain.events import EVENT_TYPES, from_data, to_data, type_name
from tracker.rules.text import Joined, Text, revive

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY,
    stream TEXT NOT NULL,
    version INTEGER NOT NULL,
    type TEXT NOT NULL,
    schema INTEGER NOT NULL DEFAULT 1,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    command_id TEXT,
    UNIQUE (stream, version)
);
CREATE INDEX IF NOT EXISTS events_command_id ON events(command_id) WHERE command_id IS NOT NULL;
CREATE TRIGGER IF NOT EXISTS events_are_immutable BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are immutable: append a retraction instead'); END;
CREATE TRIGGER IF NOT EXISTS events_are_never_deleted BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are never deleted: append a retraction instead'); END;
CREATE TABLE IF NOT EXISTS commands (
    principal TEXT NOT NULL,
    command_id TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    stream TEXT NOT NULL,
    first_position INTEGER,
    last_position INTEGER,
    PRIMARY KEY (principal, command_id)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS commands_are_immutable BEFORE UPDATE ON commands
BEGIN SELECT RAISE(ABORT, 'a command id, once used, names its command for good'); END;
CREATE TRIGGER IF NOT EXISTS commands_are_never_deleted BEFORE DELETE ON commands
BEGIN SELECT RAISE(ABORT, 'a command id, once used, names its command for good'); END;
"""

# A stale version takes no row (UNIQUE(stream, version)) instead of failing the transaction, which
# PostgreSQL could not go on with; the position comes back from the insert on both databases.
INSERT_EVENT = ("INSERT INTO events (stream, version, type, schema, data, metadata, command_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING position")
STORE_VERSION = 1  # PRAGMA user_version once ``upgrade`` has run: 1 = command ids scoped by principal
CHECKPOINT_PAGES = 10_000  # about 40 MB of WAL between checkpoints
LEGACY = "legacy:"  # the fingerprint of a command appended before fingerprints: its type alone



class Conflict(Exception):
    """The stream moved on since the writer read it."""

    def __init__(self, stream: str, expected: int, actual: int):
        super().__init__(f"{stream} is at version {actual}, not {expected}")
        self.stream, self.expected, self.actual = stream, expected, actual


class Recorded(NamedTuple):
    """An event as stored: where it sits in the log, and the fact itself (a named tuple: a
    rebuild makes one per event, and a tuple is four times quicker to make than a dataclass)."""

    position: int
    stream: str
    version: int
    type: str
    schema: int
    data: dict
    metadata: dict

    @property
    def event(self) -> Any:
        """The typed event, upcast to the current schema."""
        return from_data(self.type, self.data, self.schema)

    @property
    def campaign_id(self) -> str:
        return self.metadata.get("campaign_id", "")


def connect(path: str) -> sqlite_utils.Database:
    """Open the database with the settings the store relies on (WAL, a busy wait); a
    ``postgresql://`` URL opens PostgreSQL instead (tracker/eventstore/dialect.py)."""
    if dialect.is_postgres(path):
        return dialect.connect(path)
    # A "file:" URI opens the database with options, e.g. "file:tracker.db?mode=ro" read-only.
    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None, uri=path.startswith("file:"))
    db = sqlite_utils.Database(conn)
    if path != ":memory:":
        conn.execute("PRAGMA journal_mode=WAL")
    # WAL with synchronous=NORMAL: a commit is written to the WAL but not flushed to the disk, so
    # an application crash loses nothing acknowledged, and a power cut may lose the last
    # transactions (never the database's integrity). See docs/architecture.md, § Durability.
    conn.execute("PRAGMA synchronous=NORMAL")
    # The WAL is copied back into the database (with the only fsync WAL at NORMAL does) every
    # CHECKPOINT_PAGES pages instead of SQLite's 1,000: a command writes a dozen pages (the event
    # and its read models), so at 1,000 every 80th command paid for a checkpoint.
    conn.execute(f"PRAGMA wal_autocheckpoint={CHECKPOINT_PAGES}")
    conn.execute("PRAGMA busy_timeout=10000")
    conn.execute("PRAGMA foreign_keys=ON")
    return db


def create(db: sqlite_utils.Database) -> None:
    if dialect.is_pg(db):
        return dialect.create_store(db)  # a new kind of store: nothing older to upgrade
    db.conn.executescript(SCHEMA)
    if db.execute("PRAGMA user_version").fetchone()[0] < STORE_VERSION:
        upgrade(db)


def upgrade(db: sqlite_utils.Database) -> None:
    """Bring a log written by an older Touché up to date: index the command ids it already holds.

    Older rows name their sender only as metadata ``actor`` (empty for the command line, and for
    an anonymous sign-up, which is filed under the command line so no visitor can replay it)."""
    with write_transaction(db):
        if db.execute("PRAGMA user_version").fetchone()[0] >= STORE_VERSION:
            return  # another process upgraded it while this one waited for the lock
        rows = db.execute(
            "SELECT command_id, stream, MIN(position), MAX(position), metadata FROM events"
            " WHERE command_id IS NOT NULL GROUP BY command_id, stream ORDER BY MIN(position)").fetchall()
        for command_id, stream, first, last, metadata in rows:
            meta = loads(metadata)
            principal = meta.get("principal") or (f"gm:{meta['actor']}" if meta.get("actor") else "command line")
            fingerprint = meta.get("fingerprint") or LEGACY + str(meta.get("command") or "")
            db.execute("INSERT OR IGNORE INTO commands VALUES (?, ?, ?, ?, ?, ?)",
                       [principal, command_id, fingerprint, stream, first, last])
        db.execute(f"PRAGMA user_version = {STORE_VERSION}")


@contextlib.contextmanager
def write_transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One writer at a time: BEGIN IMMEDIATE takes the write lock before anything is read,
    so a version check and the append that follows it cannot be split by another writer
    (on PostgreSQL, an advisory lock taken first does the same)."""
    if dialect.is_pg(db):
        with db.write_transaction():
            yield db
        return
    if db.conn.in_transaction:
        with db.atomic():
            yield db
        return
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.rollback()
        raise
    db.conn.execute("COMMIT")


def dumps(value: Any) -> str:
    """JSON text; a Text in ``value`` (a folded state's history line) is kept as its data."""
    return orjson.dumps(value, default=_as_data, option=orjson.OPT_SORT_KEYS).decode()


def _as_data(value: Any) -> Any:
    # One level at a time: orjson comes back here for a Text inside the values, so a state's
    # history is not copied whole into plain dicts first (``Text.as_data``'s JSON, found faster).
    if type(value) is Text:
        if value.plural is None:
            return {"msgid": value.msgid, "args": value.args}
        return {"msgid": value.msgid, "args": value.args, "plural": value.plural, "count": value.count}
    if type(value) is Joined:
        return {"joined": value.parts, "separator": value.separator}
    if isinstance(value, (Text, Joined)):
        return value.as_data()
    if isinstance(value, tuple):  # a named tuple: a list, as ``as_data`` makes it
        return list(value)
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def loads(data: str | bytes) -> Any:
    return orjson.loads(data)


def load_state(data: str | bytes) -> Any:
    """A folded state read back from a read model, its Texts Texts again. A Text is kept as an
    object with a "msgid" (a Joined, with "joined"): a state whose JSON names neither, as a
    character's sheet mostly, has none, and is not walked for them."""
    value = orjson.loads(data)
    marks = (b'"msgid"', b'"joined"') if isinstance(data, bytes) else ('"msgid"', '"joined"')
    return revive(value) if marks[0] in data or marks[1] in data else value


def insert_rows(db: sqlite_utils.Database, rows: list[tuple]) -> None:
    """Insert whole rows (position, stream, version, type, schema, data, metadata, command_id) at
    once: an import's lines, checked, with the positions they had."""
    if rows:
        db.conn.executemany("INSERT INTO events (position, stream, version, type, schema, data, metadata,"
                            " command_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        if dialect.is_pg(db):
            dialect.sync_positions(db)


class EventStore:
    """Append to and read from the log. Appends must run inside ``write_transaction``."""

    def __init__(self, db: sqlite_utils.Database):
        self.db = db

    def version(self, stream: str) -> int:
        row = self.db.execute("SELECT MAX(version) FROM events WHERE stream = ?", [stream]).fetchone()
        return row[0] or 0

    def earlier_command(self, principal: str, command_id: str) -> tuple[str, str, list[Recorded]] | None:
        """The fingerprint of the command this principal sent under this id, its stream and the
        events it appended; None if the principal never used the id."""
        row = self.db.execute(
            "SELECT fingerprint, stream, first_position, last_position FROM commands"
            " WHERE principal = ? AND command_id = ?", [principal, command_id]).fetchone()
        if row is None:
            return None
        fingerprint, stream, first, last = row
        events = self.db.execute("SELECT * FROM events WHERE stream = ? AND position BETWEEN ? AND ?"
                                 " ORDER BY position", [stream, first or 0, last or 0]).fetchall()
        return fingerprint, stream, [_recorded(r) for r in events]

    def remember_command(self, principal: str, command_id: str, fingerprint: str, stream: str,
                         recorded: list[Recorded]) -> None:
        """Index a command that just appended, in the same transaction as its events."""
        first, last = (recorded[0].position, recorded[-1].position) if recorded else (None, None)
        self.db.execute("INSERT INTO commands VALUES (?, ?, ?, ?, ?, ?)",
                        [principal, command_id, fingerprint, stream, first, last])

    def append(self, stream: str, expected_version: int, events: Iterable[Any],
               metadata: dict, command_id: str | None = None, checked: bool = False) -> list[Recorded]:
        """Append events to a stream at the expected version; raise Conflict if it moved.

        ``checked`` says the caller read the version already, or lets the insert check it:
        UNIQUE(stream, version) refuses a stale append either way (a Conflict, the row not taken)."""
        actual = expected_version if checked else self.version(stream)
        if actual != expected_version:
            raise Conflict(stream, expected_version, actual)
        meta = dumps(metadata)
        rows, data = [], []
        for offset, ev in enumerate(events, start=1):
            name = type_name(ev)
            text = dumps(to_data(ev))
            rows.append((stream, expected_version + offset, name, EVENT_TYPES[name].SCHEMA, text, meta, command_id))
            data.append(loads(text))  # the stored shape (lists, not the event's tuples), read back as any reader would
        return self.append_rows(rows, data, loads(meta))

    def append_rows(self, rows: list[tuple], data: list[dict] | None = None,
                    metadata: dict | None = None) -> list[Recorded]:
        """Insert prepared rows (stream, version, type, schema, data, metadata, command_id).
        ``data`` and ``metadata``, when given, are the rows' JSON already decoded (one metadata for
        all, as one command appends them), so nothing is decoded twice."""
        recorded = []
        for index, row in enumerate(rows):
            taken = self.db.conn.execute(INSERT_EVENT, row).fetchone()
            if taken is None:
                stream = rows[0][0]
                raise Conflict(stream, rows[0][1] - 1, self.version(stream))
            recorded.append(Recorded(taken[0], row[0], row[1], row[2], row[3],
                                     data[index] if data else loads(row[4]),
                                     metadata if metadata is not None else loads(row[5])))
        return recorded

    def read_stream(self, stream: str, up_to_version: int | None = None) -> list[Recorded]:
        sql = "SELECT * FROM events WHERE stream = ?"
        params: list[Any] = [stream]
        if up_to_version is not None:
            sql += " AND version <= ?"
            params.append(up_to_version)
        rows = self.db.execute(sql + " ORDER BY version", params).fetchall()
        return [_recorded(r) for r in rows]

    def read_all(self, after: int = 0, batch: int = 1000) -> Iterator[Recorded]:
        """Every event after a position, in log order, streamed in batches (never all at once)."""
        for rows in self.read_batches(after, batch):
            yield from rows

    def read_batches(self, after: int = 0, batch: int = 1000) -> Iterator[list[Recorded]]:
        """Every event after a position, in log order, as lists of ``batch`` events: one query
        per batch, by the primary key, so reading the millionth event costs what the first did."""
        position = after
        while True:
            rows = self.db.conn.execute(
                "SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?", [position, batch]).fetchall()
            if not rows:
                return
            yield [Recorded(p, s, v, t, schema, loads(data), loads(meta))
                   for p, s, v, t, schema, data, meta, _command_id in rows]
            position = rows[-1][0]

    def get(self, position: int) -> Recorded | None:
        row = self.db.execute("SELECT * FROM events WHERE position = ?", [position]).fetchone()
        return _recorded(row) if row else None

    def last_position(self) -> int:
        return self.db.execute("SELECT COALESCE(MAX(position), 0) FROM events").fetchone()[0]


def database_identity(db) -> str:
    """Which database this is (its file, or its server and name), for a cache that several share."""
    if dialect.is_pg(db):
        return dialect.identity(db)
    return db.execute("PRAGMA database_list").fetchone()[2]  # the main database comes first


def _recorded(row: tuple) -> Recorded:
    position, stream, version, type_, schema, data, metadata, _command_id = row
    return Recorded(position, stream, version, type_, schema, loads(data), loads(metadata))
