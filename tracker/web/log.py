"""The campaign's event log: every event in plain language, filtered, paginated; retraction."""
from flask import Blueprint, redirect, render_template, request, url_for

from tracker import rules
from tracker.bootstrap.db import get_db
from tracker.domain.errors import no_such
from tracker.projections import queries, rewind
from tracker.rules.text import t
from tracker.eventstore.store import EventStore
from tracker.application.services import NotFound
from tracker.web import form_data, page_or_fragment, service
from tracker.web.inputs import int_arg
from tracker.web.redirects import same_site_path
from tracker.web.rejections import shows_form

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
                            types=queries.log_types(), characters=queries.character_names(db, campaign_id))


def current_page_size() -> int:
    from flask import current_app

    return current_app.config["LOG_PAGE_SIZE"]


def _event_page(position: int, template: str = "log/show.html", status: int = 200, **extra):
    db = get_db()
    recorded = EventStore(db).get(position)
    if recorded is None:
        raise NotFound(no_such("event"))
    entry = queries.log_entry(db, position)
    actor = recorded.metadata.get("actor") or ""
    gm = queries.gm(db, actor) if actor else None
    by_seat = str(recorded.metadata.get("principal", "")).startswith("seat:")
    state = queries.stream_state(db, recorded.stream) if recorded.stream.startswith("duel-") else None
    return render_template(template, event=recorded, metadata=shown_metadata(recorded),
                           data=rules.event_seen_by(recorded.type, recorded.data, "gm", state),
                           actor_name=gm["username"] if gm else (t("a player's seat") if by_seat else ""), summary=entry["summary"] if entry else "",
                           retracted_by=entry["retracted_by"] if entry else None,
                           campaign=queries.campaign(db, recorded.campaign_id),
                           stream_version=queries.stream_version(db, recorded.stream),
                           preview=None if entry and entry["retracted_by"] else rewind.preview(db, position), **extra), status


def shown_metadata(recorded) -> dict:
    """An event's metadata as its page shows it: never the command's fingerprint (it is for
    telling a retried command, not for reading), and no command id for what a seat sent or a
    sealed choice (a seat's id is made from what it said)."""
    sealed = rules.sealed_view(recorded.type, recorded.data) != recorded.data
    by_seat = str(recorded.metadata.get("principal", "")).startswith("seat:")
    return {name: value for name, value in recorded.metadata.items()
            if name != "fingerprint" and not (name == "command_id" and (sealed or by_seat))}


@bp.get("/events/<int:position>")
def show(position):
    """Show one event as stored: its data, metadata, whether it was retracted, what retracting it undoes."""
    return _event_page(position)


def _refused_retraction(form, rejected, position):
    return _event_page(position, error=rejected.message)


# One rule for both methods: werkzeug answers 405 rather than 404 when a number too large for the
# converter meets two rules that share a path but not a method.
@bp.route("/events/<int:position>/retract", methods=("GET", "POST"))
@shows_form(_refused_retraction)
def retract(position):
    """Retract an event (appends a retraction; nothing is deleted); a rewind is confirmed first."""
    if request.method == "GET":  # the confirmation, listing every later event it undoes with it
        return _event_page(position, "log/retract.html", next=request.args.get("next", ""))
    form = form_data()
    preview = rewind.preview(get_db(), position)
    if preview and preview["later"] and form.get("confirm") != "rewind":
        return _event_page(position, "log/retract.html", reason=form.get("reason", ""), next=form.get("next", ""))
    service().handle({**form, "type": "RetractEvent", "position": position})
    return redirect(same_site_path(form.get("next") or "") or url_for("log.show", position=position))


@bp.post("/events/<int:position>/restore")
@shows_form(_refused_retraction)
def restore(position):
    """Restore what a retraction took back (appends a restore; only while nothing stands after it)."""
    form = form_data()
    service().handle({**form, "type": "RestoreRetraction", "position": position})
    return redirect(url_for("log.show", position=position))


@bp.get("/streams/<stream>/<int:version>")
def by_stream(stream, version):
    """Show the event at a stream's version (the links wounds and history lines use)."""
    position = queries.event_position(get_db(), stream, version)
    if position is None:
        raise NotFound(no_such("event"))
    return redirect(url_for("log.show", position=position))
