"""Between duels, from the character sheet and the session page: a rest or a treatment by the
rules, the whole party's rest at the end of a session, and the GM's adjustment of a track."""
from flask import Blueprint, redirect, render_template, url_for

from tracker.bootstrap.db import get_db
from tracker.projections import queries
from tracker.web import form_data, service
from tracker.web.rejections import shows_form

bp = Blueprint("recovery", __name__)


def sheet_again(form, rejected, character_id):
    """The sheet with the refused recovery or adjustment form, its errors by its fields."""
    db = get_db()
    sheet = queries.character_sheet(db, character_id)
    campaign = queries.campaign(db, sheet["character"]["campaign_id"])
    sent = {"between_form": form, "between_errors": rejected.fields if rejected else {},
            "between_failed": (form.get("ruleset"), form.get("recovery") or "adjust")}
    return render_template("characters/show.html", campaign=campaign, **sheet, **sent)


@bp.post("/characters/<character_id>/recover")
@shows_form(sheet_again)
def recover(character_id):
    """Rest (or treat) a character by one of their ruleset's recoveries."""
    queries.character(get_db(), character_id)  # a 404 before any field
    service().handle({**form_data(), "type": "RecoverCharacter", "character_id": character_id})
    return redirect(url_for("characters.show", character_id=character_id) + "#between-duels")


@bp.post("/characters/<character_id>/adjust")
@shows_form(sheet_again)
def adjust(character_id):
    """Adjust one of a character's tracks by hand, with the reason."""
    queries.character(get_db(), character_id)
    service().handle({**form_data(), "type": "AdjustTrack", "character_id": character_id})
    return redirect(url_for("characters.show", character_id=character_id) + "#between-duels")


def _session_again(form, rejected, session_id):
    from tracker.web.sessions import show

    return show(session_id, rest_error=rejected.message if rejected else "")


@bp.post("/sessions/<session_id>/rest")
@shows_form(_session_again)
def rest_party(session_id):
    """The whole party rests at the end of the session."""
    queries.session(get_db(), session_id)
    service().handle({"type": "RestParty", "session_id": session_id, "command_id": form_data().get("command_id")})
    return redirect(url_for("sessions.show", session_id=session_id, rested=1))
