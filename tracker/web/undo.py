"""One-tap undo on a duel page, and the restore of an undo made by mistake.

"Undo last action" retracts the duel's last command still standing (with what it decided: a win,
a wound); the page has already said what that is, in the log's words, beside the one button
that confirms it. "Restore" takes that retraction back while nothing was logged since.
"""
from flask import Blueprint, redirect, url_for

from tracker.bootstrap.db import get_db
from tracker.projections import queries, undo
from tracker.rules.text import t
from tracker.eventstore.store import Conflict
from tracker.web import form_data, is_htmx, service
from tracker.web.duels import _render
from tracker.web.rejections import shows_form

bp = Blueprint("undo", __name__)


@bp.app_template_global()
def last_action(duel_id: str) -> dict | None:
    return undo.last_action(get_db(), duel_id)


@bp.app_template_global()
def last_undo(duel_id: str) -> dict | None:
    return undo.last_undo(get_db(), duel_id)


def _refused(form, rejected, duel_id):
    return _render(duel_id, 422, {"__all__": rejected.message}, "undo", form)


def _correct(duel_id: str, command: str, done: str):
    """Send the retraction or the restore, then show the duel (the fragment for htmx)."""
    queries.duel(get_db(), duel_id)  # a 404 before anything else
    form = form_data()
    position = form.get("position")
    if not str(position or "").isdigit() or queries.stream_of(get_db(), int(position)) != f"duel-{duel_id}":
        return _render(duel_id, 422, {"__all__": t("That is not an action of this duel: nothing was undone.")}, "undo", form)
    try:
        service().handle({"type": command, "position": form.get("position"), "reason": form.get("reason", ""),
                          "expected_version": form.get("expected_version"), "command_id": form.get("command_id")})
    except Conflict:
        return _render(duel_id, 409, {"__all__": t("This duel changed since you opened it: nothing was undone. "
                                                   "Look at it as it is now, then try again.")}, "undo", form)
    if is_htmx():
        return _render(duel_id, message=done)
    return redirect(url_for("duels.show", duel_id=duel_id))


@bp.get("/duels/<duel_id>/undo")
def confirm_undo(duel_id):
    """The first tap: the duel with the confirmation open, saying what the second tap undoes."""
    return _render(duel_id, 200, {}, "undo", {})


@bp.post("/duels/<duel_id>/undo")
@shows_form(_refused)
def undo_last(duel_id):
    """Undo the duel's last action (a retraction of its command and what it decided)."""
    return _correct(duel_id, "RetractEvent", t("Undone. You can restore it until the next action is logged."))


@bp.post("/duels/<duel_id>/restore")
@shows_form(_refused)
def restore(duel_id):
    """Restore the last undo of the duel, made by mistake."""
    return _correct(duel_id, "RestoreRetraction", t("Restored: the duel stands as it did before the undo."))
