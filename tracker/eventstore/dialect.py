"""The one place where PostgreSQL differs from SQLite: a database handle with sqlite-utils' face.

Touché's SQL is written once, for SQLite, as the rest of the code reads it. When ``FLASK_DATABASE``
is a ``postgresql://`` URL, the handle below runs that SQL on PostgreSQL (psycopg 3), translating
the few words the two say differently:

- ``?`` placeholders become ``%s``;
- ``INSERT OR IGNORE`` becomes ``ON CONFLICT DO NOTHING``, ``INSERT OR REPLACE`` an upsert on the
  table's primary key that also moves the row to the end, as SQLite's delete-and-insert does;
- a read model's implicit SQLite ``rowid`` (which some reads order by) is an explicit column,
  never returned by ``SELECT *``;
- ``CREATE TABLE``: ``INTEGER`` is ``BIGINT``, ``WITHOUT ROWID`` means nothing;
- ``PRAGMA busy_timeout`` is the ``lock_timeout`` a write waits for the append lock;
- ``SUM`` of integers comes back an ``int``, and a ``bool`` goes in as 0 or 1, as on SQLite.

Writes are serialised by a transaction-level advisory lock (``write_transaction``), as SQLite's
``BEGIN IMMEDIATE`` serialises them: a version check cannot be split from its append, and a
position is taken only by the one transaction allowed to commit next, so a reader following the
log by position ("what changed since N") never meets a smaller position committing after a larger
one. See docs/scaling.md.
"""
from __future__ import annotations

import contextlib
import functools
import re
import threading
from decimal import Decimal
from typing import Any, Iterator

APPEND_LOCK = 7_341_626_173  # the advisory lock key every write transaction takes ("touche")
SCHEMA_LOCK = APPEND_LOCK + 1
SERIALISE_APPENDS = True  # the remedy; a test turns it off to show what it prevents

STORE_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    position BIGSERIAL PRIMARY KEY,
    stream TEXT NOT NULL,
    version BIGINT NOT NULL,
    type TEXT NOT NULL,
    schema BIGINT NOT NULL DEFAULT 1,
    data TEXT NOT NULL,
    metadata TEXT NOT NULL,
    command_id TEXT,
    UNIQUE (stream, version)
);
CREATE INDEX IF NOT EXISTS events_command_id ON events(command_id) WHERE command_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS commands (
    principal TEXT NOT NULL,
    command_id TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    stream TEXT NOT NULL,
    first_position BIGINT,
    last_position BIGINT,
    PRIMARY KEY (principal, command_id)
);
CREATE OR REPLACE FUNCTION touche_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION USING ERRCODE = 'integrity_constraint_violation', MESSAGE = TG_ARGV[0]; END $$;
CREATE OR REPLACE TRIGGER events_are_immutable BEFORE UPDATE ON events
FOR EACH STATEMENT EXECUTE FUNCTION touche_refuse('events are immutable: append a retraction instead');
CREATE OR REPLACE TRIGGER events_are_never_deleted BEFORE DELETE OR TRUNCATE ON events
FOR EACH STATEMENT EXECUTE FUNCTION touche_refuse('events are never deleted: append a retraction instead');
CREATE OR REPLACE TRIGGER commands_are_immutable BEFORE UPDATE OR DELETE OR TRUNCATE ON commands
FOR EACH STATEMENT EXECUTE FUNCTION touche_refuse('a command id, once used, names its command for good');
CREATE TABLE IF NOT EXISTS schema_fingerprint (fingerprint TEXT NOT NULL)
"""


def is_postgres(path: str) -> bool:
    return path.startswith(("postgresql://", "postgres://"))


def is_pg(db) -> bool:
    return isinstance(db, PgDatabase)


# --- translating SQLite's SQL ------------------------------------------------------------------

_INSERT_OR = re.compile(r"^\s*INSERT OR (REPLACE|IGNORE) INTO (\w+)\s*\(([^)]*)\)(.*)$", re.S)
_CONFLICT_NO_TARGET = re.compile(r"ON CONFLICT DO UPDATE")
_INSERT_INTO = re.compile(r"INSERT INTO (\w+)")
_CREATE_TABLE = re.compile(r"^\s*CREATE TABLE IF NOT EXISTS (\w+)\s*\((.*)\)\s*(WITHOUT ROWID)?\s*$", re.S)
_BUSY = re.compile(r"^\s*PRAGMA busy_timeout\s*=\s*(\d+)\s*$")
_KEYS: dict[str, tuple[tuple[str, ...], bool]] = {}  # table -> (primary key columns, has a rowid)


def _create_table(match: re.Match) -> str:
    name, body, without_rowid = match.groups()
    body = re.sub(r"\bINTEGER\b", "BIGINT", body)
    # SQLite gives every table but an INTEGER PRIMARY KEY or WITHOUT ROWID one a rowid; reads
    # that order by it (the order rows were written) need it here too.
    if not without_rowid and "BIGINT PRIMARY KEY" not in body:
        body = body.rstrip() + ", rowid BIGSERIAL"
    return f"CREATE TABLE IF NOT EXISTS {name} ({body})"


class PgDatabase:
    """A PostgreSQL connection with the part of ``sqlite_utils.Database`` (and of its sqlite3
    connection, as ``.conn``) that Touché uses. Autocommit outside ``write_transaction``."""

    dialect = "postgresql"

    def __init__(self, url: str, connection, pool=None):
        self.url, self.connection, self.pool = url, connection, pool
        self.conn = self  # sqlite-utils code reaches the sqlite3 connection as db.conn

    # --- sqlite-utils' and sqlite3's face ---
    def execute(self, sql: str, params=()):
        cursor = self.connection.cursor(row_factory=_rows(False))
        translated = self.translate(sql)
        if translated is None:
            return cursor
        return cursor.execute(translated, list(params or ()))

    def executemany(self, sql: str, rows):
        rows = list(rows)
        cursor = self.connection.cursor(row_factory=_rows(False))
        if rows:
            cursor.executemany(self.translate(sql), rows)
        return cursor

    def query(self, sql: str, params=()) -> Iterator[dict]:
        cursor = self.connection.cursor(row_factory=_rows(True))
        yield from cursor.execute(self.translate(sql), list(params or ()))

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return self.connection.info.transaction_status != TransactionStatus.IDLE

    def rollback(self) -> None:
        self.connection.rollback()

    def commit(self) -> None:
        self.connection.commit()

    def close(self) -> None:
        if self.pool is None:
            self.connection.close()
            return
        broken = self.connection.broken or self.connection.closed
        if not broken and self.in_transaction:
            self.connection.rollback()
        self.pool.putconn(self.connection)  # a broken one is thrown away
        if broken:  # the server went away (a restart, a failover): its idle siblings most likely too
            self.pool.check()

    # --- transactions ---
    @contextlib.contextmanager
    def write_transaction(self):
        """One writer at a time (the append lock), or a savepoint inside a transaction.

        In psycopg's pipeline mode: a statement is sent without waiting for its answer, and the
        client waits only when it reads a result (a fetch) and at the commit. BEGIN and the lock go
        out with the first read; the read models' writes, which nobody reads back, with the COMMIT:
        a command is a round trip per read it makes, not one per statement. An error is raised
        where its statement's answer is read, at the latest at the commit, still inside the block.
        (BEGIN and COMMIT are sent as statements: psycopg's own transaction block syncs the
        pipeline at its start and its end, three round trips more.)"""
        connection = self.connection
        if self._nested or self.in_transaction:  # inside a transaction already: a savepoint
            with connection.transaction():
                if SERIALISE_APPENDS and not self._nested:
                    connection.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
                self._nested += 1
                try:
                    yield self
                finally:
                    self._nested -= 1
            return
        try:
            with connection.pipeline():
                connection.execute("BEGIN")
                if SERIALISE_APPENDS:
                    connection.execute("SELECT pg_advisory_xact_lock(%s)", [APPEND_LOCK])
                self._nested += 1
                try:
                    yield self
                finally:
                    self._nested -= 1
                connection.execute("COMMIT")
        except BaseException:
            if not connection.closed and not connection.broken and self.in_transaction:
                try:
                    connection.rollback()
                except Exception:  # the server went away meanwhile: what the block raised is the news
                    pass
            raise

    _nested = 0

    # --- translation ---
    def translate(self, sql: str) -> str | None:
        busy = _BUSY.match(sql)
        if busy:  # set once per connection (a pooled one keeps it), not a round trip per request
            if getattr(self.connection, "touche_lock_timeout", None) != busy.group(1):
                self.connection.execute(f"SET lock_timeout = {int(busy.group(1))}")
                self.connection.touche_lock_timeout = busy.group(1)
            return None
        return _translate(sql, self._keys)

    def _keys(self, table: str) -> tuple[tuple[str, ...], bool]:
        if table not in _KEYS:
            columns = [r[0] for r in self.connection.execute(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
                " AND a.attnum = ANY(i.indkey::int2[]) WHERE i.indrelid = %s::regclass AND i.indisprimary"
                " ORDER BY array_position(i.indkey::int2[], a.attnum)", [table]).fetchall()]
            rowid = self.connection.execute("SELECT 1 FROM pg_attribute WHERE attrelid = %s::regclass"
                                            " AND attname = 'rowid'", [table]).fetchone() is not None
            _KEYS[table] = (tuple(columns), rowid)
        return _KEYS[table]


@functools.lru_cache(maxsize=2048)
def _translate_cached(sql: str, keys_items: tuple) -> str:
    return _translate_plain(sql, dict(keys_items))


def _translate(sql: str, keys) -> str:
    table = None
    match = _INSERT_OR.match(sql)
    if match:
        table = match.group(2)
    elif _CONFLICT_NO_TARGET.search(sql):
        table = _INSERT_INTO.search(sql).group(1)
    known = ((table, keys(table)),) if table else ()
    return _translate_cached(sql, known)


def _translate_plain(sql: str, keys: dict) -> str:
    create = _CREATE_TABLE.match(sql)
    if create:
        return _create_table(create)
    if sql.lstrip().upper().startswith("PRAGMA"):
        # Only a SQLite-only path sends one (each checks the backend first): a bug, said plainly.
        raise ValueError(f"a PRAGMA has no PostgreSQL form: {sql.strip()!r}")
    match = _INSERT_OR.match(sql)
    if match:
        verb, table, columns, rest = match.groups()
        sql = f"INSERT INTO {table} ({columns}){rest}"
        if verb == "IGNORE":
            sql += " ON CONFLICT DO NOTHING"
        else:
            key, rowid = keys[table]
            names = [c.strip() for c in columns.split(",")]
            sets = [f"{c} = EXCLUDED.{c}" for c in names if c not in key] + (["rowid = DEFAULT"] if rowid else [])
            sql += f" ON CONFLICT ({', '.join(key)}) DO " + (f"UPDATE SET {', '.join(sets)}" if sets else "NOTHING")
    elif _CONFLICT_NO_TARGET.search(sql):
        table = _INSERT_INTO.search(sql).group(1)
        sql = sql.replace("ON CONFLICT DO UPDATE", f"ON CONFLICT ({', '.join(keys[table][0])}) DO UPDATE")
    return sql.replace("%", "%%").replace("?", "%s")


def _rows(as_dict: bool):
    """Rows as sqlite3 gives them (tuples) or sqlite-utils (dicts), without the rowid column."""

    def factory(cursor):
        description = cursor.description
        if description is None:
            return tuple
        names = [d.name for d in description]
        keep = [i for i, name in enumerate(names) if name != "rowid"]
        if as_dict:
            pairs = [(names[i], i) for i in keep]
            return lambda values: {name: values[i] for name, i in pairs}
        if len(keep) == len(names):
            return tuple
        return lambda values: tuple(values[i] for i in keep)

    return factory


# --- connecting ----------------------------------------------------------------------------------

def _configure(connection) -> None:
    from psycopg.adapt import Dumper, Loader

    class WholeNumbers(Loader):  # SUM(bigint) is numeric in PostgreSQL, an integer in SQLite
        def load(self, data):
            value = Decimal(bytes(data).decode())
            return int(value) if value == value.to_integral_value() else float(value)

    class BoolAsInt(Dumper):  # SQLite stores a bool as 0 or 1; the schema's flags are integers
        oid = 20  # int8

        def dump(self, obj):
            return b"1" if obj else b"0"

    connection.adapters.register_loader("numeric", WholeNumbers)
    connection.adapters.register_dumper(bool, BoolAsInt)


def connect(url: str) -> PgDatabase:
    """A connection of its own (the command line, a test, an import beside the request)."""
    import psycopg

    connection = psycopg.connect(url, autocommit=True)
    _configure(connection)
    return PgDatabase(url, connection)


_POOLS: dict[str, Any] = {}
_POOLS_LOCK = threading.Lock()


def pooled(url: str, on_first=None, size: int = 20) -> PgDatabase:
    """A connection from the process's pool for this database (returned by ``close``);
    ``on_first`` runs on the pool's first connection (the schema's creation)."""
    with _POOLS_LOCK:
        pool = _POOLS.get(url)
        if pool is None:
            from psycopg_pool import ConnectionPool

            pool = ConnectionPool(url, min_size=min(4, size), max_size=size, kwargs={"autocommit": True},
                                  configure=_configure, open=True)
            if on_first is not None:
                first = PgDatabase(url, pool.getconn(), pool)
                try:
                    on_first(first)
                finally:
                    first.close()
            _POOLS[url] = pool
    return PgDatabase(url, pool.getconn(), pool)


def close_pool(url: str) -> None:
    with _POOLS_LOCK:
        pool = _POOLS.pop(url, None)
    if pool is not None:
        pool.close()


def ensure_schema(db: PgDatabase, create, fingerprint: str) -> None:
    """Create the tables once per schema: DDL takes locks that writers would queue behind, so a
    database already at this fingerprint is left alone."""
    current = db.connection.execute(
        "SELECT fingerprint FROM schema_fingerprint" if _exists(db, "schema_fingerprint") else "SELECT NULL").fetchone()
    if current and current[0] == fingerprint:
        return
    with db.connection.transaction():
        db.connection.execute("SELECT pg_advisory_xact_lock(%s)", [SCHEMA_LOCK])
        if _exists(db, "schema_fingerprint") and db.connection.execute(
                "SELECT 1 FROM schema_fingerprint WHERE fingerprint = %s", [fingerprint]).fetchone():
            return  # another process created it while this one waited
        create()
        db.connection.execute("DELETE FROM schema_fingerprint")
        db.connection.execute("INSERT INTO schema_fingerprint VALUES (%s)", [fingerprint])


def _exists(db: PgDatabase, table: str) -> bool:
    return db.connection.execute("SELECT to_regclass(%s)", [table]).fetchone()[0] is not None


def create_store(db: PgDatabase) -> None:
    for statement in STORE_SCHEMA.split(";\n"):
        if statement.strip():
            db.connection.execute(statement)


def sync_positions(db: PgDatabase) -> None:
    """After rows were inserted with their positions (an import), new appends continue after them.
    Run after every batch: whether the log holds a row is asked with EXISTS, never a COUNT of
    the whole table (an import of a million events would count it two thousand times)."""
    db.connection.execute("SELECT setval(pg_get_serial_sequence('events', 'position'),"
                          " GREATEST((SELECT MAX(position) FROM events), 1), EXISTS (SELECT 1 FROM events))")


def identity(db: PgDatabase) -> str:
    """Which database this is, for a cache shared by several (never the password)."""
    info = db.connection.info
    return f"postgresql://{info.host}:{info.port}/{info.dbname}"
