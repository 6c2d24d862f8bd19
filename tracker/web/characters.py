"""Characters: creating, editing, and the character sheet (a projection of the log)."""
from flask import Blueprint, redirect, render_template, request, url_for

from tracker import rules
from tracker.bootstrap.db import get_db
from tracker.projections import queries
from tracker.web import form_data, service
from tracker.web.rejections import shows_form
from tracker.rules.fields import Field
from tracker.rules.imports import JSON_FIELD
from tracker.rules.text import t
from tracker.domain.workspace import CHARACTER_FIELDS, IMPORT_FIELDS, LARGEST_EXPORT, import_choices, importers, left_out_words

bp = Blueprint("characters", __name__)


def _form_page(template, campaign, form, errors, **extra):
    return render_template(template, campaign=campaign, fields=CHARACTER_FIELDS, form=form,
                           errors=errors, rulesets=rules.RULESETS, **extra)


def _new_page(form, rejected, campaign_id):
    return _form_page("characters/new.html", queries.campaign(get_db(), campaign_id), form,
                      rejected.fields if rejected else {})


@bp.get("/campaigns/<campaign_id>/characters/new")
def new(campaign_id):
    """Show the new-character form."""
    return _new_page({"rank": "pj"}, None, campaign_id)


@bp.post("/campaigns/<campaign_id>/characters")
@shows_form(_new_page)
def create(campaign_id):
    """Create a character in the campaign."""
    campaign = queries.campaign(get_db(), campaign_id)  # a campaign this GM cannot open is a 404 before any field
    form = form_data()
    twin = _twin(campaign_id, form)
    if twin:  # two characters of one name make every list ambiguous: ask first
        return _form_page("characters/new.html", campaign, form, {}, twin=twin)
    outcome = service().handle({**form, "type": "CreateCharacter", "campaign_id": campaign_id})
    return redirect(url_for("characters.show", character_id=outcome.key))


@bp.get("/characters/<character_id>")
def show(character_id):
    """Show the character sheet: current points, wounds, duel record."""
    db = get_db()
    sheet = queries.character_sheet(db, character_id)
    campaign = queries.campaign(db, sheet["character"]["campaign_id"])
    return render_template("characters/show.html", campaign=campaign, imported=_imported(db, character_id), **sheet)


def _imported(db, character_id: str) -> dict | None:
    """Where the sheet was last brought in from, and what it left out, as words (None: typed in)."""
    past = (queries.stream_state(db, f"character-{character_id}") or {}).get("imported")
    if not past:
        return None
    found = importers().get(past["source"])
    return {"source": found[1].label if found else past["source"],
            "left_out": left_out_words(past["left_out"]) if past["left_out"] else None}


def _edit_page(form, rejected, character_id):
    db = get_db()
    character = queries.character(db, character_id)
    return _form_page("characters/edit.html", queries.campaign(db, character["campaign_id"]),
                      _as_form(character) if form is None else form, rejected.fields if rejected else {},
                      character=character)


@bp.get("/characters/<character_id>/edit")
def edit(character_id):
    """Show the form editing a character's sheet."""
    return _edit_page(None, None, character_id)


@bp.post("/characters/<character_id>/edit")
@shows_form(_edit_page)
def update(character_id):
    """Edit a character's sheet."""
    character = queries.character(get_db(), character_id)  # a 404 before any field
    form = form_data()
    twin = _twin(character["campaign_id"], form, character_id)
    if twin:
        return _form_page("characters/edit.html", queries.campaign(get_db(), character["campaign_id"]), form, {},
                          character=character, twin=twin)
    service().handle({**form, "type": "EditCharacter", "character_id": character_id})
    return redirect(url_for("characters.show", character_id=character_id))


def _twin(campaign_id: str, form: dict, itself: str = "") -> dict | None:
    """Another character of the campaign with the name sent, unless the GM confirmed it."""
    name = str(form.get("name") or "").strip().casefold()
    if not name or form.get("duplicate_ok") in ("true", "on", "1"):
        return None
    return next((c for c in queries.characters(get_db(), campaign_id)
                 if c["name"].strip().casefold() == name and c["id"] != itself), None)


def _as_form(character: dict) -> dict:
    """A character's current values as the edit form's fields."""
    form = {k: character[k] for k in ("name", "rank", "player", "notes")}
    form["expected_version"] = character["version"]
    for name, block in character["stats"].items():
        module = rules.RULESETS.get(name)
        for field in (module.STATS if module else ()):
            form[f"{name}.{field.name}"] = block.get(field.name)
    return form


# --- import from another tool's export ------------------------------------------------------

def import_fields() -> tuple[Field, ...]:
    """The import form: the source (found from the file unless chosen), the pasted JSON (or a
    file, drawn beside it), the rank and the player."""
    return (Field("source", t("Exported from"), "choice", required=False, choices=import_choices()),
            Field(JSON_FIELD, t("Export (JSON)"), "text", required=False, maximum=LARGEST_EXPORT,
                  help=t("paste the export here, or choose its file below")),
            *IMPORT_FIELDS)


def _import_page(form, rejected, campaign_id):
    db = get_db()
    campaign = queries.campaign(db, campaign_id)
    target = (form or {}).get("character_id") or request.args.get("character_id") or ""
    character = queries.character_in(db, campaign_id, target) if target else None
    return render_template("characters/import.html", campaign=campaign, fields=import_fields(), form=form or {},
                           errors=rejected.fields if rejected else {}, character=character,
                           rulesets=rules.RULESETS)


@bp.get("/campaigns/<campaign_id>/characters/import")
def import_form(campaign_id):
    """Show the form bringing a character in from Foundry VTT or Pathbuilder."""
    form = {}
    target = request.args.get("character_id")
    if target:
        character = queries.character_in(get_db(), campaign_id, target)
        form = {"character_id": target, "expected_version": character["version"]} if character else {}
    return _import_page(form, None, campaign_id)


@bp.post("/campaigns/<campaign_id>/characters/import")
@shows_form(_import_page)
def import_create(campaign_id):
    """Import a character from an uploaded or pasted export."""
    queries.campaign(get_db(), campaign_id)  # a 404 before any field
    form = form_data()
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        form[JSON_FIELD] = upload.read(LARGEST_EXPORT * 4 + 1).decode("utf-8-sig", errors="replace")
    outcome = service().handle({**form, "type": "ImportCharacter", "campaign_id": campaign_id})
    return redirect(url_for("characters.show", character_id=outcome.key))
