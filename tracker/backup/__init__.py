"""The log as JSON Lines: export it, and import one into an empty database after checking
every line first, so a bad file appends nothing.

Each event line carries ``hash``, chaining it to every line before it (SHA-256 of the previous
hash and the line's canonical JSON), and the file ends with a trailer line giving the count and
the last hash. So a file cut short, reordered, with a line doubled or edited by accident is
refused whole, naming the first line at fault. Anyone can recompute the chain, so it proves
nothing about who wrote the file: the trailer's ``signature`` (HMAC-SHA256 of the count and the
last hash, under a key derived from the install's SECRET_KEY) says the file left this install
unchanged. Whatever the signature, every id an event refers to must name something the file
itself creates (``tracker.backup.references``), so no file can reach outside itself.

A backup holds in clear what the GM's event pages show, and nothing more but the commands' keyed
fingerprints, which a restore needs to tell a retried command and which name nothing without the
install's key (issue 27): each field
``rules.event_seen_by(..., "gm", state)`` hides (a sealed choice, a hand dealt to a seat-played
duelist, a sealed duel's pile) is written sealed (``tracker.backup.sealed_fields``: AES-SIV under a key
derived from SECRET_KEY, bound to its stream, version, type and field), as
``{"touche-sealed": "…"}``; the format is ``touche-log/3`` (files of formats 1 and 2 still
import). The chain hashes each line as the file holds it, ciphertext included: a chain over the
clear value would name it to anyone hashing the few cards it could be. So anyone can still check
the chain, and the signature covers what the file holds. An import on this install (the same
SECRET_KEY) opens each sealed field before anything reads the line, and appends the very events
that were exported; a file another install sealed is refused, naming the line, nothing appended.

A whole log goes into an empty database in one pass, line by line: each line checked, chained and
appended in batches inside one transaction, which a bad line rolls back whole (a long file on two
cores: a forked child checks while this process chains and appends, ``append_lines``); a
campaign's upload is read twice (``tracker.backup.campaign_import``). Memory stays flat whatever the
file's size.
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
from functools import partial
from collections.abc import Mapping
from itertools import islice
from operator import itemgetter
from typing import IO, Any, Callable, ContextManager, Iterable, Iterator, NamedTuple

import orjson

from tracker import rules
from tracker.backup import strictjson
from tracker.eventstore import forked
from tracker.domain.events import EVENT_TYPES, from_data, upcast
from tracker.projections import queries
from tracker.projections.rebuild import rebuild
from tracker.backup.references import categories, declared, values_at
from tracker.rules.text import Text, t
from tracker.backup.sealed_fields import MARKED, Sealer, Unreadable, is_sealed
from tracker.eventstore.store import EventStore, dumps, insert_rows, write_transaction

FIELDS = ("position", "stream", "version", "type", "schema", "data", "metadata")
FORMAT = "touche-log/3"  # fields no reader may see are sealed (``tracker.backup.sealed_fields``)
# Files exported before signatures (1), and signed but before sealed fields (2), still import.
FORMATS = ("touche-log/1", "touche-log/2", FORMAT)
BATCH = 2000  # lines appended and projected at a time
# Batches an import appends in one process before a forked child takes over the check (4,000
# lines, ~50 ms): a shorter file never starts a process, whose fork and first batch take ~5-15 ms.
PARALLEL_AFTER = 2
PIPED_BATCH = 500  # rows the child hands over at a time: a few MB in this process even when lines are large
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
    canonical = _canonical(data or dumps(item["data"]), metadata or dumps(item["metadata"]), item["position"],
                           item["schema"], dumps(item["stream"]), dumps(item["type"]), item["version"])
    return hashlib.sha256((previous + canonical).encode()).hexdigest()


def _canonical(data: str, metadata: str, position: int, schema: int, stream: str, kind: str, version: int) -> str:
    """A line's canonical JSON, what its hash is taken of: its fields but the hash, sorted and
    compact, from its data, metadata, stream and type already dumped."""
    return (f'{{"data":{data},"metadata":{metadata},"position":{position},"schema":{schema},'
            f'"stream":{stream},"type":{kind},"version":{version}}}')


def signing_key(secret_key: str) -> bytes:
    """The key that signs exports, derived from SECRET_KEY so the session key never signs files."""
    return hmac.new(str(secret_key).encode(), b"touche export signature", hashlib.sha256).digest()


def signature(key: bytes, events: int, digest: str, fmt: str = FORMAT) -> str:
    """The trailer's signature: HMAC-SHA256 of the format, the count and the last hash."""
    return hmac.new(key, f"{fmt}:{events}:{digest}".encode(), hashlib.sha256).hexdigest()


def _required(kind: str) -> frozenset:
    """The fields an event type cannot do without (those with no default)."""
    cls = EVENT_TYPES[kind]
    if cls not in _REQUIRED:
        _REQUIRED[cls] = frozenset(f.name for f in dataclasses.fields(cls)
                                   if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
    return _REQUIRED[cls]


_REQUIRED: dict[type, frozenset] = {}
_line_fields = itemgetter(*FIELDS, "hash")  # a line's fields at once, or KeyError
_LINE_FIELD_COUNT = len(FIELDS) + 1


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
    """One checked event line: where it was in the file, the row it appends (``line[1:9]``:
    position to command id, data and metadata as canonical JSON), its data and metadata, the
    hash it says it has (``Check.follow`` holds it against the chain) and, for a line that held
    sealed fields, its data and metadata as the file wrote them, which is what the chain hashes
    (the row, ``data`` and ``metadata`` hold them opened)."""

    number: int
    position: int
    stream: str
    version: int
    type: str
    schema: int
    data_text: str
    metadata_text: str
    command_id: Any
    data: dict
    metadata: dict
    given: str
    chained: tuple[str, str] | None = None

    @property
    def current_data(self) -> dict:
        """The data in its type's current shape."""
        if self.schema == EVENT_TYPES[self.type].SCHEMA:
            return self.data
        return upcast(self.type, self.schema, dict(self.data))


# A Line made without the Python-level __new__ a NamedTuple has: the check makes one per line.
_new_line = partial(tuple.__new__, Line)


class _Kind(NamedTuple):
    """What checking a line of one event type needs, worked out the first time the type is met:
    its current schema, the fields its data cannot do without, and the ids it declares
    (``tracker.backup.references``), each as (path, its field when the path is a single field, its
    steps, its categories; a reference also says whether it may be null)."""

    schema: int
    required: frozenset
    declares_ids: bool
    defines: tuple
    refers: tuple


_KINDS: dict[str, _Kind] = {}


def _kind(kind: Any) -> _Kind | None:
    """The plan for an event type, None for no type of this install."""
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        return None
    required = _required(kind)

    def field(steps: list[str]) -> str | None:
        return steps[0] if len(steps) == 1 and steps[0] != "*" else None

    defines = tuple((path, field(steps), steps, category) for path, steps, category in declared(kind, "DEFINES"))
    refers = tuple((path, field(steps), steps, categories(wanted), path not in required)
                   for path, steps, wanted in declared(kind, "REFERENCES"))
    found = _KINDS[kind] = _Kind(cls.SCHEMA, required, bool(defines or refers), defines, refers)
    return found


def export(db, campaign_id: str | None = None, key: bytes | None = None,
           advance: Callable[[int], None] | None = None, sealer: Sealer | None = None) -> Iterator[str]:
    """Every event (or one campaign's) as one JSON line each, in log order, then the trailer:
    streamed from the database, never all in memory. Events appended meanwhile are left out.
    ``advance`` is told how many events of the log each batch went through.

    Every field no reader may see is written sealed by ``sealer`` (``_sealed``); an export that
    meets one without a sealer stops rather than write it in clear. The chain hashes each line as
    written, sealed fields included."""
    count, digest = 0, ""
    states = _States(db)
    for command in _commands(_records(db, campaign_id, advance)):
        for rec, (shown_data, shown_metadata) in zip(command, _sealed(command, states, sealer)):
            item = {"position": rec.position, "stream": rec.stream, "version": rec.version, "type": rec.type,
                    "schema": rec.schema, "data": shown_data, "metadata": shown_metadata}
            data, metadata = dumps(shown_data), dumps(shown_metadata)
            digest = chain(digest, item, data, metadata)
            count += 1
            yield _line(item, data, metadata, digest)
    trailer = {"format": FORMAT, "events": count, "hash": digest}
    if key is not None:
        trailer["signature"] = signature(key, count, digest)
    yield dumps(trailer) + "\n"


def _records(db, campaign_id: str | None, advance: Callable[[int], None] | None) -> Iterator:
    """The events to export, in log order, up to the last one when the export began."""
    store = EventStore(db)
    last = store.last_position()
    for batch in store.read_batches(batch=EXPORT_BATCH):
        for rec in batch:
            if rec.position > last:
                break
            if campaign_id and rec.campaign_id != campaign_id:
                continue
            yield rec
        if advance is not None:
            advance(len(batch))
        if batch[-1].position >= last:
            break


def _commands(records: Iterator) -> Iterator[list]:
    """The events in runs of one command each (consecutive, on one stream, with one command id:
    a command's events are appended together); an event without a command id is a run alone."""
    run: list = []
    for rec in records:
        if run and not (rec.stream == run[0].stream and rec.metadata.get("command_id")
                        and rec.metadata.get("command_id") == run[0].metadata.get("command_id")):
            yield run
            run = []
        run.append(rec)
    if run:
        yield run


def _sealed(command: list, states: "_States", sealer: Sealer | None) -> list[tuple[dict, dict]]:
    """The data and metadata of one command's events as a backup holds them: each field the GM's
    view of an event does not show (``rules.event_seen_by(..., "gm", state)``, the view of the
    GM's event pages: a sealed choice, and in the duel's state, a hand dealt to a seat or a sealed
    duel's pile) sealed, the rest as it is. When any of its events holds a sealed field, or a
    player's seat sent the command, the command id and fingerprint of each of its events are
    sealed too (``SEALED_METADATA``), as event pages leave them out: a seat's command id is made
    from what it sent, and the command that chose in secret may append its reveal beside it.

    The state is the duel's as it stands (its read model, as the event pages read it), not as it
    was at the event's version: what the GM's event page of that event shows now, the file shows,
    and nothing more. A Rocèt hand drawn for a seat-played duelist stays sealed while the seat plays;
    once the GM takes the seat over, the GM holds that hand and its event pages show it, so a later
    backup does too. The state is read only for the events a ruleset asks it for (``_States``)."""
    found, hides = [], False
    for rec in command:
        data = rec.data
        shown = rules.event_seen_by(rec.type, data, "gm",
                                    states.of(rec.stream) if rec.stream.startswith("duel-") else None)
        if shown is not data and shown != data:
            data = {field: (value if field in shown and shown[field] == value
                            else _seal(sealer, rec, field, value)) for field, value in data.items()}
            hides = True
        found.append((data, rec.metadata))
    if not hides and not str(command[0].metadata.get("principal", "")).startswith("seat:"):
        return found
    return [(data, {field: (_seal(sealer, rec, METADATA + field, value)
                            if field in SEALED_METADATA and value is not None else value)
                    for field, value in metadata.items()})
            for rec, (data, metadata) in zip(command, found)]


def _seal(sealer: Sealer | None, rec, field: str, value: Any) -> dict:
    if sealer is None:
        raise ValueError(f"{rec.type} at position {rec.position} holds fields no reader may see: "
                         "an export needs the install's sealer (tracker.backup.sealed_fields.Sealer)")
    return sealer.seal(rec.stream, rec.version, rec.type, field, value)


SEALED_METADATA = ("command_id", "fingerprint")  # sealed with the data's sealed fields, and for a seat
METADATA = "metadata."  # before a metadata field's name in what a sealed field is bound to


class _States:
    """Duels' current states for the export, each read from its read model the first time a
    ruleset asks for it, and only a few kept at a time (the export's memory stays flat)."""

    KEPT = 64

    def __init__(self, db):
        self.db = db
        self.kept: dict[str, dict] = {}

    def of(self, stream: str) -> "_State":
        return _State(self, stream)

    def load(self, stream: str) -> dict:
        found = self.kept.get(stream)
        if found is None:
            if len(self.kept) >= self.KEPT:
                self.kept.clear()
            found = self.kept[stream] = queries.stream_state(self.db, stream) or {}
        return found


class _State(Mapping):
    """One duel's state, read when first looked into: most events never need it."""

    __slots__ = ("states", "stream")

    def __init__(self, states: _States, stream: str):
        self.states, self.stream = states, stream

    def __getitem__(self, name: str) -> Any:
        return self.states.load(self.stream)[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.states.load(self.stream))

    def __len__(self) -> int:
        return len(self.states.load(self.stream))


def _line(item: dict, data: str, metadata: str, digest: str) -> str:
    """The exported line: ``dumps`` of the item with its hash, data and metadata dumped once."""
    return (f'{{"data":{data},"hash":"{digest}","metadata":{metadata},"position":{item["position"]},'
            f'"schema":{item["schema"]},"stream":{dumps(item["stream"])},"type":{dumps(item["type"])},'
            f'"version":{item["version"]}}}\n')


def export_lines(db, out: IO[str], campaign_id: str | None = None, key: bytes | None = None,
                 progress: Progress = quietly, sealer: Sealer | None = None) -> int:
    """Write ``export`` to a file; the number of events written."""
    count = -1
    with progress(t("Exporting"), EventStore(db).last_position()) as advance:
        for line in export(db, campaign_id, key, advance, sealer):
            out.write(line)
            count += 1
    return count


class Check:
    """Checks a file line by line, keeping only what later lines are checked against: each
    stream's version, the category of each stream key, the links and tokens defined so far.

    ``outside`` names the categories that may refer beyond the file because the importer
    replaces them (a web import makes the importing GM the owner). After a whole pass,
    ``events`` is the count and ``signed`` says whether this install's key signed the file."""

    # What the chain keeps (``follow`` and ``end``), apart from what the lines are checked against
    # (``unchained``): on two cores each is kept by its own process (``append_lines``).
    CHAIN = ("digest", "quoted", "signed")
    KEYS = ("key", "sealer")  # the same in both processes: never handed back (a sealer is no data to pickle)

    def __init__(self, key: bytes | None = None, outside: Iterable[str] = (), sealer: Sealer | None = None):
        self.key, self.outside, self.sealer = key, frozenset(outside), sealer
        self.versions: dict[str, int] = {}
        self.keys: dict[str, str] = {}
        self.defined: dict[str, set[str]] = {}
        self.events = 0
        self.digest = ""  # the hash of the last line chained
        self.quoted: dict[str, str] = {}  # each stream's and type's name as JSON, for the chain
        self.signed = False

    def lines(self, lines: Iterable[str]) -> Iterator[Line]:
        """Each event line once checked; raises BadLog at the first line at fault."""
        try:
            for line in self.unchained(lines):
                if type(line) is dict:
                    self.end(line)
                else:
                    self.follow([line[1:9]], [(line.number, line.given, line.chained)])
                    yield line
        except BadLog as bad:
            if (pending := _unchained_line(bad)) is not None:
                self.follow([pending[1:9]], [(pending.number, pending.given, pending.chained)])
            raise

    def unchained(self, lines: Iterable[str]) -> Iterator[Line | dict]:
        """Each event line checked but for its hash, then the trailer as ``{"line", "trailer",
        "events"}``; raises BadLog at the first line at fault. The chain is ``follow``'s and
        ``end``'s, so that another process may keep it (``append_lines``).

        One pass over each line, the slowest part of an import: the line is decoded once, its
        data and metadata dumped once (the row's text, which is also what the chain hashes), and
        its type's checks were worked out when the type was first met (``_Kind``)."""
        last_position, trailer, number = 0, None, 0
        versions, keys = self.versions, self.keys
        known_campaign = None  # the last campaign id found created: the next lines name it again
        for number, line in enumerate(lines, start=1):
            if trailer is not None:
                raise BadLog(number, t("lines after the end of the log"))
            try:
                item = _decode(line)
            except orjson.JSONDecodeError:
                raise _unreadable(number, line) from None
            if (line.count("{") + line.count("[") > strictjson.MAX_DEPTH  # rarely true: see strictjson
                    and strictjson.too_deep(line, item)):
                raise _unreadable(number, line)
            try:  # exactly the line's fields: as many, and each of them
                if type(item) is not dict or len(item) != _LINE_FIELD_COUNT:
                    raise KeyError
                position, stream, version, kind, schema, data, metadata, given = _line_fields(item)
            except KeyError:
                self._check_trailer_shape(number, item)
                trailer = item
                yield {"line": number, "trailer": item, "events": self.events}
                continue
            # The line's shape: a whole number is an int, never a bool or a float.
            if type(position) is not int or position <= last_position:
                raise BadLog(number, t("position {position} is out of order (after {last})",
                                       position=repr(position), last=last_position))
            if type(stream) is not str or "-" not in stream:
                raise BadLog(number, t("bad stream {stream}", stream=repr(stream)))
            expected = versions.get(stream, 0) + 1
            if version != expected or type(version) is not int:
                raise BadLog(number, t("{stream} jumps to version {version}; expected {expected}", stream=stream,
                                       version=repr(version), expected=expected))
            plan = _KINDS.get(kind) if type(kind) is str else None
            if plan is None and (plan := _kind(kind)) is None:
                raise BadLog(number, t("unknown event type {kind}", kind=repr(kind)))
            if type(schema) is not int or not 1 <= schema <= plan.schema:
                raise BadLog(number, t("unknown schema {schema} for {kind}", schema=repr(schema), kind=kind))
            if type(data) is not dict or type(metadata) is not dict:
                raise BadLog(number, t("data and metadata must be objects"))
            chained = None  # the data and metadata as the file wrote them, when they held sealed fields
            if MARKED in line:  # rarely true: a sealed field, opened before anything reads it
                chained = (_encode(data, option=_SORTED).decode(), _encode(metadata, option=_SORTED).decode())
                data, metadata = self._opened(number, (position, stream, version, kind, schema, given), chained,
                                              data, metadata)
            if schema == plan.schema:
                if not data.keys() >= plan.required:
                    missing = plan.required - data.keys()
                    raise BadLog(number, t("{kind} data does not fit its type: missing {fields}", kind=kind,
                                           fields=", ".join(sorted(missing))))
            else:
                try:  # an old shape: it must upcast to the current one
                    from_data(kind, data, schema)
                except Exception as problem:  # any shape the upcasters or the event class refuse
                    raise BadLog(number, t("{kind} data does not fit its type: {problem}", kind=kind,
                                           problem=str(problem))) from None
            versions[stream] = version
            # Dumped once, sorted: the row's text, and what the chain hashes (``follow``).
            data_text = _encode(data, option=_SORTED).decode()
            metadata_text = _encode(metadata, option=_SORTED).decode()
            checked = _new_line((number, position, stream, version, kind, schema, data_text, metadata_text,
                                 metadata.get("command_id"), data, metadata, given, chained))
            try:  # every id it names is one the file created by then
                if version == 1:
                    category, key = stream.split("-", 1)
                    if keys.setdefault(key, category) != category:
                        raise BadLog(number, t("{stream} reuses the id of {other}", stream=stream,
                                               other=keys[key] + "-" + key))
                campaign = metadata.get("campaign_id")
                if campaign and campaign != known_campaign:
                    if type(campaign) is not str or keys.get(campaign) != "campaign":
                        raise BadLog(number, t("its metadata puts it in campaign {campaign}, which this file does "
                                               "not create: a file may only refer to what it holds",
                                               campaign=repr(campaign)))
                    known_campaign = campaign
                if plan.declares_ids:  # most events (a duel's turns) name nothing beyond their stream
                    self._resolve(number, kind, plan,
                                  data if schema == plan.schema else upcast(kind, schema, dict(data)))
            except BadLog as bad:
                # A line moved or edited names ids out of place too: its hash is what tells so, and
                # is held against the chain first (``_unchained_line``), as before its ids.
                bad.unchained = checked
                raise
            last_position = position
            self.events += 1
            yield checked
        if trailer is None:
            raise BadLog(number + 1, t("the file stops before its last line: it was cut short"))

    def _opened(self, number: int, row: tuple, chained: tuple[str, str], data: dict,
                metadata: dict) -> tuple[dict, dict]:
        """The data and metadata with each sealed field opened by this install's sealer. A field
        it cannot open refuses the file, after the chain has had its say on the line (an edited
        line is told as edited)."""
        position, stream, version, kind, schema, given = row
        opened = []
        for fields, prefix in ((data, ""), (metadata, METADATA)):
            found = dict(fields)
            for field, value in fields.items():
                if not is_sealed(value):
                    continue
                try:
                    if self.sealer is None:
                        raise Unreadable(field)
                    found[field] = self.sealer.open(stream, version, kind, prefix + field, value)
                except Unreadable:
                    bad = BadLog(number, t("{kind} holds a sealed field ({field}) that only the Touché install which "
                                           "exported the file can open (the same SECRET_KEY): restore it there",
                                           kind=kind, field=field))
                    bad.unchained = _new_line((number, position, stream, version, kind, schema, *chained,
                                               metadata.get("command_id"), data, metadata, given, None))
                    raise bad from None
            opened.append(found)
        return opened[0], opened[1]

    @staticmethod
    def _check_trailer_shape(number: int, item: Any) -> None:
        """The last line, or else a line of the wrong shape."""
        if not isinstance(item, dict) or item.get("format") not in FORMATS:
            raise BadLog(number, t("each line must be an object with exactly: {fields}",
                                   fields=", ".join(FIELDS + ("hash",))))

    def follow(self, rows: list[tuple], hashes: list[tuple[int, str, tuple[str, str] | None]]) -> None:
        """Chain rows (``Line[1:9]``) in file order, each with its line's number, the hash it
        gives and its data and metadata as the file wrote them when they differ from the row's
        (sealed fields): SHA-256 of the hash before it and its canonical JSON (``chain``), built
        from the row's text, or from those. Raises BadLog at a line whose hash does not match."""
        digest, quoted = self.digest, self.quoted
        for (position, stream, version, kind, schema, data_text, metadata_text, _), (number, given, chained) in zip(
                rows, hashes):
            stream_json = quoted.get(stream) or quoted.setdefault(stream, dumps(stream))
            kind_json = quoted.get(kind) or quoted.setdefault(kind, dumps(kind))
            if chained is not None:  # the line held sealed fields: the chain hashes them as written
                data_text, metadata_text = chained
            canonical = _canonical(data_text, metadata_text, position, schema, stream_json, kind_json, version)
            digest = _sha256((digest + canonical).encode()).hexdigest()
            if given != digest:
                raise BadLog(number, t("the line does not match its hash: it was edited by hand, or lines were "
                                       "removed or moved before it"))
        self.digest = digest

    def end(self, last: dict) -> None:
        """The trailer (as ``unchained`` gives it) against the chain: its count and last hash, and
        whether this install's key signed them."""
        number, item, events = last["line"], last["trailer"], last["events"]
        if item.get("events") != events or item.get("hash") != self.digest:
            raise BadLog(number, t("the file ends saying {said} events, but it holds {count} or their hashes "
                                   "differ: lines are missing or changed", said=item.get("events"), count=events))
        given = item.get("signature")
        self.signed = (self.key is not None and isinstance(given, str)
                       and hmac.compare_digest(given, signature(self.key, events, self.digest, item["format"])))

    def _resolve(self, number: int, kind: str, plan: _Kind, data: dict) -> None:
        """Every id the data declares is an id, and each it refers to names a stream, link or token
        the file created by then."""
        for path, field, steps, category in plan.defines:
            for value in ((data[field],) if field in data else ()) if field else values_at(data, steps):
                if not isinstance(value, str) or not value:
                    raise BadLog(number, t("{type}: {path} must be an id", type=kind, path=path))
                self.defined.setdefault(category, set()).add(value)
        keys = self.keys
        for path, field, steps, wanted, optional in plan.refers:
            for value in ((data[field],) if field in data else ()) if field else values_at(data, steps):
                if value == "" or (value is None and optional):
                    continue
                if not isinstance(value, str):
                    raise BadLog(number, t("{type}: {path} must be an id, not {value}", type=kind, path=path,
                                           value=repr(value)))
                if (keys.get(value) in wanted or any(value in self.defined.get(c, ()) for c in wanted)
                        or self.outside.intersection(wanted)):
                    continue
                raise BadLog(number, t("{type} refers to {value} ({path}), which is no {wanted} this file "
                                       "creates: a file may only refer to what it holds, never to another campaign",
                                       type=kind, value=repr(value), path=path, wanted=_any_of(wanted)))


_decode, _encode, _SORTED, _sha256 = orjson.loads, orjson.dumps, orjson.OPT_SORT_KEYS, hashlib.sha256


def _unreadable(number: int, line: str) -> BadLog:
    """The refusal of a line that is not JSON Touché accepts, saying why."""
    if not line.strip():
        return BadLog(number, t("empty line"))
    try:
        strictjson.loads(line)
    except strictjson.BadJSON as bad:
        return BadLog(number, t("{problem} (a truncated or damaged file?)", problem=str(bad)))
    raise AssertionError("a line orjson refused was read")  # pragma: no cover



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
    """Check each line and append it, a batch of lines to a statement, in the caller's write
    transaction (which a bad line must roll back). ``advance`` is told each batch's line count.

    A long file is checked and appended at once, on two cores: after ``PARALLEL_AFTER`` batches
    the check goes on in a forked child (``tracker.eventstore.forked``: it carries on with the very pass
    under way), which hands this process each batch's rows while it checks the next; this process
    chains them (``Check.follow``, a fifth of the check's work, which leaves the child, the
    slower side, less to do) and inserts them. The pass's own state (``check.events``...) comes
    back at the end, and a bad line is raised here as it would have been, after the batches
    before it. Where forking is unsafe (another thread runs), one process does it all, as a
    short file does: the same batches, taken in the same order."""
    lines = check.unchained(source)
    for count, batch in enumerate(_batches(lines, BATCH), start=1):
        _take(db, check, batch, advance)
        if count == PARALLEL_AFTER and forked.can_fork():
            break
    else:
        return
    def unchained() -> dict:  # the child's state to take back: this process kept the chain
        return {name: value for name, value in vars(check).items() if name not in Check.CHAIN + Check.KEYS}

    with forked.Ahead(_batches(lines, PIPED_BATCH), unchained) as ahead:
        for batch in ahead:
            _take(db, check, batch, advance)
    vars(check).update(ahead.outcome)


def _batches(lines: Iterator[Line | dict], size: int) -> Iterator[tuple[list[tuple], list[tuple]] | dict]:
    """The checked lines as batches of ``size``: their rows (``line[1:9]``) and, for the chain,
    each one's number and hash; the trailer as it came. Before a bad line is raised, the lines
    checked before it are handed on, so the chain may find a line at fault before it."""
    rows: list[tuple] = []
    hashes: list[tuple[int, str, tuple[str, str] | None]] = []
    try:
        for line in lines:
            if type(line) is dict:  # the trailer: after every line before it
                if rows:
                    yield rows, hashes
                    rows, hashes = [], []
                yield line
                continue
            rows.append(line[1:9])
            hashes.append((line[0], line[11], line[12]))  # its number, hash and the data the chain hashes
            if len(rows) == size:
                yield rows, hashes
                rows, hashes = [], []
    except Exception as bad:
        if (pending := _unchained_line(bad)) is not None:
            rows.append(pending[1:9])
            hashes.append((pending[0], pending[11], pending[12]))
        if rows:
            yield rows, hashes
        raise
    if rows:
        yield rows, hashes


def _unchained_line(bad: Exception) -> Line | None:
    """The line a refusal names when its hash is still to be chained: the chain's refusal of it
    comes first (``Check.unchained``)."""
    return getattr(bad, "unchained", None)


def _take(db, check: Check, batch: tuple[list[tuple], list[tuple]] | dict,
          advance: Callable[[int], None] | None) -> None:
    """One batch chained and inserted, or the trailer held against the chain."""
    if type(batch) is dict:
        check.end(batch)
        return
    rows, hashes = batch
    check.follow(rows, hashes)
    insert_rows(db, rows)
    if advance is not None:
        advance(len(rows))


def import_lines(db, source: Iterable[str], key: bytes | None = None, accept_unsigned: bool = True,
                 progress: Progress = quietly, lines: int = 0, sealer: Sealer | None = None) -> Check:
    """Import a file into an empty log and rebuild the read models from it, in one transaction
    and one pass: every line checked and appended in batches, then the rebuild; a bad line, or an
    unsigned file when ``accept_unsigned`` is off, rolls it all back. ``lines``: how many the
    file holds, when known, for ``progress``; ``sealer`` opens its sealed fields (this
    install's: a file another install sealed is refused)."""
    check = Check(key, sealer=sealer)
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
