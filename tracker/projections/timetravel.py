"""Time travel's reads: a duel as it stood after any one of its events, and its events around one.

The state after event ``v`` is the duel's stream folded from the log up to ``v`` alone, leaving
out what was retracted by then (what ``engine.refold`` computes): a replay of the log cut at that
event. Those events never change, so states met along the way are remembered in a small memo
(a cache of a pure function, never a second truth): a step folds a few events, not the duel.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from tracker import rules
from tracker.domain.errors import NotFound, no_such
from tracker.projections import engine, replay
from tracker.projections.words import revived
from tracker.rules.contract import Step
from tracker.rules.text import t
from tracker.eventstore.store import EventStore, database_identity

CHECKPOINT_EVERY = 16  # a step back folds at most this many events from a remembered state
MEMO_SIZE = 512


class Memo:
    """States of duel streams at given versions, least recently used dropped first."""

    def __init__(self, size: int = MEMO_SIZE):
        self.size, self.entries, self.lock = size, OrderedDict(), threading.Lock()

    def put(self, key: tuple, position: int, state: dict | None) -> None:
        with self.lock:
            self.entries[key] = (position, state)
            self.entries.move_to_end(key)
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def get(self, key: tuple, position: int):
        """The remembered state, if it was folded from this very event (else None)."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is None or entry[0] != position:
                return None
            self.entries.move_to_end(key)
            return entry


MEMO = Memo()


def _database(store: EventStore) -> str:
    """The file behind the store, so two databases never share a remembered state."""
    return database_identity(store.db)


def state_at(store: EventStore, stream: str, version: int, memo: Memo = MEMO) -> dict | None:
    """The stream's state after its event ``version``: ``engine.refold`` up to it, from the memo."""
    recorded = store.read_stream(stream, version)
    if not recorded:
        return None
    version = recorded[-1].version
    retractions = [rec.event for rec in recorded if rec.type == "EventRetracted"]
    restored = any(rec.type == "RetractionRestored" for rec in recorded)
    if restored or any(ev.scope == "legacy" for ev in retractions):  # read as the rules read it now: replay it all
        return replay.replay(engine.category(stream), recorded).state
    retracted = {v for ev in retractions for v in ev.versions}
    # A remembered state is only good if no retraction came after it (it would change the past).
    floor = max((r.version for r in recorded if r.type == "EventRetracted"), default=0)
    database = _database(store)
    start, state = 0, None
    for v in range(version, max(floor, 1) - 1, -1):
        hit = memo.get((database, stream, v), recorded[v - 1].position)
        if hit is not None:
            start, state = v, hit[1]
            break
    for rec in recorded[start:]:
        if rec.type != "EventRetracted" and rec.version not in retracted:
            state = engine.fold(engine.category(stream), state, rec.event, rec.version)
        if rec.version >= floor and (rec.version % CHECKPOINT_EVERY == 0 or rec.version == version):
            memo.put((database, stream, rec.version), rec.position, state)
    return state


def duel_events(db, duel_id: str, first: int, last: int, limit: int = -1) -> list[dict]:
    """The duel's events from version ``first`` to ``last``, with their log lines and retractions."""
    return revived(list(db.query("SELECT position, version, type, summary, recorded_at, retracted_by FROM log_entries"
                                 " WHERE stream = ? AND version BETWEEN ? AND ? ORDER BY version"
                                 + (" LIMIT ?" if limit >= 0 else ""),
                                 [f"duel-{duel_id}", first, last] + ([limit] if limit >= 0 else []))), "summary")


def duel_row(db, duel_id: str) -> dict:
    """The duel's row, without its (possibly long) current state: the view folds its own."""
    row = next(db.query("SELECT * FROM duels WHERE id = ?", [duel_id]), None)
    if row is None:
        raise NotFound(no_such("duel"))
    return revived([row], "summary", "progress")[0]


def moment_at(store: EventStore, duel_id: str, event: dict) -> dict:
    """What a view of one point needs: the event, the state after it and the ruleset."""
    state = state_at(store, f"duel-{duel_id}", event["version"])
    module = rules.get(state["ruleset"])
    return {"at": event["version"], "event": event, "state": module.seen_by(state, "gm"), "ruleset": module}


# --- steps by turn and round ----------------------------------------------------------------------

STEPS = Memo(64)


def steps(store: EventStore, stream: str, memo: Memo = STEPS) -> list[dict]:
    """The duel's standing events grouped into turns: each ``{"round", "turn", "first", "last"}``
    (versions), in order. A command is never split; consecutive commands the ruleset places in
    the same round and turn (``step_of``, asked with the state before the command) share a step.
    Retracted events and retractions belong to no step: they stay in the raw events."""
    recorded = store.read_stream(stream)
    if not recorded:
        return []
    key = (_database(store), stream, "steps")
    hit = memo.get(key, recorded[-1].position)
    if hit is not None:
        return hit[1]
    # What still stands, as the replay reads it (old retractions and what they left out included).
    standing = replay.replay(engine.category(stream), recorded).live
    found: list[dict] = []
    state, command = None, None
    for rec in standing:
        decision = replay.decision(rec)
        if decision != command:
            command = decision
            step = Step(t("Start")) if state is None else rules.get(state["ruleset"]).step_of(state, rec.event)
            if found and (found[-1]["round"], found[-1]["turn"]) == (step.round, step.turn):
                found[-1]["last"] = rec.version
            else:
                found.append({"round": step.round, "turn": step.turn, "first": rec.version, "last": rec.version})
        found[-1]["last"] = rec.version
        state = engine.fold(engine.category(stream), state, rec.event, rec.version)
    memo.put(key, recorded[-1].position, found)
    return found


def around(found: list[dict], at: int) -> dict:
    """Where version ``at`` stands among the steps: the step holding it (or the last one before
    it), and the versions the previous and next turn and round end at (None past either end)."""
    if not found:
        return {"index": None, "step": None, "prev_turn": None, "next_turn": None, "prev_round": None, "next_round": None}
    index = max((i for i, s in enumerate(found) if s["first"] <= at), default=0)
    here = found[index]
    # "Previous" from inside a step goes to its own start's eve only when past its end: a step is
    # shown as it stood after its last event.
    prev_turn = found[index - 1]["last"] if index > 0 else None
    if at > here["last"]:
        prev_turn = here["last"]
    next_turn = found[index + 1]["last"] if index + 1 < len(found) else None
    if at < here["last"]:
        next_turn = here["last"]
    rounds = [i for i, s in enumerate(found) if i == len(found) - 1 or found[i + 1]["round"] != s["round"]]
    ends = [found[i]["last"] for i in rounds]  # the last version of each round
    prev_round = max((v for v in ends if v < at), default=None)
    next_round = min((v for v in ends if v > at), default=None)
    return {"index": index, "step": here, "prev_turn": prev_turn, "next_turn": next_turn,
            "prev_round": prev_round, "next_round": next_round}
