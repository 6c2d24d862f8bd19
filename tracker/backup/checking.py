"""Checking a backup's lines before anything is written: chain, signature, shape, references."""

from __future__ import annotations

import hashlib
import hmac
from typing import IO, Any, Iterable, Iterator

import orjson

from tracker.backup import strictjson
from tracker.domain.events import from_data, upcast
from tracker.backup.references import values_at
from tracker.rules.text import Text, t
from tracker.backup.sealed_fields import MARKED, Sealer, Unreadable, is_sealed
from tracker.eventstore.store import dumps
from tracker.backup.lines import (
    BadLog, FIELDS, FORMATS, Line, _KINDS, _Kind, _LINE_FIELD_COUNT, _canonical, _kind, _line_fields,
    _new_line, signature,
)
from tracker.backup.exporting import METADATA


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


def _unchained_line(bad: Exception) -> Line | None:
    """The line a refusal names when its hash is still to be chained: the chain's refusal of it
    comes first (``Check.unchained``)."""
    return getattr(bad, "unchained", None)
