"""Characters: creating, editing, and the character sheet (a projection of the log)."""
from flask import Blueprint, redirect, render_template, request, url_for

from tracker import rules
from tracker.db import get_db
from tracker.projections import queries
from tracker.rules.base import Invalid
from tracker.web import form_data, service
from tracker.workspace import CHARACTER_FIELDS

bp = Blueprint("characters", __name__)


def _form_page(template, campaign, form, errors, status=200, **extra):
    return render_template(template, campaign=campaign, fields=CHARACTER_FIELDS, form=form,
                           errors=errors, rulesets=rules.RULESETS, **extra), status


@bp.get("/campaigns/<campaign_id>/characters/new")
def new(campaign_id):
    """Show the new-character form."""
    return _form_page("characters/new.html", queries.campaign(get_db(), campaign_id), {"rank": "pj"}, {})


@bp.post("/campaigns/<campaign_id>/characters")
def create(campaign_id):
    """Create a character in the campaign."""
    campaign = queries.campaign(get_db(), campaign_id)
    form = form_data()
    try:
        outcome = service().handle({**form, "type": "CreateCharacter", "campaign_id": campaign_id})
    except Invalid as bad:
        return _form_page("characters/new.html", campaign, form, bad.errors, 422)
    return redirect(url_for("characters.show", character_id=outcome.key))


@bp.get("/characters/<character_id>")
def show(character_id):
    """Show the character sheet: current points, wounds, duel record."""
    db = get_db()
    sheet = queries.character_sheet(db, character_id)
    campaign = queries.campaign(db, sheet["character"]["campaign_id"])
    return render_template("characters/show.html", campaign=campaign, **sheet)


@bp.route("/characters/<character_id>/edit", methods=("GET", "POST"))
def edit(character_id):
    """Edit a character's sheet."""
    db = get_db()
    character = queries.character(db, character_id)
    campaign = queries.campaign(db, character["campaign_id"])
    if request.method == "GET":
        return _form_page("characters/edit.html", campaign, _as_form(character), {}, character=character)
    form = form_data()
    try:
        service().handle({**form, "type": "EditCharacter", "character_id": character_id})
    except Invalid as bad:
        return _form_page("characters/edit.html", campaign, form, bad.errors, 422, character=character)
    return redirect(url_for("characters.show", character_id=character_id))


def _as_form(character: dict) -> dict:
    """A character's current values as the edit form's fields."""
    form = {k: character[k] for k in ("name", "rank", "player", "notes")}
    form["expected_version"] = character["version"]
    for name, block in character["stats"].items():
        module = rules.RULESETS.get(name)
        for field in (module.STATS if module else ()):
            form[f"{name}.{field.name}"] = block.get(field.name)
    return form
