"""A campaign's log imported as a new campaign of the importing GM, beside the others.

The file is checked whole first, taking no lock (``tracker.backup.Check``: the chain, the shapes,
and every id it refers to naming something it creates). Then, in one write transaction, it is
read again and each line appended and projected with fresh ids: the campaign's, its characters',
sessions', duels' and player links', swapped wherever the event types declare an id
(``tracker.backup.references``). So a campaign can be imported into the very install it came from,
and no line can reach another campaign. Sharing is this install's access, not part of the
campaign's story: co-GM lines are left out, and the importing GM owns the copy alone.
"""
from __future__ import annotations

import bisect
import secrets
from typing import Callable, Iterable

from tracker.backup import BATCH, BadLog, Check, Line, passes
from tracker.domain.events import EVENT_TYPES
from tracker.projections.engine import Projector
from tracker.backup.references import categories, declared, rewrite
from tracker.rules.text import t
from tracker.backup.sealed_fields import Sealer
from tracker.eventstore.store import Conflict, EventStore, dumps, write_transaction

CAMPAIGN_STREAMS = ("campaign", "character", "session", "duel")
SHARING = frozenset({"CoGMAdded", "CoGMRemoved"})


def import_campaign(db, source: Iterable[str], owner: str, new_id: Callable[[], str],
                    key: bytes | None = None, advance: Callable[[int], None] | None = None,
                    sealer: Sealer | None = None) -> tuple[str, Check]:
    """Check a campaign's log, then append and project it with fresh ids, all or nothing; the
    new campaign's id and the check (which tells whether this install signed the file).
    ``advance`` is told the lines gone through, every ``BATCH`` lines of either pass; ``sealer``
    opens the sealed fields this install wrote (``tracker.backup.sealed_fields``)."""
    advance = advance or (lambda _lines: None)
    first = Check(key, outside={"gm"}, sealer=sealer)
    campaign = None
    for line in first.lines(passes(source)):
        campaign = _in_one_campaign(line, campaign)
        if line.number % BATCH == 0:
            advance(BATCH)
    advance(first.events % BATCH)
    if campaign is None:
        raise BadLog(1, t("no CampaignCreated event: this is not a campaign's log"))
    copy = _Copy(owner, new_id)
    second = Check(key, outside={"gm"}, sealer=sealer)
    store = EventStore(db)
    with write_transaction(db):
        projector = Projector(db, store, rebuilding=True)
        batch: list[tuple[int, tuple]] = []
        for line in second.lines(passes(source)):
            row = copy.row(line, campaign)
            if row is not None:
                batch.append((line.number, row))
            if len(batch) >= BATCH:
                _append(store, projector, batch)
                advance(len(batch))
                batch = []
        _append(store, projector, batch)
        advance(len(batch))
        projector.flush()
        if second.events != first.events:
            raise BadLog(0, t("the file changed while it was being imported: import it again"))
    return copy.ids[campaign], second


def _in_one_campaign(line: Line, campaign: str | None) -> str:
    """The campaign's old id, once the line is known to belong to it."""
    category, key = line.stream.split("-", 1)
    if category not in CAMPAIGN_STREAMS:
        raise BadLog(line.number, t("{stream} is not part of a campaign: export one campaign from its page",
                                     stream=line.stream))
    if line.type == "CampaignCreated":
        if campaign is not None:
            raise BadLog(line.number, t("a second campaign: import one campaign at a time"))
        campaign = key
    if campaign is None:
        raise BadLog(line.number, t("this is not a campaign's log: it must open with CampaignCreated"))
    if line.metadata.get("campaign_id") != campaign:
        raise BadLog(line.number, t("this event belongs to another campaign"))
    return campaign


class _Copy:
    """Turns the file's lines into the copy's rows: fresh ids, the importer as owner, no sharing."""

    def __init__(self, owner: str, new_id: Callable[[], str]):
        self.owner, self.new_id = owner, new_id
        self.ids: dict[str, str] = {}  # stream key -> fresh key
        self.links: dict[str, str] = {}
        self.left_out: dict[str, list[int]] = {}  # stream -> versions not copied

    def row(self, line: Line, campaign: str) -> tuple | None:
        if line.type in SHARING:
            self.left_out.setdefault(line.stream, []).append(line.version)
            return None
        category, key = line.stream.split("-", 1)
        if line.version == 1:
            self.ids[key] = self.new_id()
        data = self._owned(line.type, rewrite(line.type, line.current_data, self._fresh))
        if line.type == "RetractionRestored":
            data = {**data, "version": self._version(line.stream, data["version"])}
        if line.type == "EventRetracted":
            data = {**data, "version": self._version(line.stream, data["version"]),
                    "consequences": [self._version(line.stream, v) for v in data.get("consequences", ())]}
        # No command id: a command replayed here must not find the original campaign's events.
        metadata = {**line.metadata, "campaign_id": self.ids[campaign], "command_id": None}
        return (f"{category}-{self.ids[key]}", self._version(line.stream, line.version), line.type,
                EVENT_TYPES[line.type].SCHEMA, dumps(data), dumps(metadata), None)

    def _owned(self, kind: str, data: dict) -> dict:
        """Every GM a line of the copy names is the importer, also where the file left the field
        empty or out: an empty owner would make the copy every GM's."""
        for path, steps, wanted in declared(kind, "REFERENCES"):
            if categories(wanted) == ("gm",) and len(steps) == 1:
                data = {**data, path: self.owner}
        return data

    def _fresh(self, category: str, old: str) -> str:
        if category == "gm":
            return self.owner
        if category == "link":
            return self.links.setdefault(old, secrets.token_hex(8))
        return self.ids[old]

    def _version(self, stream: str, version: int) -> int:
        """The version in the copy, where lines left out no longer count."""
        return version - bisect.bisect_left(self.left_out.get(stream, []), version)


def _append(store: EventStore, projector: Projector, batch: list[tuple[int, tuple]]) -> None:
    if not batch:
        return
    try:
        recorded = store.append_rows([row for _, row in batch])
    except Conflict as clash:
        raise BadLog(0, t("an id of the file clashes with {stream}: import again", stream=clash.stream)) from None
    for (number, _), rec in zip(batch, recorded):
        try:
            projector.apply(rec)
        except Exception as problem:  # whatever the rules cannot fold refuses the whole file
            raise BadLog(number, t("{type} cannot be folded: {problem}", type=rec.type, problem=str(problem))) from None
