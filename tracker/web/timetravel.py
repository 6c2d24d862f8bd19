"""Time travel: a duel as it stood after any one of its events, and two such moments side by side
(the states come from ``tracker.projections.timetravel``). The GM also issues and revokes the
duel's table-display links here.
"""
from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for

from tracker.bootstrap.db import get_db
from tracker.domain.errors import no_such
from tracker.projections import queries, rewind
from tracker.projections.timetravel import around, duel_events, duel_row, moment_at, steps
from tracker.application.services import NotFound
from tracker.eventstore.store import EventStore
from tracker.web import is_htmx, service
from tracker.web.inputs import int_arg
from tracker.web.player import shared_url, sign

bp = Blueprint("timetravel", __name__)

WINDOW = 20  # events listed on either side of the one shown
BETWEEN = 200  # events listed between two compared ones


def _version(name: str, last: int, default: int) -> int:
    return min(max(int_arg(name, default), 1), last)


@bp.get("/duels/<duel_id>/travel")
def travel(duel_id):
    """Show the duel as it stood after one of its events (``at``; the latest by default)."""
    db = get_db()
    duel = duel_row(db, duel_id)
    last = duel["version"]
    at = _version("at", last, last)
    # The events around this one: a step costs the same in a duel of 20 events or of 2,000.
    events = duel_events(db, duel_id, max(1, at - WINDOW), at + WINDOW)
    store = EventStore(db)
    moment = moment_at(store, duel_id, events[at - events[0]["version"]])
    turns = steps(store, f"duel-{duel_id}")
    context = dict(duel=duel, events=events, last=last, moment=moment, turns=turns, where=around(turns, at),
                   campaign=queries.campaign(db, duel["campaign_id"]))
    # A history restore (back to a step no longer cached) wants the whole page, as a reload does.
    fragment = is_htmx() and request.headers.get("HX-History-Restore-Request") != "true"
    page = render_template("timetravel/_travel.html" if fragment else "timetravel/show.html", **context)
    return page, 200, {"Vary": "HX-Request, HX-History-Restore-Request"}


@bp.get("/duels/<duel_id>/rewind")
def rewind_to(duel_id):
    """Ask to rewind the duel to just after its event ``to``: the retraction's confirmation page."""
    duel = duel_row(get_db(), duel_id)
    at = _version("to", duel["version"], duel["version"])
    position = rewind.rewind_point(get_db(), f"duel-{duel_id}", at)
    if position is None:  # nothing stands after it: the duel already stands there
        return redirect(url_for("timetravel.travel", duel_id=duel_id, at=at))
    return redirect(url_for("log.retract", position=position, next=url_for("duels.show", duel_id=duel_id)))


@bp.get("/duels/<duel_id>/compare")
def compare(duel_id):
    """Show the duel after two of its events side by side, and what happened in between."""
    db = get_db()
    duel = duel_row(db, duel_id)
    last = duel["version"]
    a, b = sorted((_version("a", last, max(last - 1, 1)), _version("b", last, last)))
    store = EventStore(db)
    left, right = (moment_at(store, duel_id, duel_events(db, duel_id, v, v)[0]) for v in (a, b))
    return render_template("timetravel/compare.html", duel=duel, last=last, left=left, right=right,
                           between=duel_events(db, duel_id, a + 1, b, limit=BETWEEN),
                           campaign=queries.campaign(db, duel["campaign_id"]))


# --- the table display's links ---------------------------------------------------------------

@bp.app_template_global()
def display_links(duel_id: str) -> list[dict]:
    """The duel's table-display links still in force, each with the address to share."""
    return [{"link_id": link_id, "url": shared_url("player.display", token=sign(link_id))}
            for link_id in queries.display_link_ids(get_db(), duel_id)]


def _links_panel(duel_id: str):
    if is_htmx():
        return render_template("timetravel/_links.html", duel=queries.duel(get_db(), duel_id))
    return redirect(url_for("duels.show", duel_id=duel_id) + "#display-links")


@bp.post("/duels/<duel_id>/display-links")
def issue_display_link(duel_id):
    """Issue a signed link to the duel's table display."""
    service().handle({"type": "IssuePlayerLink", "link_kind": "display", "target": duel_id})
    return _links_panel(duel_id)


@bp.post("/duels/<duel_id>/display-links/<link_id>/revoke")
def revoke_display_link(duel_id, link_id):
    """Revoke one of the duel's display links: it stops working at once."""
    if link_id not in {link["link_id"] for link in display_links(duel_id)}:
        raise NotFound(no_such("link"))
    service().handle({"type": "RevokePlayerLink", "link_id": link_id})
    return _links_panel(duel_id)
