"""Rebuild: every read model dropped and folded again from the log alone, as fast as it can go.

It runs the live ``Projector`` over the log (its very ``apply``), so its rows are the incremental
build's, row for row, and skips only what a rebuild never needs:

- each stream's read rows are written once, right after its last event (a first query finds
  where each stream ends), so no state is written twice nor read back, and memory holds only the
  streams still in flight;
- the log is read in large ordered batches, and the indexes no fold reads are built once, at the
  end, in one sort each (the log lines' stream index too, unless a correction's fold reads the
  lines first);
- a stream's fold reads nothing but its own events (the rules never read another stream), so on
  a machine with several cores the streams are dealt into parts of about equal size: the parent
  folds one part straight into the database, each other part is folded at the same time by its
  own process into scratch databases, and the parent then copies those rows in with
  ``INSERT … SELECT`` (inside SQLite) and adds their running totals to its own. A child folds
  its part in two segments (the streams that end first, then the rest, each read from the log
  between its first and last position), so the parent copies the first in while the child
  still folds the second, and only a small copy is left once both are done.

Parts run in Python processes started afresh (not forked): a child never inherits an open SQLite
connection. They read the log committed before the parent took the write lock, which the parent
holds to the end, so every process folds the same log; a rebuild called inside a transaction
that may hold uncommitted events (an import) folds in one process.
"""
from __future__ import annotations

import contextlib
import gc
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
from tracker.eventstore.dialect import is_pg
from tracker.eventstore.forked import cores
from tracker.projections import schema
from tracker.projections.engine import Projector, write_stream
from tracker.eventstore.store import EventStore, Recorded, loads, write_transaction

READ_BATCH = 2000  # events a part reads per query
# Events the parent folds in the time a part's process takes to start (Python and the rules
# imported, ~0.5 s): the parent's part is that much larger, so that both end together.
HEAD_START = 15_000
ATTACHED = 10  # the databases SQLite attaches at most
# What a child folds, in order: the first segment's rows are copied in while it folds the second.
SEGMENTS = (0.85, 0.15)
# The time the parent takes to copy a child's event in, against the time folding it takes.
MERGE_COST = 0.17
PARALLEL_FROM = 100_000  # below this, starting a process (~0.8 s of CPU to import) saves too little
MAX_PARTS = 8
# SQLite's page cache of each process of a rebuild in parts, in KiB (the default is 2 MiB): fewer
# pages spilled and written again; one process (an import, a small log) keeps the default.
CACHE = -16384
# Running totals: one row per key in every part that touched it, added up when parts merge.
TOTALS = {"records": "count", "track_totals": "lost"}  # table -> its total column
NOT_MERGED: tuple[str, ...] = ()  # tables a part's rows are not copied from
GC_YOUNGEST = 50_000  # allocations between collections of the youngest objects during a fold (Python's: 700)

Progress = Callable[[int], None]


class Rebuilder(Projector):
    """The live projector, writing each stream out as soon as its last event is folded."""

    def __init__(self, db, store: EventStore, last: dict[str, int]):
        super().__init__(db, store, rebuilding=True)
        self.last = last  # stream -> the position of its last event

    def apply(self, rec: Recorded) -> None:
        super().apply(rec)
        if self.last.get(rec.stream) == rec.position:
            self.write_out(rec.stream)

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
            streams = db.execute("SELECT stream, COUNT(*), MIN(position), MAX(position) FROM events"
                                 " GROUP BY stream").fetchall()
            total = sum(count for _, count, _, _ in streams)
            last_position = max((last for _, _, _, last in streams), default=0)
            if outer or not on_sqlite or _path(db) is None or not sys.executable:
                parts = 1
            elif parts is None:
                parts = parts_for(total)
            dealt = _deal(streams, max(1, min(parts, MAX_PARTS)))
            if len(dealt) <= 1:
                _fold(db, store, {s: last for s, _, _, last in streams}, None, progress)
            else:
                db.execute(f"PRAGMA cache_size={CACHE}")
                # Beside the database: the disk that holds the read models has room for a part of them.
                scratch = tempfile.mkdtemp(prefix=".rebuild-", dir=os.path.dirname(os.path.abspath(_path(db))))
                _fold_in_parts(db, store, _path(db), dealt, (last_position, total), scratch, attached, progress)
            schema.create(db)  # the late indexes, each built in one sort
    finally:
        if on_sqlite:
            db.execute(f"PRAGMA cache_size={cache}")
        for name in attached:  # SQLite detaches a database only outside a transaction
            db.conn.execute(f"DETACH DATABASE {name}")
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    return total


def _fold(db, store: EventStore, last: dict[str, int], part: str | None, progress: Progress | None,
          span: tuple[int, int] | None = None) -> None:
    """Fold the events of the streams in ``last`` (all of them when ``part`` is None; else those
    in the temporary table ``part``, which lie in ``span``) into ``db``'s read models."""
    projector = Rebuilder(db, store, last)
    with _few_collections():
        for batch in _batches(db, part, span):
            for rec in batch:
                projector.apply(rec)
            if progress is not None:
                progress(len(batch))
        for stream in list(projector.dirty):
            projector.write_out(stream)
        projector.flush()


@contextlib.contextmanager
def _few_collections() -> Iterator[None]:
    """The cyclic garbage collector run seldom: a fold allocates a dozen containers per event and
    frees them all (states, lines and rows hold no cycles), and at Python's default every 700th
    allocation starts a collection, a full one now and then over every object the process holds
    (a tenth of a rebuild's time for no garbage)."""
    threshold = gc.get_threshold()
    gc.set_threshold(GC_YOUNGEST, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def _batches(db, part: str | None, span: tuple[int, int] | None = None) -> Iterator[list[Recorded]]:
    """The events in log order, ``READ_BATCH`` at a time (of one part's streams, when named,
    which lie after ``span[0]`` up to ``span[1]``)."""
    sql = "SELECT position, stream, version, type, schema, data, metadata FROM events WHERE position > ?"
    if part:
        sql += f" AND position <= ? AND +stream IN {part}"  # "+": by position, not by the stream index
    sql += " ORDER BY position LIMIT ?"
    position, until = span or (0, None)
    meta_text, meta = None, None
    while True:
        rows = db.conn.execute(sql, [position, until, READ_BATCH] if part else [position, READ_BATCH]).fetchall()
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


Streams = list  # of (stream, its events, its first position, its last position)


def _deal(streams: Streams, parts: int) -> list[Streams]:
    """The streams dealt into ``parts`` of about equal event counts (the largest first, each to
    the lightest part). Empty parts are dropped. On a large log the first part, the parent's, is
    dealt ``HEAD_START`` events more (it starts folding at once, while each other part waits for
    its process to start) and the events it copies in the time it could fold them fewer."""
    dealt: list[Streams] = [[] for _ in range(parts)]
    held = [0] * parts
    total = sum(count for _, count, _, _ in streams)
    if parts > 1 and total >= PARALLEL_FROM:  # (a small log: even parts)
        held[0] = round(MERGE_COST * SEGMENTS[0] * (parts - 1) * total / parts) - HEAD_START
    for stream in sorted(streams, key=lambda s: -s[1]):
        lightest = held.index(min(held))
        dealt[lightest].append(stream)
        held[lightest] += stream[1]
    return [part for part in dealt if part]


def _segments(part: Streams, attachable: bool) -> list[Streams]:
    """A child's part cut into the ``SEGMENTS`` it folds one after the other, each from the
    streams that end earliest on, so the parent copies the first in while the child folds the
    last (one segment when there would be more scratch databases than SQLite attaches)."""
    if not attachable or len(part) < len(SEGMENTS):
        return [part]
    segments, held, total = [[]], 0, sum(count for _, count, _, _ in part)
    for stream in sorted(part, key=lambda s: s[3]):
        if held >= SEGMENTS[0] * total and len(segments) < len(SEGMENTS):
            segments.append([])
            held = 0
        segments[-1].append(stream)
        held += stream[1]
    return segments


def _ends(part: Streams) -> dict[str, int]:
    """Each stream of the part -> its last position."""
    return {stream: last for stream, _, _, last in part}


def _span(part: Streams) -> tuple[int, int]:
    """The positions a part's events lie between: after the first, up to the second."""
    return min(first for _, _, first, _ in part) - 1, max(last for _, _, _, last in part)


def _fold_in_parts(db, store: EventStore, path: str, dealt: list[Streams], expected: tuple[int, int],
                   scratch: str, attached: list[str], progress: Progress | None) -> None:
    """The parent folds the first part into ``db`` while one process per other part folds it,
    segment by segment, into scratch databases in ``scratch``; each segment's rows are copied in
    as soon as the parent is free and the segment is written (each one's name added to
    ``attached``)."""
    attachable = (len(dealt) - 1) * len(SEGMENTS) <= ATTACHED
    children = [_Part(path, os.path.join(scratch, f"part{index}"), _segments(part, attachable), expected)
                for index, part in enumerate(dealt[1:])]

    def advance(steps: int, waiting: _Part | None = None, segments: int = 0) -> None:
        steps += sum(child.folded(segments if child is waiting else 0) for child in children)
        if progress is not None and steps:
            progress(steps)

    try:
        _part_table(db, _ends(dealt[0]))
        _fold(db, store, _ends(dealt[0]), "temp.rebuild_part", advance, _span(dealt[0]))
        db.execute("DROP TABLE temp.rebuild_part")
        for index, child in enumerate(children):
            for segment, target in enumerate(child.targets):
                advance(0, child, segment + 1)
                if child.written <= segment:
                    child.finish()  # it ended before writing the segment: its error is raised
                    raise RuntimeError(f"a part of the rebuild ended before writing its segment {segment + 1}")
                name = f"part{index}_{segment}"
                attached.append(name)
                db.conn.execute(f"ATTACH DATABASE ? AS {name}", [target])
                _merge(db, [name])
            child.finish()
    finally:
        for child in children:
            child.stop()


class _Part:
    """A fresh Python process folding one part (not a fork: it must not inherit open connections),
    segment by segment, which prints a running count of the events it folded after each batch,
    and ``=`` with the segments written after each segment."""

    def __init__(self, source: str, base: str, segments: list[Streams], expected: tuple[int, int]):
        self.targets = [f"{base}_{index}.db" for index in range(len(segments))]
        self.errors = base + ".err"
        with open(base + ".json", "wb") as out:
            out.write(orjson.dumps({"source": source, "expected": expected,
                                    "segments": [{"target": target, "part": _ends(segment), "span": _span(segment)}
                                                 for target, segment in zip(self.targets, segments)],
                                    "rulesets": [module.__name__ for module in rules.RULESETS.values()]}))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        with open(self.errors, "wb") as err:  # a file, not a pipe: no amount of warnings can block it
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from tracker.projections.rebuild import main; main()", base + ".json"],
                stdout=subprocess.PIPE, stderr=err, env=env)
        os.set_blocking(self.process.stdout.fileno(), False)
        self.told, self.unread, self.written = 0, b"", 0

    def folded(self, segments: int = 0) -> int:
        """How many more events it has folded since last asked. ``segments``: wait until it has
        written that many (or ended)."""
        latest = self.told
        while True:
            try:
                chunk = os.read(self.process.stdout.fileno(), 65536)
            except BlockingIOError:
                if self.written >= segments:
                    break
                select.select([self.process.stdout], [], [])
                continue
            if not chunk:
                break
            lines = (self.unread + chunk).split(b"\n")
            self.unread = lines.pop()  # a count cut short, until the rest of it comes
            for line in lines:
                if line.startswith(b"="):
                    self.written = int(line[1:])
                else:
                    latest = int(line)
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

    for index, segment in enumerate(args["segments"], 1):
        fold_part(args["source"], segment["target"], segment["part"], tuple(args["expected"]), advance,
                  tuple(segment["span"]))
        os.write(1, f"={index}\n".encode())


def fold_part(source: str, target: str, part: dict[str, int], expected: tuple[int, int],
              progress: Progress | None = None, span: tuple[int, int] | None = None) -> None:
    """Fold the events of ``part``'s streams (which lie in ``span``), read from the log at
    ``source``, into the read models of a new scratch database at ``target``."""
    conn = sqlite3.connect(target, isolation_level=None)
    conn.execute("PRAGMA journal_mode=OFF")  # a scratch file: a failure throws it away whole
    conn.execute("PRAGMA synchronous=OFF")
    conn.execute(f"PRAGMA cache_size={CACHE}")
    db = sqlite_utils.Database(conn)
    schema.create(db)
    schema.drop_late_indexes(db)
    conn.execute("ATTACH DATABASE ? AS log", [source])  # ``events`` is read from the log
    conn.execute("BEGIN")
    seen = conn.execute("SELECT COALESCE(MAX(position), 0), COUNT(*) FROM log.events").fetchone()
    if tuple(seen) != tuple(expected):
        raise RuntimeError(f"the log changed under the rebuild: {tuple(seen)} events, not {tuple(expected)}")
    _part_table(db, part)
    _fold(db, EventStore(db), part, "temp.rebuild_part", progress, span or (0, expected[0]))
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
