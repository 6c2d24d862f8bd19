"""What a retraction would undo, in plain language, for the GM to see before confirming it.

It asks ``replay.plan`` — the very plan the retraction command decides with — and reads each
event's log line, so the page says exactly what the command will take back.
"""
from __future__ import annotations

from typing import Any

from tracker import rules
from tracker.domain.workspace import UNRETRACTABLE
from tracker.projections import replay
from tracker.projections.schema import LINES_OF_STREAM
from tracker.projections.words import read
from tracker.rules.base import ImpossibleHistory
from tracker.eventstore.store import EventStore


def preview(db, position: int) -> dict[str, Any] | None:
    """The events a retraction of the event at ``position`` takes back besides it, and how its
    stream stands afterwards; None when it is no longer standing (retracted, or a retraction)."""
    store = EventStore(db)
    target = store.get(position)
    if target is None or target.type == replay.RETRACTION:
        return None
    kind = replay.category(target.stream)
    past = replay.replay(kind, store.read_stream(target.stream))
    group, carried = replay.plan(kind, past, target.version)
    if not group or any(r.type in UNRETRACTABLE for r in group):
        return None  # the command refuses it, saying why
    taken = {r.version for r in group} | set(carried)
    lines = dict(db.execute(
        f"SELECT e.version, l.summary FROM {LINES_OF_STREAM} AND e.version IN ({', '.join('?' * len(taken))})",
        [target.stream, *sorted(taken)]).fetchall())
    undone = [{"version": v, "summary": read(lines.get(v, "")), "later": v > target.version}
              for v in sorted(taken) if v != target.version]
    preview = {"undone": undone, "later": sum(1 for u in undone if u["later"]), "rewind": bool(carried),
               "ending": None, "after": "", "first": min(taken), "broken": ""}
    if kind == "duel" and past.state is not None:
        try:
            after = replay.state_without(kind, past, taken)
        except ImpossibleHistory as broken:  # the command will refuse it, saying why
            preview["broken"] = str(broken)
            return preview
        if after is None:
            return preview
        if past.state["outcome"] and not after["outcome"]:
            preview["ending"] = past.state["outcome"]["summary"]
        preview["after"] = rules.get(past.state["ruleset"]).progress(after)
    return preview


def rewind_point(db, stream: str, at: int) -> int | None:
    """The log position whose retraction rewinds the stream to just after its event ``at``: the
    first event still standing after it that carries the rest (an event the rules let stand alone,
    such as a note, is passed over: a rewind leaves it standing anyway); None when nothing stands
    after ``at``."""
    kind = replay.category(stream)
    past = replay.replay(kind, EventStore(db).read_stream(stream))
    after = [r for r in past.live if r.version > at]
    for rec in after:
        group, carried = replay.plan(kind, past, rec.version)
        if carried or rec is after[-1] or all(r.version <= max(g.version for g in group) for r in after):
            return rec.position
    return None
