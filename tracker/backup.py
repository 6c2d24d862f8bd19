"""The log as JSON Lines: export it, and import one into an empty database after checking
every line first, so a bad file appends nothing.

Each event line carries ``hash``, chaining it to every line before it (SHA-256 of the previous
hash and the line's canonical JSON), and the file ends with a trailer line giving the count and
the last hash. So a file cut short, reordered, with a line doubled or edited by hand is refused
whole, naming the first line at fault."""
from __future__ import annotations

import dataclasses
import hashlib
from typing import IO, Iterable

from tracker import strictjson
from tracker.events import EVENT_TYPES, from_data
from tracker.projections.engine import rebuild
from tracker.store import EventStore, dumps, write_transaction

FIELDS = ("position", "stream", "version", "type", "schema", "data", "metadata")
FORMAT = "touche-log/1"


def chain(previous: str, item: dict, data: str | None = None, metadata: str | None = None) -> str:
    """The hash of a line: SHA-256 of the previous line's hash and this line's canonical JSON
    (``dumps`` of its fields, sorted and compact; pass data and metadata already dumped to save
    dumping them twice)."""
    canonical = (f'{{"data":{data or dumps(item["data"])},"metadata":{metadata or dumps(item["metadata"])},'
                 f'"position":{item["position"]},"schema":{item["schema"]},"stream":{dumps(item["stream"])},'
                 f'"type":{dumps(item["type"])},"version":{item["version"]}}}')
    return hashlib.sha256((previous + canonical).encode()).hexdigest()


def _required(kind: str) -> frozenset:
    """The fields an event type cannot do without (those with no default)."""
    cls = EVENT_TYPES[kind]
    if cls not in _REQUIRED:
        _REQUIRED[cls] = frozenset(f.name for f in dataclasses.fields(cls)
                                   if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
    return _REQUIRED[cls]


_REQUIRED: dict[type, frozenset] = {}


class BadLog(Exception):
    """A log file that cannot be imported, with the line at fault."""

    def __init__(self, line: int, problem: str):
        super().__init__(f"line {line}: {problem}" if line else problem)
        self.line = line


def export_lines(db, out: IO[str], campaign_id: str | None = None) -> int:
    """Write every event (or one campaign's) as one JSON object per line, in log order."""
    count, digest = 0, ""
    for rec in EventStore(db).read_all():
        if campaign_id and rec.campaign_id != campaign_id:
            continue
        item = {"position": rec.position, "stream": rec.stream, "version": rec.version, "type": rec.type,
                "schema": rec.schema, "data": rec.data, "metadata": rec.metadata}
        digest = chain(digest, item)
        out.write(dumps({**item, "hash": digest}) + "\n")
        count += 1
    out.write(dumps({"format": FORMAT, "events": count, "hash": digest}) + "\n")
    return count


def check_lines(lines: Iterable[str]) -> list[tuple]:
    """Parse and check a whole file; return rows ready to insert, or raise BadLog."""
    rows: list[tuple] = []
    last_position = 0
    versions: dict[str, int] = {}
    digest = ""
    trailer = None
    number = 0
    for number, line in enumerate(lines, start=1):
        if trailer is not None:
            raise BadLog(number, "lines after the end of the log")
        if not line.strip():
            raise BadLog(number, "empty line")
        try:
            item = strictjson.loads(line)
        except strictjson.BadJSON as bad:
            raise BadLog(number, f"{bad} (a truncated or damaged file?)") from None
        if isinstance(item, dict) and item.get("format") == FORMAT:
            trailer = item
            if item.get("events") != len(rows) or item.get("hash") != digest:
                raise BadLog(number, f"the file ends saying {item.get('events')} events, but it holds "
                                     f"{len(rows)} or their hashes differ: lines are missing or changed")
            continue
        if not isinstance(item, dict) or set(item) != set(FIELDS) | {"hash"}:
            raise BadLog(number, "each line must be an object with exactly: " + ", ".join(FIELDS + ("hash",)))
        position, stream, version = item["position"], item["stream"], item["version"]
        if not isinstance(position, int) or position <= last_position:
            raise BadLog(number, f"position {position!r} is out of order (after {last_position})")
        if not isinstance(stream, str) or "-" not in stream:
            raise BadLog(number, f"bad stream {stream!r}")
        expected = versions.get(stream, 0) + 1
        if version != expected:
            raise BadLog(number, f"{stream} jumps to version {version!r}; expected {expected}")
        kind = item["type"]
        if kind not in EVENT_TYPES:
            raise BadLog(number, f"unknown event type {kind!r}")
        schema = item["schema"]
        if not isinstance(schema, int) or not 1 <= schema <= EVENT_TYPES[kind].SCHEMA:
            raise BadLog(number, f"unknown schema {schema!r} for {kind}")
        if not isinstance(item["data"], dict) or not isinstance(item["metadata"], dict):
            raise BadLog(number, "data and metadata must be objects")
        if schema == EVENT_TYPES[kind].SCHEMA:
            missing = _required(kind) - item["data"].keys()
            if missing:
                raise BadLog(number, f"{kind} data does not fit its type: missing {', '.join(sorted(missing))}")
        else:
            try:  # an old shape: it must upcast to the current one
                from_data(kind, item["data"], schema)
            except Exception as problem:  # any shape the upcasters or the event class refuse
                raise BadLog(number, f"{kind} data does not fit its type: {problem}") from None
        data, metadata = dumps(item["data"]), dumps(item["metadata"])
        digest = chain(digest, item, data, metadata)
        if item["hash"] != digest:
            raise BadLog(number, "the line does not match its hash: it was edited by hand, or lines were "
                                 "removed or moved before it")
        versions[stream] = version
        last_position = position
        rows.append((position, stream, version, kind, schema, data, metadata, item["metadata"].get("command_id")))
    if trailer is None:
        raise BadLog(number + 1, "the file stops before its last line: it was cut short")
    return rows


def import_lines(db, lines: Iterable[str]) -> int:
    """Import a checked file into an empty log and rebuild the read models from it."""
    rows = check_lines(lines)
    append_checked(db, rows)
    rebuild(db, EventStore(db))
    return len(rows)


def append_checked(db, rows: list[tuple]) -> None:
    """Insert checked rows into an empty log, all or nothing."""
    with write_transaction(db):
        if EventStore(db).last_position():
            raise BadLog(0, "the database already holds events: import into an empty one")
        db.conn.executemany(
            "INSERT INTO events (position, stream, version, type, schema, data, metadata, command_id)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
