"""A stream's past read from the log alone: what its retractions took back, and its state.

A retraction names every version it took back (``EventRetracted.versions``): the event, the rest
of its command, and in a duel every later event the ruleset says stands on it
(``retraction_carries``, see ``tracker.rules``). ``plan`` works that out, the same way when the
GM is asked to confirm and when the retraction is decided.

A retraction recorded before they named what they carried (schema 1, ``scope == "legacy"``)
named only its command's events, and left the later ones standing on a state that no longer
existed. It is read now as the rules read a retraction today: in a duel, a rewind to just before
its command (everything the ruleset carries, up to the retraction). Commands appended after such
an old retraction were decided on the duel the old reading left; one that no longer fits the
rewound duel (its fold raises ``ImpossibleHistory``) is left out whole, as if retracted with it.
Nowhere else is anything left out: in a stream without old retractions, an impossible history
raises.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tracker import rules
from tracker.domain import accounts, workspace
from tracker.rules.base import ImpossibleHistory
from tracker.rules.duel import DuelStarted
from tracker.eventstore.store import Recorded

RETRACTION = "EventRetracted"
RESTORE = "RetractionRestored"
CORRECTIONS = (RETRACTION, RESTORE)  # events about other events: never folded into a state


def category(stream: str) -> str:
    return stream.split("-", 1)[0]


def domain(stream_category: str, state: dict | None, ev: Any):
    """The module whose evolve and describe own this stream: a ruleset for a duel."""
    if stream_category == "duel":
        return rules.get(ev.ruleset if isinstance(ev, DuelStarted) else state["ruleset"])
    return accounts if stream_category == "gm" else workspace


def fold(stream_category: str, state: dict | None, ev: Any, at: int) -> dict:
    """Fold one event into its stream's state, whichever kind of stream it is."""
    return domain(stream_category, state, ev).evolve(state, ev, at)


def decision(rec: Recorded) -> int:
    """The version of the first event its command appended (its own, when not recorded)."""
    return rec.metadata.get("decision", rec.version)


@dataclass
class Past:
    """A stream replayed: its state, and which versions are out of it and why."""

    state: dict | None = None
    live: list[Recorded] = field(default_factory=list)  # folded, in order
    taken: dict[int, tuple[int, ...]] = field(default_factory=dict)  # retraction version -> versions
    void: dict[int, int] = field(default_factory=dict)  # left out after an old retraction -> its version
    void_groups: set[int] = field(default_factory=set)  # the commands left out whole
    restored: set[int] = field(default_factory=set)  # retractions a restore took back

    @property
    def gone(self) -> set[int]:
        return {v for versions in self.taken.values() for v in versions} | set(self.void)


def plan(stream_category: str, past: Past, target_version: int) -> tuple[list[Recorded], list[int]]:
    """What retracting ``target_version`` takes back: (its command's live events, the later live
    versions the stream's rules carry with it). Outside a duel nothing later is carried."""
    group_of = {r.version: decision(r) for r in past.live}
    if target_version not in group_of:
        return [], []
    group = [r for r in past.live if decision(r) == group_of[target_version]]
    first = group[0]
    later = [(r.version, r.event) for r in past.live if r.version > first.version and r not in group]
    carries = getattr(domain(stream_category, past.state, first.event), "retraction_carries", None)
    chosen = set(carries(first.event, later)) if carries and later else set()
    # A command goes whole: carrying any of its events carries them all.
    groups = {group_of[v] for v in chosen if v in group_of}
    carried = sorted(r.version for r in past.live if group_of[r.version] in groups and r not in group)
    return group, carried


def state_without(stream_category: str, past: Past, versions: set[int]) -> dict | None:
    """The stream's state with ``versions`` taken back too (what a retraction would leave); raises
    ``ImpossibleHistory`` when what stays could not have happened without them."""
    state = None
    for rec in past.live:
        if rec.version not in versions:
            state = fold(stream_category, state, rec.event, rec.version)
    return state


def replay(stream_category: str, recorded: list[Recorded]) -> Past:
    """The stream folded from its records (in version order), retractions applied."""
    past, legacy_at = Past(), 0
    for index, rec in enumerate(recorded):
        if rec.type == RESTORE:  # what the retraction took back stands again
            past.taken.pop(rec.event.version, None)
            past.restored.add(rec.event.version)
            past = _refold(stream_category, recorded[:index], past.taken, past.void, legacy_at, past.restored)
            continue
        if rec.type != RETRACTION:
            _add(stream_category, past, rec, legacy_at)
            continue
        ev = rec.event
        versions = set(ev.versions)
        if ev.scope == "legacy":
            group, carried = plan(stream_category, past, ev.version)
            versions |= {r.version for r in group} | set(carried)
            legacy_at = rec.version
        past.taken[rec.version] = tuple(sorted(versions))
        past = _refold(stream_category, recorded[:index], past.taken, past.void, legacy_at, past.restored)
    return past


def _refold(stream_category: str, recorded: list[Recorded], taken: dict, void: dict, legacy_at: int,
            restored: set) -> Past:
    """The records folded again from the start, without what is taken back or was left out."""
    past = Past(taken=dict(taken), void=dict(void), void_groups=set(), restored=set(restored))
    gone = past.gone
    for rec in recorded:
        if rec.type not in CORRECTIONS and rec.version not in gone:
            _add(stream_category, past, rec, legacy_at)
    return past


def _add(stream_category: str, past: Past, rec: Recorded, legacy_at: int) -> None:
    """Fold one record in; after an old retraction, a command that no longer fits goes whole."""
    group = decision(rec)
    if group in past.void_groups:
        past.void[rec.version] = legacy_at
        return
    try:
        past.state = fold(stream_category, past.state, rec.event, rec.version)
    except ImpossibleHistory:
        if not legacy_at:
            raise
        for r in past.live:
            if decision(r) == group:
                past.void[r.version] = legacy_at
        past.void[rec.version] = legacy_at
        past.void_groups.add(group)
        past.live = [r for r in past.live if decision(r) != group]
        past.state = None
        for r in past.live:
            past.state = fold(stream_category, past.state, r.event, r.version)
        return
    past.live.append(rec)


def standing_after(past: Past, recorded: list[Recorded], version: int) -> list[int]:
    """What still stands after the retraction at ``version``: the live events logged after it, and
    the retractions in force after it. Restoring it is sound only when there are none: the stream
    then returns exactly to the state it had just before the retraction, a state the rules reached."""
    later_live = [r.version for r in past.live if r.version > version]
    later_retractions = [r.version for r in recorded if r.type == RETRACTION and r.version > version
                         and r.version in past.taken]
    return later_live + later_retractions
