"""The log as JSON Lines: export it, and import one into an empty database after checking
every line first, so a bad file appends nothing.

Each event line carries ``hash``, chaining it to every line before it (SHA-256 of the previous
hash and the line's canonical JSON), and the file ends with a trailer line giving the count and
the last hash. So a file cut short, reordered, with a line doubled or edited by accident is
refused whole, naming the first line at fault. Anyone can recompute the chain, so it proves
nothing about who wrote the file: the trailer's ``signature`` (HMAC-SHA256 of the count and the
last hash, under a key derived from the install's SECRET_KEY) says the file left this install
unchanged. Whatever the signature, every id an event refers to must name something the file
itself creates (``tracker.references``), so no file can reach outside itself.

A whole log goes into an empty database in one pass, line by line: each line checked, chained and
appended in batches inside one transaction, which a bad line rolls back whole; a campaign's
upload is read twice (``tracker.campaign_import``). Memory stays flat whatever the file's size.
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
from typing import IO, Any, Callable, ContextManager, Iterable, Iterator, NamedTuple

import orjson

from tracker import strictjson
from tracker.events import EVENT_TYPES, from_data, upcast
from tracker.projections.rebuild import rebuild
from tracker.references import declares_ids, definitions, references
from tracker.rules.text import Text, t
from tracker.store import EventStore, dumps, insert_rows, write_transaction

FIELDS = ("position", "stream", "version", "type", "schema", "data", "metadata")
FORMAT = "touche-log/2"  # the trailer may carry a signature
FORMATS = ("touche-log/1", FORMAT)  # files exported before signatures still import
BATCH = 2000  # lines appended and projected at a time
EXPORT_BATCH = 500  # rows read at a time: a few MB even when events are large

# Long work tells how far it got: ``progress(label, total)`` opens a phase of ``total`` steps and
# gives the function to call with each step's count (the command line draws a bar with it).
Progress = Callable[[str, int], ContextManager[Callable[[int], None]]]


def quietly(_label: str, _total: int) -> ContextManager[Callable[[int], None]]:
    """No progress shown."""
    return contextlib.nullcontext(lambda _steps: None)


def chain(previous: str, item: dict, data: str | None = None, metadata: str | None = None) -> str:
    """The hash of a line: SHA-256 of the previous line's hash and this line's canonical JSON
    (``dumps`` of its fields, sorted and compact; pass data and metadata already dumped to save
    dumping them twice)."""
    canonical = (f'{{"data":{data or dumps(item["data"])},"metadata":{metadata or dumps(item["metadata"])},'
                 f'"position":{item["position"]},"schema":{item["schema"]},"stream":{dumps(item["stream"])},'
                 f'"type":{dumps(item["type"])},"version":{item["version"]}}}')
    return hashlib.sha256((previous + canonical).encode()).hexdigest()


def signing_key(secret_key: str) -> bytes:
    """The key that signs exports, derived from SECRET_KEY so the session key never signs files."""
    return hmac.new(str(secret_key).encode(), b"touche export signature", hashlib.sha256).digest()


def signature(key: bytes, events: int, digest: str) -> str:
    return hmac.new(key, f"{FORMAT}:{events}:{digest}".encode(), hashlib.sha256).hexdigest()


def _required(kind: str) -> frozenset:
    """The fields an event type cannot do without (those with no default)."""
    cls = EVENT_TYPES[kind]
    if cls not in _REQUIRED:
        _REQUIRED[cls] = frozenset(f.name for f in dataclasses.fields(cls)
                                   if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
    return _REQUIRED[cls]


_REQUIRED: dict[type, frozenset] = {}
_LINE_FIELDS = frozenset(FIELDS) | {"hash"}


class BadLog(Exception):
    """A log file that cannot be imported, with the line at fault. Its words are read when shown,
    in the reader's language (the page's, the command line's)."""

    def __init__(self, line: int, problem: Text):
        super().__init__(line, problem)
        self.line, self.problem = line, problem

    def words(self) -> Text:
        """The refusal as a message: the line at fault, then what is wrong with it."""
        return t("line {line}: {problem}", line=self.line, problem=self.problem) if self.line else self.problem

    def __str__(self) -> str:
        return str(self.words())


class Line(NamedTuple):
    """One checked event line: where it was in the file, its fields, its data and metadata dumped."""

    number: int
    position: int
    stream: str
    version: int
    type: str
    schema: int
    data: dict
    metadata: dict
    data_text: str
    metadata_text: str

    @property
    def current_data(self) -> dict:
        """The data in its type's current shape."""
        if self.schema == EVENT_TYPES[self.type].SCHEMA:
            return self.data
        return upcast(self.type, self.schema, dict(self.data))


def export(db, campaign_id: str | None = None, key: bytes | None = None,
           advance: Callable[[int], None] | None = None) -> Iterator[str]:
    """Every event (or one campaign's) as one JSON line each, in log order, then the trailer:
    streamed from the database, never all in memory. Events appended meanwhile are left out.
    ``advance`` is told how many events of the log each batch went through."""
    store = EventStore(db)
    last = store.last_position()
    count, digest = 0, ""
    for batch in store.read_batches(batch=EXPORT_BATCH):
        for rec in batch:
            if rec.position > last:
                break
            if campaign_id and rec.campaign_id != campaign_id:
                continue
            item = {"position": rec.position, "stream": rec.stream, "version": rec.version, "type": rec.type,
                    "schema": rec.schema, "data": rec.data, "metadata": rec.metadata}
            data, metadata = dumps(rec.data), dumps(rec.metadata)
            digest = chain(digest, item, data, metadata)
            count += 1
            yield _line(item, data, metadata, digest)
        if advance is not None:
            advance(len(batch))
        if batch[-1].position >= last:
            break
    trailer = {"format": FORMAT, "events": count, "hash": digest}
    if key is not None:
        trailer["signature"] = signature(key, count, digest)
    yield dumps(trailer) + "\n"


def _line(item: dict, data: str, metadata: str, digest: str) -> str:
    """The exported line: ``dumps`` of the item with its hash, data and metadata dumped once."""
    return (f'{{"data":{data},"hash":"{digest}","metadata":{metadata},"position":{item["position"]},'
            f'"schema":{item["schema"]},"stream":{dumps(item["stream"])},"type":{dumps(item["type"])},'
            f'"version":{item["version"]}}}\n')


def export_lines(db, out: IO[str], campaign_id: str | None = None, key: bytes | None = None,
                 progress: Progress = quietly) -> int:
    """Write ``export`` to a file; the number of events written."""
    count = -1
    with progress(t("Exporting"), EventStore(db).last_position()) as advance:
        for line in export(db, campaign_id, key, advance):
            out.write(line)
            count += 1
    return count


class Check:
    """Checks a file line by line, keeping only what later lines are checked against: each
    stream's version, the category of each stream key, the links and tokens defined so far.

    ``outside`` names the categories that may refer beyond the file because the importer
    replaces them (a web import makes the importing GM the owner). After a whole pass,
    ``events`` is the count and ``signed`` says whether this install's key signed the file."""

    def __init__(self, key: bytes | None = None, outside: Iterable[str] = ()):
        self.key, self.outside = key, frozenset(outside)
        self.versions: dict[str, int] = {}
        self.keys: dict[str, str] = {}
        self.defined: dict[str, set[str]] = {}
        self.events = 0
        self.signed = False

    def lines(self, lines: Iterable[str]) -> Iterator[Line]:
        """Each event line once checked; raises BadLog at the first line at fault."""
        last_position, digest, trailer, number = 0, "", None, 0
        for number, line in enumerate(lines, start=1):
            if trailer is not None:
                raise BadLog(number, t("lines after the end of the log"))
            if not line.strip():
                raise BadLog(number, t("empty line"))
            try:
                item = strictjson.loads(line)
            except strictjson.BadJSON as bad:
                raise BadLog(number, t("{problem} (a truncated or damaged file?)", problem=str(bad))) from None
            if isinstance(item, dict) and item.get("format") in FORMATS:
                trailer = item
                self._check_trailer(number, item, digest)
                continue
            checked = self._line(number, item, last_position)
            digest = chain(digest, item, checked.data_text, checked.metadata_text)
            if item["hash"] != digest:
                raise BadLog(number, t("the line does not match its hash: it was edited by hand, or lines were "
                                       "removed or moved before it"))
            self._resolve(checked)
            last_position = checked.position
            self.events += 1
            yield checked
        if trailer is None:
            raise BadLog(number + 1, t("the file stops before its last line: it was cut short"))

    def _check_trailer(self, number: int, item: dict, digest: str) -> None:
        if item.get("events") != self.events or item.get("hash") != digest:
            raise BadLog(number, t("the file ends saying {said} events, but it holds {count} or their hashes "
                                   "differ: lines are missing or changed", said=item.get("events"), count=self.events))
        given = item.get("signature")
        self.signed = (self.key is not None and isinstance(given, str)
                       and hmac.compare_digest(given, signature(self.key, self.events, digest)))

    def _line(self, number: int, item: Any, last_position: int) -> Line:
        if not isinstance(item, dict) or item.keys() != _LINE_FIELDS:
            raise BadLog(number, t("each line must be an object with exactly: {fields}",
                                    fields=", ".join(FIELDS + ("hash",))))
        position, stream, version = item["position"], item["stream"], item["version"]
        if not isinstance(position, int) or position <= last_position:
            raise BadLog(number, t("position {position} is out of order (after {last})", position=repr(position),
                                   last=last_position))
        if not isinstance(stream, str) or "-" not in stream:
            raise BadLog(number, t("bad stream {stream}", stream=repr(stream)))
        expected = self.versions.get(stream, 0) + 1
        if version != expected:
            raise BadLog(number, t("{stream} jumps to version {version}; expected {expected}", stream=stream,
                                   version=repr(version), expected=expected))
        kind = item["type"]
        cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise BadLog(number, t("unknown event type {kind}", kind=repr(kind)))
        schema, data, metadata = item["schema"], item["data"], item["metadata"]
        if not isinstance(schema, int) or not 1 <= schema <= cls.SCHEMA:
            raise BadLog(number, t("unknown schema {schema} for {kind}", schema=repr(schema), kind=kind))
        if not isinstance(data, dict) or not isinstance(metadata, dict):
            raise BadLog(number, t("data and metadata must be objects"))
        if schema == cls.SCHEMA:
            if not _required(kind) <= data.keys():
                missing = _required(kind) - data.keys()
                raise BadLog(number, t("{kind} data does not fit its type: missing {fields}", kind=kind,
                                       fields=", ".join(sorted(missing))))
        else:
            try:  # an old shape: it must upcast to the current one
                from_data(kind, data, schema)
            except Exception as problem:  # any shape the upcasters or the event class refuse
                raise BadLog(number, t("{kind} data does not fit its type: {problem}", kind=kind,
                                       problem=str(problem))) from None
        self.versions[stream] = version
        return Line(number, position, stream, version, kind, schema, data, metadata,
                    orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode(),
                    orjson.dumps(metadata, option=orjson.OPT_SORT_KEYS).decode())

    def _resolve(self, line: Line) -> None:
        """Every id the line refers to names a stream, link or token the file created by then."""
        category, key = line.stream.split("-", 1)
        if line.version == 1:
            if self.keys.setdefault(key, category) != category:
                other = self.keys[key] + "-" + key
                raise BadLog(line.number, t("{stream} reuses the id of {other}", stream=line.stream, other=other))
        campaign = line.metadata.get("campaign_id")
        if campaign and self.keys.get(campaign) != "campaign":
            raise BadLog(line.number, t("its metadata puts it in campaign {campaign}, which this file does not "
                                        "create: a file may only refer to what it holds", campaign=repr(campaign)))
        if not declares_ids(line.type):
            return  # most events (a duel's turns) name nothing beyond their stream
        data = line.current_data
        for path, defined, value in definitions(line.type, data):
            if not isinstance(value, str) or not value:
                raise BadLog(line.number, t("{type}: {path} must be an id", type=line.type, path=path))
            self.defined.setdefault(defined, set()).add(value)
        for path, wanted, value in references(line.type, data):
            if value == "" or (value is None and path not in _required(line.type)):
                continue
            if not isinstance(value, str):
                raise BadLog(line.number, t("{type}: {path} must be an id, not {value}", type=line.type, path=path,
                                             value=repr(value)))
            if (self.keys.get(value) in wanted or any(value in self.defined.get(c, ()) for c in wanted)
                    or self.outside.intersection(wanted)):
                continue
            raise BadLog(line.number, t("{type} refers to {value} ({path}), which is no {wanted} this file "
                                        "creates: a file may only refer to what it holds, never to another campaign",
                                        type=line.type, value=repr(value), path=path, wanted=_any_of(wanted)))


def _any_of(names) -> Text | str:
    """``a or b or c``, in the reader's language."""
    names = list(names)
    said: Text | str = names[-1]
    for name in reversed(names[:-1]):
        said = t("{one} or {other}", one=name, other=said)
    return said


class TextLines:
    """A binary file's lines as text, read again from the start on every pass."""

    def __init__(self, binary: IO[bytes]):
        self.binary = binary

    def seek(self, offset: int) -> None:
        self.binary.seek(offset)

    def __iter__(self) -> Iterator[str]:
        for number, raw in enumerate(self.binary, start=1):
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError:
                raise BadLog(number, t("not UTF-8 text")) from None


def passes(source: Iterable[str]) -> Iterable[str]:
    """The source read again from its start (a file is rewound; a list simply iterated again)."""
    if hasattr(source, "seek"):
        source.seek(0)
    return source


def append_lines(db, source: Iterable[str], check: Check, advance: Callable[[int], None] | None = None) -> None:
    """Check each line and append it, ``BATCH`` lines to a statement, in the caller's write
    transaction (which a bad line must roll back). ``advance`` is told each batch's line count."""
    batch: list[tuple] = []
    for line in check.lines(source):
        batch.append((line.position, line.stream, line.version, line.type, line.schema, line.data_text,
                      line.metadata_text, line.metadata.get("command_id")))
        if len(batch) >= BATCH:
            insert_rows(db, batch)
            if advance is not None:
                advance(len(batch))
            batch = []
    insert_rows(db, batch)
    if advance is not None:
        advance(len(batch))


def import_lines(db, source: Iterable[str], key: bytes | None = None, accept_unsigned: bool = True,
                 progress: Progress = quietly, lines: int = 0) -> Check:
    """Import a file into an empty log and rebuild the read models from it, in one transaction
    and one pass: every line checked and appended in batches, then the rebuild; a bad line, or an
    unsigned file when ``accept_unsigned`` is off, rolls it all back. ``lines``: how many the
    file holds, when known, for ``progress``."""
    check = Check(key)
    with write_transaction(db):
        if EventStore(db).last_position():
            raise BadLog(0, t("the database already holds events: import into an empty one"))
        with progress(t("Checking and appending"), lines) as advance:
            append_lines(db, source, check, advance)
        if not check.signed and not accept_unsigned:
            raise BadLog(check.events + 1, t("the file is not signed by this Touché (exported elsewhere, or "
                                             "changed since): if you trust where it came from, "
                                             "import it with --accept-unsigned"))
        with progress(t("Rebuilding the read models"), check.events) as advance:
            rebuild(db, EventStore(db), advance)
    return check
