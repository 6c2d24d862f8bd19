"""Play sessions: planning one, its page with its duels, and setting up a duel in it."""
from flask import Blueprint, current_app, redirect, render_template, request, url_for

from tracker.bootstrap.db import get_db
from tracker.i18n import current_language
from tracker.projections import queries
from tracker.web import form_data, service
from tracker.web.duel_setup import asked, setup_page, side_errors
from tracker.web.inputs import typed_date
from tracker.web.rejections import shows_form
from tracker.domain.workspace import SESSION_FIELDS, session_title

bp = Blueprint("sessions", __name__)


def _new_page(form, rejected, campaign_id):
    return render_template("sessions/new.html", campaign=queries.campaign(get_db(), campaign_id),
                           fields=SESSION_FIELDS, form=form, errors=rejected.fields if rejected else {})


@bp.get("/campaigns/<campaign_id>/sessions/new")
def new(campaign_id):
    """Show the new-session form."""
    number = max([s["number"] for s in queries.sessions(get_db(), campaign_id)] or [0]) + 1
    return _new_page({"number": number, "date": _today()}, None, campaign_id)


def _today() -> str:
    """Today's date (UTC) by the service's clock: a session is usually planned the day it is played."""
    from tracker.application.services import Context

    return (current_app.config.get("SERVICE_CONTEXT") or Context()).now()[:10]


@bp.post("/campaigns/<campaign_id>/sessions")
@shows_form(_new_page)
def create(campaign_id):
    """Plan a play session."""
    queries.campaign(get_db(), campaign_id)  # a campaign this GM cannot open is a 404 before any field
    outcome = service().handle({**_session_form(), "type": "PlanSession", "campaign_id": campaign_id})
    return redirect(url_for("sessions.show", session_id=outcome.key))


@bp.get("/sessions/<session_id>")
def show(session_id, rest_error=""):
    """Show a session and its duels."""
    db = get_db()
    session = dict(queries.session(db, session_id), closed=queries.session_closed(db, session_id))
    characters = queries.characters(db, session["campaign_id"])
    status = 422 if rest_error else 200
    return render_template("sessions/show.html", session=session,
                           campaign=queries.campaign(db, session["campaign_id"]),
                           duels=queries.duels_of_session(db, session_id), rest_error=rest_error,
                           rested=request.args.get("rested") == "1",
                           player_characters=[c["id"] for c in characters if c["rank"] == "pj"],
                           character_names={c["id"]: c["name"] for c in characters}), status


def _edit_page(form, rejected, session_id):
    session = queries.session(get_db(), session_id)
    return render_template("sessions/edit.html", session=session,
                           campaign=queries.campaign(get_db(), session["campaign_id"]), fields=SESSION_FIELDS,
                           form=form if form is not None else dict(session, expected_version=session["version"],
                                                                   title=str(session_title(session["title"], session["date"]))),
                           errors=rejected.fields if rejected else {})


@bp.get("/sessions/<session_id>/edit")
def edit(session_id):
    """Show the form editing a session's number, date, title and notes."""
    return _edit_page(None, None, session_id)


@bp.post("/sessions/<session_id>/edit")
@shows_form(_edit_page)
def update(session_id):
    """Edit a session."""
    queries.session(get_db(), session_id)  # a 404 before any field
    service().handle({**_session_form(), "type": "EditSession", "session_id": session_id})
    return redirect(url_for("sessions.show", session_id=session_id))


def _session_form() -> dict:
    """The session form as sent, its date read as the GM's language writes one (29/11/2026 in Spanish)."""
    form = form_data()
    form["date"] = typed_date(form.get("date"), current_language())
    return form


def _duel_form(form, rejected, session_id):
    db = get_db()
    session = queries.session(db, session_id)
    return setup_page(queries.campaign(db, session["campaign_id"]), session, form, side_errors(rejected),
                      422 if rejected else 200)[0]


@bp.get("/sessions/<session_id>/duels/new")
def new_duel(session_id):
    """Show the duel set-up form, narrowed to the chosen ruleset and kind."""
    db = get_db()
    session = queries.session(db, session_id)
    return setup_page(queries.campaign(db, session["campaign_id"]), session, asked())


@bp.post("/sessions/<session_id>/duels")
@shows_form(_duel_form)
def start_duel(session_id):
    """Start a duel in this session."""
    queries.session(get_db(), session_id)  # a session this GM cannot open is a 404 before any field
    outcome = service().handle({**form_data(), "type": "StartDuel", "session_id": session_id})
    return redirect(url_for("duels.show", duel_id=outcome.key))
