"""Play sessions: planning one, its page with its duels, and setting up a duel in it."""
from flask import Blueprint, redirect, render_template, request, url_for

from tracker import rules
from tracker.db import get_db
from tracker.projections import queries
from tracker.rules.base import Invalid, Refused
from tracker.handlers.duels import START_FIELDS
from tracker.web import form_data, service
from tracker.workspace import SESSION_FIELDS

bp = Blueprint("sessions", __name__)


@bp.get("/campaigns/<campaign_id>/sessions/new")
def new(campaign_id):
    """Show the new-session form."""
    campaign = queries.campaign(get_db(), campaign_id)
    number = max([s["number"] for s in queries.sessions(get_db(), campaign_id)] or [0]) + 1
    return render_template("sessions/new.html", campaign=campaign, fields=SESSION_FIELDS,
                           form={"number": number}, errors={})


@bp.post("/campaigns/<campaign_id>/sessions")
def create(campaign_id):
    """Plan a play session."""
    campaign = queries.campaign(get_db(), campaign_id)
    form = form_data()
    try:
        outcome = service().handle({**form, "type": "PlanSession", "campaign_id": campaign_id})
    except Invalid as bad:
        return render_template("sessions/new.html", campaign=campaign, fields=SESSION_FIELDS,
                               form=form, errors=bad.errors), 422
    return redirect(url_for("sessions.show", session_id=outcome.key))


@bp.get("/sessions/<session_id>")
def show(session_id):
    """Show a session and its duels."""
    db = get_db()
    session = queries.session(db, session_id)
    return render_template("sessions/show.html", session=session,
                           campaign=queries.campaign(db, session["campaign_id"]),
                           duels=queries.duels_of_session(db, session_id))


def _duel_form(session, form, errors, status=200):
    db = get_db()
    campaign = queries.campaign(db, session["campaign_id"])
    ruleset = form.get("ruleset") if form.get("ruleset") in rules.RULESETS else campaign["ruleset"]
    return render_template("sessions/new_duel.html", session=session, campaign=campaign,
                           characters=queries.characters(db, campaign["id"]), ruleset=rules.get(ruleset),
                           start_fields=START_FIELDS, form=form, errors=errors), status


@bp.get("/sessions/<session_id>/duels/new")
def new_duel(session_id):
    """Show the duel set-up form for a ruleset."""
    db = get_db()
    session = queries.session(db, session_id)
    campaign = queries.campaign(db, session["campaign_id"])
    ruleset = request.args.get("ruleset", "")
    # The campaign's own settings for the ruleset (its insult table…) pre-fill the terms.
    return _duel_form(session, {**campaign["rules"].get(ruleset, {}), "ruleset": ruleset}, {})


@bp.post("/sessions/<session_id>/duels")
def start_duel(session_id):
    """Start a duel in this session."""
    session = queries.session(get_db(), session_id)
    form = form_data()
    try:
        outcome = service().handle({**form, "type": "StartDuel", "session_id": session_id})
    except Invalid as bad:
        return _duel_form(session, form, bad.errors, 422)
    except Refused as no:
        field = (no.field or "__all__").replace("duelist_", "side_")
        return _duel_form(session, form, {field: no.reason}, 422)
    return redirect(url_for("duels.show", duel_id=outcome.key))
