"""A backup's lines: the format, the hash chain, the signature and the shape of a line."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import hmac
from functools import partial
from operator import itemgetter
from typing import Any, Callable, ContextManager, NamedTuple

from tracker.domain.events import EVENT_TYPES, upcast
from tracker.backup.references import categories, declared
from tracker.rules.text import Text, t
from tracker.eventstore.store import dumps


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
