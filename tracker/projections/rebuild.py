"""Rebuild: every read model dropped and folded again from the log alone, as fast as it can go.

It runs the live ``Projector`` over the log, so its rows are the incremental build's, row for
row (a plain event, the most of any log, through ``Rebuilder._apply_plain``: the same rows by a
shorter path, which the tests comparing a rebuild with the incremental build hold to it), and
skips only what a rebuild never needs:

- each stream's read rows are written once, right after its last event (a first query finds
  where each stream ends), so no state is written twice nor read back, and memory holds only the
  streams still in flight;
- the log is read in large ordered batches, and the indexes no fold reads are built once, at the
  end, in one sort each (the log lines' stream index too, unless a correction's fold reads the
  lines first);
- a stream's fold reads nothing but its own events (the rules never read another stream), so on
  a machine with several cores the streams are dealt into parts of about equal size: the parent
  folds one part straight into the database, each other part is folded at the same time by its
  own process into a scratch database, and the parent then copies those rows in with
  ``INSERT … SELECT`` (inside SQLite) and adds their running totals to its own.

Parts run in Python processes started afresh (not forked): a child never inherits an open SQLite
connection. They read the log committed before the parent took the write lock, which the parent
holds to the end, so every process folds the same log; a rebuild called inside a transaction
that may hold uncommitted events (an import) folds in one process.
"""
from __future__ import annotations

import importlib
import os
import select
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from typing import Callable, Iterator

import orjson
import sqlite_utils

from tracker import rules
from tracker.dialect import is_pg
from tracker.forked import cores
from tracker.projections import schema
from tracker.events import from_data
from tracker.projections.engine import CACHED_STREAMS, LOG_BATCH, Projector, _subjects, _told, describe, write_stream
from tracker.projections.replay import CORRECTIONS, fold
from tracker.projections.words import stored
from tracker.rules.base import ImpossibleHistory
from tracker.rules.text import Words
from tracker.store import EventStore, Recorded, loads, write_transaction

READ_BATCH = 2000  # events a part reads per query
# The log lines' index by stream: only a correction's fold reads it (see ``Rebuilder.index_lines``).
LOG_STREAM_INDEX = "CREATE INDEX IF NOT EXISTS log_stream ON log_entries(stream, version)"
PARALLEL_FROM = 100_000  # below this, starting a process (~0.8 s of CPU to import) saves too little
MAX_PARTS = 8
# SQLite's page cache of each process of a rebuild in parts, in KiB (the default is 2 MiB): fewer
# pages spilled and written again; one process (an import, a small log) keeps the default.
CACHE = -16384
# Running totals: one row per key in every part that touched it, added up when parts merge.
TOTALS = {"records": "count", "track_totals": "lost"}  # table -> its total column
NOT_MERGED = ("checkpoints",)  # set once, from the whole log

Progress = Callable[[int], None]


class Rebuilder(Projector):
    """The live projector, writing each stream out as soon as its last event is folded."""

    def __init__(self, db, store: EventStore, last: dict[str, int]):
        super().__init__(db, store, rebuilding=True)
        self.last = last  # stream -> the position of its last event
        self.lines_indexed = False

    def apply(self, rec: Recorded) -> None:
        if rec.type in CORRECTIONS or self.left_out:
            self.index_lines()
            super().apply(rec)  # a retraction, a restore, or after an old retraction: the full path
        else:
            self._apply_plain(rec)
        if self.last.get(rec.stream) == rec.position:
            self.write_out(rec.stream)

    def _apply_plain(self, rec: Recorded) -> None:
        """``Projector.apply`` for an event that is no correction, in a log without an old
        retraction's leftovers so far: the same rows, with only what that case needs."""
        stream = rec.stream
        kind = stream.split("-", 1)[0]
        known = self.states.get(stream)
        before = known[1] if known is not None else self.state(stream)[1]
        ev = from_data(rec.type, rec.data, rec.schema)
        try:
            after = fold(kind, before, ev, rec.version)
        except ImpossibleHistory:
            self.index_lines()
            return super().apply(rec)  # nothing is changed yet: the full path leaves the command out
        told = _told(after, rec.version) if kind == "duel" else None
        # A line the fold told is a Text (whose truth would render it): taken as it is.
        summary = told if isinstance(told, Words) else (told or describe(kind, before, ev))
        self.states[stream] = (rec.version, after)
        self.dirty.add(stream)
        meta = rec.metadata
        if kind == "duel":
            self._keep(rec, ev)
        self.log_rows.append((rec.position, meta.get("campaign_id", ""), stream, rec.version, rec.type, kind,
                              stored(summary), meta.get("recorded_at", ""), meta.get("actor", ""), None))
        for subject in _subjects(stream, after):
            self.subject_rows.append((subject, rec.position))
        self.position = rec.position
        if len(self.log_rows) >= LOG_BATCH:
            self.flush_log()
        if len(self.states) > CACHED_STREAMS:
            self.flush()
            self.states.clear()
            self.duel_events.clear()

    def index_lines(self) -> None:
        """Index the log lines by stream before the first fold that reads or marks them (a
        retraction, a restore, a command left out): until then no line is read, so the index is
        left to be built at the end, in one sort, instead of kept up line by line."""
        if not self.lines_indexed:
            self.flush_log()
            self.db.execute(LOG_STREAM_INDEX)
            self.lines_indexed = True

    def write_out(self, stream: str) -> None:
        """Write a finished stream's read rows and forget its state (nothing reads it again)."""
        if stream in self.dirty:
            version, state = self.states[stream]
            write_stream(self.db, stream, version, state, stream not in self.written, self.duel_events.get(stream))
            self.written.add(stream)
            self.dirty.discard(stream)
        self.states.pop(stream, None)
        self.duel_events.pop(stream, None)


def rebuild(db, store: EventStore, progress: Progress | None = None, parts: int | None = None) -> int:
    """Drop every read model and fold the whole log again. Returns the events read; ``progress``
    is told how many events each batch held. ``parts``: how many processes fold (by default one
    per core, and one for a small log or inside a caller's transaction)."""
    outer = db.conn.in_transaction
    scratch, attached = None, []
    # The parts fold into SQLite scratch files beside a SQLite database; PostgreSQL folds in one.
    on_sqlite = not is_pg(db)
    cache = db.execute("PRAGMA cache_size").fetchone()[0] if on_sqlite else None
    try:
        with write_transaction(db):
            schema.drop(db)
            schema.create(db)
            schema.drop_late_indexes(db)
            db.execute("DROP INDEX IF EXISTS log_stream")  # built when a fold needs it, else at the end
            streams = db.execute("SELECT stream, COUNT(*), MAX(position) FROM events GROUP BY stream").fetchall()
            total = sum(count for _, count, _ in streams)
            last_position = max((last for _, _, last in streams), default=0)
            if outer or not on_sqlite or _path(db) is None or not sys.executable:
                parts = 1
            elif parts is None:
                parts = parts_for(total)
            dealt = _deal(streams, max(1, min(parts, MAX_PARTS)))
            if len(dealt) <= 1:
                _fold(db, store, {s: last for s, _, last in streams}, None, progress)
            else:
                db.execute(f"PRAGMA cache_size={CACHE}")
                # Beside the database: the disk that holds the read models has room for a part of them.
                scratch = tempfile.mkdtemp(prefix=".rebuild-", dir=os.path.dirname(os.path.abspath(_path(db))))
                _fold_in_parts(db, store, _path(db), dealt, (last_position, total), scratch, attached, progress)
            db.conn.executemany("INSERT OR REPLACE INTO checkpoints (projection, position) VALUES (?, ?)",
                                [(name, last_position) for name in ("streams", "log")] if last_position else [])
            schema.create(db)  # the late indexes, each built in one sort
    finally:
        if on_sqlite:
            db.execute(f"PRAGMA cache_size={cache}")
        for name in attached:  # SQLite detaches a database only outside a transaction
            db.conn.execute(f"DETACH DATABASE {name}")
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    return total


def _fold(db, store: EventStore, last: dict[str, int], part: str | None, progress: Progress | None) -> None:
    """Fold the events of the streams in ``last`` (all of them when ``part`` is None; else those
    in the temporary table ``part``) into ``db``'s read models."""
    projector = Rebuilder(db, store, last)
    for batch in _batches(db, part):
        for rec in batch:
            projector.apply(rec)
        if progress is not None:
            progress(len(batch))
    for stream in list(projector.dirty):
        projector.write_out(stream)
    projector.flush()


def _batches(db, part: str | None) -> Iterator[list[Recorded]]:
    """The events in log order, ``READ_BATCH`` at a time (of one part's streams, when named)."""
    sql = "SELECT position, stream, version, type, schema, data, metadata FROM events WHERE position > ?"
    if part:
        sql += f" AND +stream IN {part}"  # "+": by position, not by the stream index
    sql += " ORDER BY position LIMIT ?"
    position, meta_text, meta = 0, None, None
    while True:
        rows = db.conn.execute(sql, [position, READ_BATCH]).fetchall()
        if not rows:
            return
        batch = []
        for p, s, v, t, sc, data, metadata in rows:
            if metadata != meta_text:  # a command's events share their metadata: decoded once
                meta_text, meta = metadata, loads(metadata)
            batch.append(Recorded(p, s, v, t, sc, loads(data), meta))
        yield batch
        position = rows[-1][0]


def parts_for(events: int) -> int:
    """How many processes fold a log of this many events (outside a caller's transaction): one
    per core the process may run on, one for a small log."""
    return min(cores(), MAX_PARTS) if events >= PARALLEL_FROM else 1


def _path(db) -> str | None:
    """The database's file, when it has one other processes can open."""
    for _, name, file in db.execute("PRAGMA database_list").fetchall():
        if name == "main":
            return file or None
    return None


def _deal(streams: list[tuple[str, int, int]], parts: int) -> list[dict[str, int]]:
    """The streams dealt into ``parts`` of about equal event counts (the largest first, each to
    the lightest part): stream -> its last position, per part. Empty parts are dropped."""
    dealt: list[dict[str, int]] = [{} for _ in range(parts)]
    held = [0] * parts
    for stream, count, last in sorted(streams, key=lambda s: -s[1]):
        lightest = held.index(min(held))
        dealt[lightest][stream] = last
        held[lightest] += count
    return [part for part in dealt if part]


def _fold_in_parts(db, store: EventStore, path: str, dealt: list[dict[str, int]], expected: tuple[int, int],
                   scratch: str, attached: list[str], progress: Progress | None) -> None:
    """The parent folds the first part into ``db`` while one process per other part folds it into
    a scratch database in ``scratch``; then every scratch database's rows are copied in (each
    one's name added to ``attached``)."""
    children = [_Part(path, os.path.join(scratch, f"part{index}"), part, expected)
                for index, part in enumerate(dealt[1:])]

    def advance(steps: int, wait: bool = False) -> None:
        steps += sum(child.folded(wait) for child in children)
        if progress is not None and steps:
            progress(steps)

    try:
        _part_table(db, dealt[0])
        _fold(db, store, dealt[0], "temp.rebuild_part", advance)
        db.execute("DROP TABLE temp.rebuild_part")
        advance(0, wait=True)
        for child in children:
            child.finish()
    finally:
        for child in children:
            child.stop()
    for index, child in enumerate(children):
        attached.append(f"part{index}")
        db.conn.execute(f"ATTACH DATABASE ? AS part{index}", [child.target])
    _merge(db, attached)


class _Part:
    """A fresh Python process folding one part (not a fork: it must not inherit open connections),
    which prints a running count of the events it folded after each batch."""

    def __init__(self, source: str, base: str, part: dict[str, int], expected: tuple[int, int]):
        self.target, self.errors = base + ".db", base + ".err"
        with open(base + ".json", "wb") as out:
            out.write(orjson.dumps({"source": source, "target": self.target, "part": part, "expected": expected,
                                     "rulesets": [module.__name__ for module in rules.RULESETS.values()]}))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        with open(self.errors, "wb") as err:  # a file, not a pipe: no amount of warnings can block it
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from tracker.projections.rebuild import main; main()", base + ".json"],
                stdout=subprocess.PIPE, stderr=err, env=env)
        os.set_blocking(self.process.stdout.fileno(), False)
        self.told, self.unread = 0, b""

    def folded(self, wait: bool = False) -> int:
        """How many more events it has folded since last asked. ``wait``: read to its end."""
        latest = self.told
        while True:
            try:
                chunk = os.read(self.process.stdout.fileno(), 65536)
            except BlockingIOError:
                if not wait:
                    break
                select.select([self.process.stdout], [], [])
                continue
            if not chunk:
                break
            lines = (self.unread + chunk).split(b"\n")
            self.unread = lines.pop()  # a count cut short, until the rest of it comes
            if lines:
                latest = int(lines[-1])
        done, self.told = latest - self.told, latest
        return done

    def finish(self) -> None:
        if self.process.wait() != 0:
            with open(self.errors, encoding="utf-8", errors="replace") as err:
                raise RuntimeError(f"a part of the rebuild failed: {err.read()[-2000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()


def main() -> None:
    """A child process: fold the part its arguments file names (see ``fold_part``)."""
    with open(sys.argv[1], "rb") as given:
        args = orjson.loads(given.read())
    for name in args["rulesets"]:  # the parent's, including any registered after the shipped ones
        module = importlib.import_module(name)
        if getattr(module, "NAME", None) not in rules.RULESETS:
            rules.register(module)
    folded = [0]

    def advance(steps: int) -> None:
        folded[0] += steps
        os.write(1, f"{folded[0]}\n".encode())

    fold_part(args["source"], args["target"], args["part"], tuple(args["expected"]), advance)


def fold_part(source: str, target: str, part: dict[str, int], expected: tuple[int, int],
              progress: Progress | None = None) -> None:
    """Fold the events of ``part``'s streams, read from the log at ``source``, into the read
    models of a new scratch database at ``target``."""
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("PRAGMA journal_mode=OFF")  # a scratch file: a failure throws it away whole
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute(f"PRAGMA cache_size={CACHE}")
    db = sqlite_utils.Database(conn)
    schema.create(db)
    schema.drop_late_indexes(db)
    db.execute("DROP INDEX IF EXISTS log_stream")  # built when a fold needs it (a correction)
    conn.execute("ATTACH DATABASE ? AS log", [source])  # ``events`` is read from the log
    conn.execute("BEGIN")
    seen = conn.execute("SELECT COALESCE(MAX(position), 0), COUNT(*) FROM log.events").fetchone()
    if tuple(seen) != tuple(expected):
        raise RuntimeError(f"the log changed under the rebuild: {tuple(seen)} events, not {tuple(expected)}")
    _part_table(db, part)
    _fold(db, EventStore(db), part, "temp.rebuild_part", progress)
    conn.execute("COMMIT")
    conn.close()


def _part_table(db, part: dict[str, int]) -> None:
    db.execute("CREATE TEMP TABLE rebuild_part (stream TEXT PRIMARY KEY) WITHOUT ROWID")
    db.conn.executemany("INSERT INTO temp.rebuild_part VALUES (?)", [(s,) for s in part])


def _merge(db, names: list[str]) -> None:
    """Copy every attached part's rows into the read models: plain rows as they are (their keys
    are their own streams'), running totals added to the parent's, a total back at zero no row."""
    for table in schema.TABLES:
        if table in NOT_MERGED:
            continue
        for name in names:
            if table in TOTALS:
                column = TOTALS[table]
                db.execute(f"INSERT INTO main.{table} SELECT * FROM {name}.{table} WHERE true"
                           f" ON CONFLICT DO UPDATE SET {column} = {column} + excluded.{column}")
            else:
                db.execute(f"INSERT INTO main.{table} SELECT * FROM {name}.{table}")
        if table in TOTALS:
            db.execute(f"DELETE FROM main.{table} WHERE {TOTALS[table]} = 0")
