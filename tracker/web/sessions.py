"""Play sessions: planning one, its page with its duels, and setting up a duel in it."""
from flask import Blueprint, redirect, render_template, request, url_for

from tracker import rules
from tracker.db import get_db
from tracker.projections import queries
from tracker.commands import START_FIELDS
from tracker.web import form_data, service
from tracker.web.rejections import shows_form
from tracker.workspace import SESSION_FIELDS

bp = Blueprint("sessions", __name__)


def _new_page(form, rejected, campaign_id):
    return render_template("sessions/new.html", campaign=queries.campaign(get_db(), campaign_id),
                           fields=SESSION_FIELDS, form=form, errors=rejected.fields if rejected else {})


@bp.get("/campaigns/<campaign_id>/sessions/new")
def new(campaign_id):
    """Show the new-session form."""
    number = max([s["number"] for s in queries.sessions(get_db(), campaign_id)] or [0]) + 1
    return _new_page({"number": number}, None, campaign_id)


@bp.post("/campaigns/<campaign_id>/sessions")
@shows_form(_new_page)
def create(campaign_id):
    """Plan a play session."""
    queries.campaign(get_db(), campaign_id)  # a campaign this GM cannot open is a 404 before any field
    outcome = service().handle({**form_data(), "type": "PlanSession", "campaign_id": campaign_id})
    return redirect(url_for("sessions.show", session_id=outcome.key))


@bp.get("/sessions/<session_id>")
def show(session_id):
    """Show a session and its duels."""
    db = get_db()
    session = dict(queries.session(db, session_id), closed=queries.session_closed(db, session_id))
    characters = queries.characters(db, session["campaign_id"])
    return render_template("sessions/show.html", session=session,
                           campaign=queries.campaign(db, session["campaign_id"]),
                           duels=queries.duels_of_session(db, session_id),
                           player_characters=[c["id"] for c in characters if c["rank"] == "pj"],
                           character_names={c["id"]: c["name"] for c in characters})


def _duel_form(form, rejected, session_id):
    db = get_db()
    session = queries.session(db, session_id)
    campaign = queries.campaign(db, session["campaign_id"])
    ruleset = form.get("ruleset") if form.get("ruleset") in rules.RULESETS else campaign["ruleset"]
    # The set-up form has a field per side where the rules speak of each duelist.
    errors = {name.replace("duelist_", "side_"): message for name, message in rejected.fields.items()} \
        if rejected else {}
    return render_template("sessions/new_duel.html", session=session, campaign=campaign,
                           characters=queries.characters(db, campaign["id"]), ruleset=rules.get(ruleset),
                           start_fields=START_FIELDS, form=form, errors=errors)


@bp.get("/sessions/<session_id>/duels/new")
def new_duel(session_id):
    """Show the duel set-up form for a ruleset."""
    db = get_db()
    campaign = queries.campaign(db, queries.session(db, session_id)["campaign_id"])
    ruleset = request.args.get("ruleset", "")
    # The campaign's own settings for the ruleset (its insult table…) pre-fill the terms.
    return _duel_form({**campaign["rules"].get(ruleset, {}), "ruleset": ruleset}, None, session_id)


@bp.post("/sessions/<session_id>/duels")
@shows_form(_duel_form)
def start_duel(session_id):
    """Start a duel in this session."""
    queries.session(get_db(), session_id)  # a session this GM cannot open is a 404 before any field
    outcome = service().handle({**form_data(), "type": "StartDuel", "session_id": session_id})
    return redirect(url_for("duels.show", duel_id=outcome.key))
