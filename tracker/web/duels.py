"""A duel's page and its actions. The page is generic: the ruleset's module says which
actions are legal and its templates draw the state; this layer only routes."""
import secrets

from flask import Blueprint, redirect, render_template, url_for

from tracker import rules
from tracker.application import policy
from tracker.rules import legal
from tracker.bootstrap.db import get_db
from tracker.projections import queries
from tracker.rules.text import t
from tracker.eventstore.store import Conflict
from tracker.web import form_data, is_htmx, page_or_fragment, service
from tracker.web.inputs import int_arg
from tracker.web.rejections import shows_form

bp = Blueprint("duels", __name__)


def _render(duel_id, status=200, errors=None, failed=None, form=None, message=None):
    db = get_db()
    # The latest lines of its history only (the earlier ones load on demand): the page of a long
    # duel costs what a short one's does.
    duel = queries.duel_window(db, duel_id)
    module = rules.get(duel["ruleset"])
    whole = policy.as_seated(db, duel["state"])  # a hand a live seat holds stays on that seat
    state = duel["state"] = module.seen_by(whole, "gm")
    seated = queries.seats_of_session(db, duel["session_id"])
    # The same list the API answers: a side a player's seat plays decides on the phone.
    every_legal = module.legal_actions(state, legal.GM)
    legal_actions = policy.offered_to_the_gm(db, whole, every_legal)
    on_phones = policy.seated_sides(db, whole)
    context = dict(duel=duel, state=state, ruleset=module, legal_actions=legal_actions,
                   actions=legal.names(legal_actions),
                   # what the duel waits for, a seat's choice included: the GM's page says where it stands
                   awaited=legal.names(every_legal),
                   follows_seats=bool(seated) and not state.get("outcome"), on_phones=on_phones,
                   # only a player character takes a seat: an NPC is the GM's to play
                   seat_characters=[d["id"] for d in state["duelists"] if d.get("rank") == "pj"],
                   character_names={d["id"]: d["name"] for d in state["duelists"]},
                   next=url_for("duels.show", duel_id=duel_id),
                   adjustable=[] if state.get("outcome") else module.adjustable_tracks(state),
                   assumptions=module.assumptions(state), window=duel.pop("window"),
                   errors=errors or {}, failed=failed,
                   form=form or {}, message=message, rest_command_id=secrets.token_hex(8),
                   session=queries.session(db, duel["session_id"]),
                   campaign=queries.campaign(db, duel["campaign_id"]))
    template = "duels/_duel.html" if is_htmx() else "duels/show.html"
    return render_template(template, **context), status


def _logged(duel_id, message=None, anchor=""):
    """After a command the page sent: htmx gets the duel redrawn (with ``message``), a plain form
    the duel page again (Post/Redirect/Get), at ``anchor``."""
    if is_htmx():
        return _render(duel_id, message=message)
    return redirect(url_for("duels.show", duel_id=duel_id) + anchor)


@bp.get("/duels/<duel_id>")
def show(duel_id):
    """Show the duel: both sides, its state, its history and the legal next actions."""
    return _render(duel_id)


@bp.get("/duels/<duel_id>/live")
def live(duel_id):
    """The duel's panel once the duel has moved past version ``v`` (a seat chose, say); 204 while not."""
    seen = int_arg("v")
    if seen is not None and seen == queries.stream_version(get_db(), f"duel-{duel_id}"):
        return "", 204, {"Cache-Control": "no-store"}
    return _render(duel_id)


@bp.get("/duels/<duel_id>/earlier")
def earlier(duel_id):
    """Show the duel's history lines logged before version ``before``: htmx gets them as list items in
    place of the link that asked, a plain link a page of them."""
    db = get_db()
    duel = queries.duel_window(db, duel_id, before=int_arg("before"))
    state = rules.get(duel["ruleset"]).seen_by(duel["state"], "gm")
    return page_or_fragment("duels/earlier.html", "duels/_history_lines.html", duel=duel,
                            lines=state.get("history", []), window=duel.pop("window"))


def _rejected_action(form, rejected, duel_id, command):
    return _render(duel_id, 422, rejected.fields, command, form)


@bp.post("/duels/<duel_id>/do/<command>")
@shows_form(_rejected_action)
def act(duel_id, command):
    """Log one action in the duel."""
    form = form_data()
    try:
        service(policy.DUEL_PAGE).handle({**form, "type": command, "duel_id": duel_id})
    except Conflict:
        return _render(duel_id, 409, {"__all__": t("This duel changed since you opened it: someone logged "
                                                   "an action first. Yours was NOT logged — check the duel "
                                                   "as it is now and log it again if it still applies.")},
                       command, form)
    return _logged(duel_id)


def _rejected_adjustment(form, rejected, duel_id):
    return _render(duel_id, 422, rejected.fields, "AdjustDuelTrack", form)


@bp.post("/duels/<duel_id>/adjust")
@shows_form(_rejected_adjustment)
def adjust(duel_id):
    """Correct a duelist's track by hand in the running duel ("I forgot the +2")."""
    form = form_data()
    try:
        service().handle({**form, "type": "AdjustDuelTrack", "duel_id": duel_id})
    except Conflict:
        return _render(duel_id, 409, {"__all__": t("This duel changed since you opened it: someone logged "
                                                   "an action first. Your adjustment was NOT logged — check "
                                                   "the duel as it is now and adjust again if it still applies.")},
                       "AdjustDuelTrack", form)
    return _logged(duel_id)


def _rejected_take_over(form, rejected, duel_id):
    return _render(duel_id, 422, rejected.fields, "TakeOverSeat", form)


@bp.post("/duels/<duel_id>/take-over")
@shows_form(_rejected_take_over)
def take_over(duel_id):
    """The GM takes a side back from a player's seat (a player who left)."""
    form = form_data()
    service().handle({"type": "TakeOverSeat", "duel_id": duel_id, "side": form.get("side")})
    return _logged(duel_id, t("You make this side's choices now."))


def _rejected_note(form, rejected, duel_id):
    return _render(duel_id, 422, rejected.fields, "NoteDuel", form)


@bp.post("/duels/<duel_id>/notes")
@shows_form(_rejected_note)
def note(duel_id):
    """Attach the GM's note to the duel or to one of its moments."""
    form = form_data()
    service().handle({**form, "type": "NoteDuel", "duel_id": duel_id})
    return _logged(duel_id, t("Note added."), "#notes")


def _rejected_rest(form, rejected, duel_id):
    return _render(duel_id, 422, {"__all__": rejected.message}, "RestBoth", form)


@bp.post("/duels/<duel_id>/rest")
@shows_form(_rejected_rest)
def rest_both(duel_id):
    """After the duel, its duelists rest by their ruleset's rest in one tap: one RecoverCharacter
    each, the same command the sheet's button sends (each its own event, retracted alone). The
    page's command id makes a second tap of the same page replay, not rest them twice."""
    db = get_db()
    duel = queries.duel(db, duel_id)
    tap = str(form_data().get("command_id") or "")[:24]
    for d in duel["state"]["duelists"]:
        service().handle({"type": "RecoverCharacter", "character_id": d["id"], "ruleset": duel["ruleset"],
                          "recovery": "rest", **({"command_id": f"{tap}-{d['id']}"} if tap else {})})
    return _logged(duel_id, t("The duelists rested: each sheet shows what they got back."))
