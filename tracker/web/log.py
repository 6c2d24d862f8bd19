"""The campaign's event log: every event in plain language, filtered, paginated; retraction."""
from flask import Blueprint, redirect, render_template, request, url_for

from tracker.db import get_db
from tracker.projections import queries
from tracker.rules.base import Invalid, Refused
from tracker.store import EventStore
from tracker.services import NotFound
from tracker.web import form_data, page_or_fragment, service
from tracker.web.inputs import int_arg

bp = Blueprint("log", __name__)


def _filters() -> dict:
    args = request.args
    return {"category": args.get("category") or None, "type_name": args.get("type") or None,
            "subject": args.get("subject") or None, "before": int_arg("before")}


@bp.get("/campaigns/<campaign_id>/log")
def index(campaign_id):
    """Show the campaign's log, newest first."""
    db = get_db()
    campaign = queries.campaign(db, campaign_id)
    filters = _filters()
    page = queries.log_page(db, campaign_id, limit=current_page_size(), **filters)
    return page_or_fragment("log/index.html", "log/_entries.html", campaign=campaign, page=page,
                            filters=filters, categories=queries.LOG_CATEGORIES,
                            types=queries.log_types(), characters=queries.characters(db, campaign_id))


def current_page_size() -> int:
    from flask import current_app

    return current_app.config["LOG_PAGE_SIZE"]


@bp.get("/events/<int:position>")
def show(position):
    """Show one event as stored: its data, metadata, and whether it was retracted."""
    db = get_db()
    recorded = EventStore(db).get(position)
    if recorded is None:
        raise NotFound("no such event")
    entry = queries.log_entry(db, position)
    return render_template("log/show.html", event=recorded, summary=entry["summary"] if entry else "",
                           retracted_by=entry["retracted_by"] if entry else None,
                           campaign=queries.campaign(db, recorded.campaign_id),
                           stream_version=queries.stream_version(db, recorded.stream))


@bp.post("/events/<int:position>/retract")
def retract(position):
    """Retract an event (appends a retraction; nothing is deleted)."""
    form = form_data()
    try:
        service().handle({**form, "type": "RetractEvent", "position": position})
    except (Invalid, Refused) as no:
        message = no.reason if isinstance(no, Refused) else "; ".join(f"{k} {v}" for k, v in no.errors.items())
        db = get_db()
        recorded = EventStore(db).get(position)
        return render_template("log/show.html", event=recorded, summary="", retracted_by=None,
                               campaign=queries.campaign(db, recorded.campaign_id), error=message,
                               stream_version=queries.stream_version(db, recorded.stream)), 422
    back = form.get("next") or url_for("log.show", position=position)
    return redirect(back if back.startswith("/") and not back.startswith("//") else url_for("log.show", position=position))


@bp.get("/streams/<stream>/<int:version>")
def by_stream(stream, version):
    """Show the event at a stream's version (the links wounds and history lines use)."""
    position = queries.event_position(get_db(), stream, version)
    if position is None:
        raise NotFound("no such event")
    return redirect(url_for("log.show", position=position))
