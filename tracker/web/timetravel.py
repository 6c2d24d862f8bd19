"""Time travel: a duel as it stood after any one of its events, and two such moments side by side.

The state after event ``v`` is the duel's stream folded from the log up to ``v`` alone, leaving
out what was retracted by then (what ``engine.refold`` computes): a replay of the log cut at that
event. Those events never change, so states met along the way are remembered in a small memo
(a cache of a pure function, never a second truth): a step folds a few events, not the duel.
The GM also issues and revokes the duel's table-display links here.
"""
from __future__ import annotations

import threading
from collections import OrderedDict

from flask import Blueprint, current_app, has_app_context, redirect, render_template, request, url_for

from tracker import rules
from tracker.db import get_db
from tracker.projections import engine, queries, replay, rewind
from tracker.services import NotFound
from tracker.store import EventStore
from tracker.web import is_htmx, service
from tracker.web.inputs import int_arg
from tracker.web.player import shared_url, sign

bp = Blueprint("timetravel", __name__)

CHECKPOINT_EVERY = 16  # a step back folds at most this many events from a remembered state
MEMO_SIZE = 512
WINDOW = 20  # events listed on either side of the one shown
BETWEEN = 200  # events listed between two compared ones


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


def state_at(store: EventStore, stream: str, version: int, memo: Memo = MEMO) -> dict | None:
    """The stream's state after its event ``version``: ``engine.refold`` up to it, from the memo."""
    recorded = store.read_stream(stream, version)
    if not recorded:
        return None
    version = recorded[-1].version
    retractions = [rec.event for rec in recorded if rec.type == "EventRetracted"]
    if any(ev.scope == "legacy" for ev in retractions):  # read as the rules read it now: replay it all
        return replay.replay(engine.category(stream), recorded).state
    retracted = {v for ev in retractions for v in ev.versions}
    # A remembered state is only good if no retraction came after it (it would change the past).
    floor = max((r.version for r in recorded if r.type == "EventRetracted"), default=0)
    database = current_app.config["DATABASE"] if has_app_context() else ""
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
    cursor = db.execute("SELECT position, version, type, summary, recorded_at, retracted_by FROM log_entries"
                        " WHERE stream = ? AND version BETWEEN ? AND ? ORDER BY version LIMIT ?",
                        [f"duel-{duel_id}", first, last, limit])
    names = [c[0] for c in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _duel(db, duel_id: str) -> dict:
    """The duel's row, without its (possibly long) current state: the view folds its own."""
    cursor = db.execute("SELECT * FROM duels WHERE id = ?", [duel_id])
    row = cursor.fetchone()
    if row is None:
        raise NotFound("no such duel")
    return dict(zip([c[0] for c in cursor.description], row))


def _moment(store: EventStore, duel_id: str, event: dict) -> dict:
    """What a view of one point needs: the event, the state after it and the ruleset."""
    state = state_at(store, f"duel-{duel_id}", event["version"])
    return {"at": event["version"], "event": event, "state": state, "ruleset": rules.get(state["ruleset"])}


def _version(name: str, last: int, default: int) -> int:
    return min(max(int_arg(name, default), 1), last)


@bp.get("/duels/<duel_id>/travel")
def travel(duel_id):
    """Show the duel as it stood after one of its events (``at``; the latest by default)."""
    db = get_db()
    duel = _duel(db, duel_id)
    last = duel["version"]
    at = _version("at", last, last)
    # The events around this one: a step costs the same in a duel of 20 events or of 2,000.
    events = duel_events(db, duel_id, max(1, at - WINDOW), at + WINDOW)
    moment = _moment(EventStore(db), duel_id, events[at - events[0]["version"]])
    context = dict(duel=duel, events=events, last=last, moment=moment,
                   campaign=queries.campaign(db, duel["campaign_id"]))
    # A history restore (back to a step no longer cached) wants the whole page, as a reload does.
    fragment = is_htmx() and request.headers.get("HX-History-Restore-Request") != "true"
    page = render_template("timetravel/_travel.html" if fragment else "timetravel/show.html", **context)
    return page, 200, {"Vary": "HX-Request, HX-History-Restore-Request"}


@bp.get("/duels/<duel_id>/rewind")
def rewind_to(duel_id):
    """Ask to rewind the duel to just after its event ``to``: the retraction's confirmation page."""
    duel = _duel(get_db(), duel_id)
    at = _version("to", duel["version"], duel["version"])
    position = rewind.rewind_point(get_db(), f"duel-{duel_id}", at)
    if position is None:  # nothing stands after it: the duel already stands there
        return redirect(url_for("timetravel.travel", duel_id=duel_id, at=at))
    return redirect(url_for("log.retract", position=position, next=url_for("duels.show", duel_id=duel_id)))


@bp.get("/duels/<duel_id>/compare")
def compare(duel_id):
    """Show the duel after two of its events side by side, and what happened in between."""
    db = get_db()
    duel = _duel(db, duel_id)
    last = duel["version"]
    a, b = sorted((_version("a", last, max(last - 1, 1)), _version("b", last, last)))
    store = EventStore(db)
    left, right = (_moment(store, duel_id, duel_events(db, duel_id, v, v)[0]) for v in (a, b))
    return render_template("timetravel/compare.html", duel=duel, last=last, left=left, right=right,
                           between=duel_events(db, duel_id, a + 1, b, limit=BETWEEN),
                           campaign=queries.campaign(db, duel["campaign_id"]))


# --- the table display's links ---------------------------------------------------------------

@bp.app_template_global()
def display_links(duel_id: str) -> list[dict]:
    """The duel's table-display links still in force, each with the address to share."""
    rows = get_db().execute("SELECT link_id FROM player_links WHERE kind = 'display' AND target = ?"
                            " AND revoked = 0 ORDER BY rowid", [duel_id]).fetchall()
    return [{"link_id": link_id, "url": shared_url("player.display", token=sign(link_id))}
            for (link_id,) in rows]


def _links_panel(duel_id: str):
    if is_htmx():
        return render_template("timetravel/_links.html", duel=queries.duel(get_db(), duel_id))
    return redirect(url_for("duels.show", duel_id=duel_id) + "#display-links")


@bp.post("/duels/<duel_id>/display-links")
def issue_display_link(duel_id):
    """Issue a signed link to the duel's table display."""
    service().handle({"type": "IssuePlayerLink", "kind": "display", "target": duel_id})
    return _links_panel(duel_id)


@bp.post("/duels/<duel_id>/display-links/<link_id>/revoke")
def revoke_display_link(duel_id, link_id):
    """Revoke one of the duel's display links: it stops working at once."""
    if link_id not in {link["link_id"] for link in display_links(duel_id)}:
        raise NotFound("no such link")
    service().handle({"type": "RevokePlayerLink", "link_id": link_id})
    return _links_panel(duel_id)
