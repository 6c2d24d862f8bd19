"""Setting a duel up, fast: from a session, from a character sheet (a challenge), as a rematch of
a finished duel, or outside any planned session (today's session, planned on the fly).

The form shows only the fields of the chosen ruleset and kind: htmx redraws it when either (or a
side) changes, and without JavaScript the GM asks for the terms of the kind with a button (a
two-step form). The chosen characters' sheets fill in what they can (their weapon).
"""
from flask import Blueprint, redirect, render_template, request, url_for

from tracker import rules
from tracker.application.commands import START_FIELDS
from tracker.bootstrap.db import get_db
from tracker.projections import queries
from tracker.web import form_data, is_htmx, service
from tracker.web.rejections import shows_form

bp = Blueprint("duel_setup", __name__)


@bp.app_template_global()
def last_chosen(kind: str, character_ids) -> dict:
    """Each character's usual choice of a statistic's ``kind`` (the last one used), for a form's default."""
    return queries.last_chosen(get_db(), kind, list(character_ids))


def setup_page(campaign: dict, session: dict | None, form: dict, errors: dict | None = None, status: int = 200,
               action: str = ""):
    """The set-up form (the whole page, or the form alone for htmx), narrowed to its ruleset and kind."""
    db = get_db()
    characters = queries.characters(db, campaign["id"])
    name = form.get("ruleset") if form.get("ruleset") in rules.RULESETS else campaign["ruleset"]
    module = rules.get(name)
    kinds = list(module.KINDS)
    kind = form.get("kind") if form.get("kind") in kinds else kinds[0]
    terms = module.setup_fields(kind) if hasattr(module, "setup_fields") else module.SETUP
    sheets = {side: next((c["stats"].get(name) for c in characters if c["id"] == _first(form.get(f"side_{side}"))), None)
              for side in ("a", "b")}
    filled = module.setup_defaults(kind, sheets) if hasattr(module, "setup_defaults") else {}
    guessed = _seated_choices(db, session["id"], form) if session and any(f.name == "choices" for f in terms) else {}
    shown = {**guessed, **campaign["rules"].get(name, {}), **{k: v for k, v in filled.items() if not form.get(k)},
             **{k: v for k, v in form.items() if v not in (None, "")}, "ruleset": name, "kind": kind}
    if not action:
        action = url_for("sessions.start_duel", session_id=session["id"]) if session \
            else url_for("duel_setup.start", campaign_id=campaign["id"])
    reshape = url_for("sessions.new_duel", session_id=session["id"]) if session \
        else url_for("duel_setup.new", campaign_id=campaign["id"])
    today = service().context.now()[:10]
    context = dict(campaign=campaign, session=session, characters=characters, ruleset=module, kind=kind,
                   terms=terms, start_fields=START_FIELDS, form=shown, errors=errors or {}, action=action,
                   reshape=reshape, today=today, todays=None if session else queries.session_on(db, campaign["id"], today))
    template = "duels/_setup_form.html" if is_htmx() else "duels/setup.html"
    return render_template(template, **context), status


def _seated_choices(db, session_id: str, form: dict) -> dict:
    """Sealed choices when a side's character holds a seat in the session: a GM who handed out
    phones expects the players to choose on them (a campaign's own setting, or the form, wins)."""
    seated = {seat["character_id"] for seat in queries.seats_of_session(db, session_id)}
    chosen = {value for side in ("a", "b") for value in _all(form.get(f"side_{side}"))}
    return {"choices": "sealed"} if seated & chosen else {}


def _all(value) -> list:
    return value if isinstance(value, list) else [value] if value else []


def asked() -> dict:
    """The query string as a form: one value per field, a list where a field repeats (pairs)."""
    return {k: v[0] if len(v) == 1 else v for k, v in request.args.to_dict(flat=False).items()}


def _first(value):
    return value[0] if isinstance(value, list) and value else value


def side_errors(rejected) -> dict:
    """The set-up form has a field per side where the rules speak of each duelist."""
    return {name.replace("duelist_", "side_"): message for name, message in rejected.fields.items()} if rejected else {}


@bp.get("/campaigns/<campaign_id>/duels/new")
def new(campaign_id):
    """Show the set-up of a duel outside any planned session (a challenge from a sheet lands here)."""
    campaign = queries.campaign(get_db(), campaign_id)
    return setup_page(campaign, None, asked())


def _refused(form, rejected, campaign_id):
    return setup_page(queries.campaign(get_db(), campaign_id), None, form, side_errors(rejected), 422)[0]


@bp.post("/campaigns/<campaign_id>/duels")
@shows_form(_refused)
def start(campaign_id):
    """Start a duel in today's session of the campaign, planning it if there is none."""
    queries.campaign(get_db(), campaign_id)  # a 404 before any field
    form = {k: v for k, v in form_data().items() if k != "session_id"}
    outcome = service().handle({**form, "type": "StartDuel", "campaign_id": campaign_id})
    return redirect(url_for("duels.show", duel_id=outcome.key))


@bp.get("/duels/<duel_id>/rematch")
def rematch(duel_id):
    """Show the set-up of a rematch: the same ruleset, kind, duelists and terms, in the same session."""
    db = get_db()
    duel = queries.duel(db, duel_id)
    state = duel["state"]
    form = {k: v for k, v in state["settings"].items() if not isinstance(v, (dict, list)) or k == "insults"}
    if isinstance(form.get("insults"), list):
        from tracker.web import as_lines
        field = next((f for f in rules.get(duel["ruleset"]).SETUP if f.name == "insults"), None)
        form["insults"] = as_lines(form["insults"], field.columns if field else ())
    for side in ("a", "b"):
        form[f"side_{side}"] = [d["id"] for d in state["duelists"] if d["side"] == side]
    choices = next((f for f in rules.get(duel["ruleset"]).SETUP if f.name == "choices"), None)
    if choices and "choices" not in form:  # a duel recorded by the GM stays so: no seat guesses it sealed
        form["choices"] = choices.default
    form.update(ruleset=duel["ruleset"], kind=state["kind"], stakes=state.get("stakes", ""),
                judge=state.get("judge", ""), challenger=state.get("challenger", ""))
    session = queries.session(db, duel["session_id"])
    return setup_page(queries.campaign(db, duel["campaign_id"]), session, form)
