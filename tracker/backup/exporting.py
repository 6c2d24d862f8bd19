"""Export: the log written as lines, its sealed fields sealed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any, Callable, Iterator

from tracker import rules
from tracker.projections import queries
from tracker.rules.text import t
from tracker.backup.sealed_fields import Sealer
from tracker.eventstore.store import EventStore, dumps
from tracker.backup.lines import EXPORT_BATCH, FORMAT, Progress, chain, quietly, signature


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
