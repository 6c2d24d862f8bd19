"""Players' seats: a player's own page, on their phone, for their character in one play session.

A seat link carries a signed link id, like the table display's. Its page shows the character and,
while the character fights a running duel of the session, that duel as the ruleset lets this side
see it (``seen_by(state, "seat:<side>")``: its own hand and sealed choice, never the rival's). The
seat posts only its duelist's own choices: the policy decides, inside the write transaction. The
page follows the table by long-poll (``/live?v=…&wait=…``, on the followers' pool, woken when one
of the seat's own streams moves), answered 204 while nothing it shows has changed. A seat reads
in its campaign's language, like everything players see, unless the player chose theirs on it
(``?lang=``, remembered in a cookie for the seat's polls and taps).
"""
from __future__ import annotations

import secrets

from flask import Blueprint, current_app, make_response, redirect, render_template, request, url_for

from tracker import rules
from tracker.application import policy
from tracker.i18n import campaign_language
from tracker.bootstrap.db import get_db
from tracker.application.commands import fingerprint_of
from tracker.application.commands.base import KEYED
from tracker.domain.errors import Denied, NotFound
from tracker.i18n import LANGUAGE_COOKIE
from tracker.projections import queries
from tracker.rules.text import t
from tracker.eventstore.store import Conflict
from tracker.web import fingerprint_key, form_data, is_htmx, service
from tracker.web.links import BadSignature, link_id_of
from tracker.web.longpoll import hint, requested_wait, wait_for
from tracker.web.rejections import shows_form

bp = Blueprint("seats", __name__, url_prefix="/seat")


def open_seat(token: str) -> dict:
    """The seat behind a token, if genuine and in force; else NotFound (in the campaign's language
    when the token is genuine)."""
    try:
        link_id = link_id_of(token)
    except BadSignature:
        raise NotFound(t("this seat link is not valid")) from None
    db = get_db()
    campaign_id = queries.campaign_of_link(db, link_id)
    if campaign_id and not _own_language():  # the campaign's language, unless the player chose theirs
        campaign_language.serve_in(campaign_language.of_campaign(db, campaign_id))
    seat = queries.live_seat(db, link_id)
    if seat is None:
        raise NotFound(t("this seat no longer works: the GM revoked it"))
    return seat


def _own_language() -> str | None:
    """The language the player chose on their seat: ``?lang=`` now, or the cookie it left."""
    return campaign_language.supported(request.args.get("lang")) or \
        campaign_language.supported(request.cookies.get(LANGUAGE_COOKIE))


@bp.after_request
def remember_language(response):
    """A player's "Español" on the seat holds for its polls and taps (which carry no ``?lang=``)."""
    from flask import request

    try:
        chosen = campaign_language.supported(request.args.get("lang"))
    except UnicodeDecodeError:  # the 400 that refuse_undecodable_query answered passes here too
        return response
    if chosen:
        response.set_cookie(LANGUAGE_COOKIE, chosen, max_age=365 * 24 * 3600, path="/seat/", samesite="Lax",
                            httponly=True, secure=current_app.config.get("SESSION_COOKIE_SECURE", False))
    return response


def _seat_view(token: str, seat: dict, message: object = "", errors: dict | None = None) -> dict:
    """What the seat draws: the character, and each running duel of the session it fights, from its side."""
    db = get_db()
    # The version first, the content after: a move in between makes the page newer than its
    # version (the next poll draws it again), never older (the poll would answer 204 for good and
    # the phone would ignore its own tap).
    version, stamp = queries.seat_mark(db, seat)
    closed = queries.session_closed(db, seat["session_id"])
    duels = []
    for row in [] if closed else queries.running_duels_of(db, seat["session_id"], seat["character_id"]):
        module = rules.get(row["ruleset"])
        side = row["side"]
        whole = row.pop("state")
        taken_over = side in whole.get("taken_over", ())  # the GM took the side back: nothing to tap
        state = module.seen_by(whole, f"seat:{side}")
        may = getattr(module, "seat_actions", None)
        duels.append({"duel": row, "ruleset": module, "state": state, "side": side,
                      "rival": "b" if side == "a" else "a", "taken_over": taken_over,
                      "seat_actions": may(state, side) if may and not taken_over else []})
    ended = None
    if not closed and not duels:  # the end, as the phone last saw it, until the next duel starts
        row = queries.ended_duel_of(db, seat["session_id"], seat["character_id"])
        if row:
            module = rules.get(row["ruleset"])
            side = row["side"]
            ended = {"duel": row, "ruleset": module, "state": module.seen_by(row.pop("state"), f"seat:{side}"),
                     "side": side, "rival": "b" if side == "a" else "a", "seat_actions": []}
    return dict(token=token, seat=seat, closed=closed, duels=duels, ended=ended, message=message, errors=errors or {},
                sheet=queries.character_sheet(db, seat["character_id"], recent=0),
                session=queries.session(db, seat["session_id"]),
                version=version, stamp=stamp,
                command_id=secrets.token_hex(8))  # one id per drawn form: a double tap appends once


@bp.get("/<token>")
def show(token):
    """Show a player's seat: their character, and their side of any running duel of the session."""
    return _no_store(render_template("seats/show.html", **_seat_view(token, open_seat(token))), 200)


@bp.get("/<token>/live")
def live(token):
    """The seat's fragment once anything it shows has moved past ``v``; 204 while nothing has.
    With ``wait=`` (seconds, up to 30) it is a long-poll: held on the followers' pool, woken by the
    log's watcher when the seat's own streams move, until something moved or the wait ended (then
    204, and the page asks again; over the followers' caps, 204 at once with a ``Retry-After``)."""

    try:
        seat = open_seat(token)
    except NotFound:
        return _no_store(render_template("seats/_gone.html"), 404)
    seen = request.args.get("v")
    wait = requested_wait()
    if not wait_for(lambda: queries.seat_version(get_db(), seat) != seen, wait, queries.seat_keys(seat)):
        return hint(make_response(_no_store("", 204)))
    if wait:
        try:  # a wait woken by the GM revoking the seat or closing the session: say so now
            seat = open_seat(token)
        except NotFound:
            return _no_store(render_template("seats/_gone.html"), 404)
    return hint(make_response(_no_store(render_template("seats/_seat.html", **_seat_view(token, seat)), 200)))


def _refused(form, rejected, token, command):
    """A refused choice: the seat again, the reason on top (the answer is a 422)."""
    return _answer(token, 422, rejected.message, rejected.fields)[0]


@bp.post("/<token>/do/<command>")
@shows_form(_refused)
def act(token, command):
    """Send one of the duelist's own choices (a sealed card, a discard, the damage on offer)."""
    seat = open_seat(token)
    form = form_data()
    message = {**form, "type": command, "duel_id": str(form.get("duel_id") or "")}
    # One page draws one id; each button of it (a card, a change of mind) is its own command, and
    # the same button tapped twice is the same command: the id is the page's, plus what it says,
    # keyed (a bare hash of what it says would name the sealed card to anyone who sees the id).
    # Each tap is its own command too: touche.js gives every submit a fresh ``tap``, so A, then B,
    # then A again from one drawn page appends three choices (a resent request keeps its tap).
    drawn = str(message.pop("command_id", "") or "")[:24]
    tap = "".join(c for c in str(message.pop("tap", "") or "") if c.isalnum())[:16]
    said = fingerprint_of(message, fingerprint_key()).removeprefix(KEYED)
    message["command_id"] = "-".join(part for part in (drawn, tap, said[:12]) if part) if drawn else None
    door = service(policy.SEAT_PAGE, seat=seat["link_id"])
    try:
        door.handle(message)
    except (Denied, NotFound) as refused:  # the policy's refusals (Forbidden is a NotFound)
        return _answer(token, 403, str(refused))
    except Conflict:
        return _answer(token, 409, t("The duel moved on before your tap arrived: look again and choose."))
    if is_htmx():
        return _answer(token, 200)
    return redirect(url_for("seats.show", token=token))


def _answer(token: str, status: int, message: object = "", errors: dict | None = None):
    """The seat drawn again after a tap (the fragment for htmx, else the page), with any refusal."""
    template = "seats/_seat.html" if is_htmx() else "seats/show.html"
    try:
        seat = open_seat(token)
    except NotFound:
        return _no_store(render_template("seats/_gone.html"), 403)
    return _no_store(render_template(template, **_seat_view(token, seat, message, errors)), status)


def _no_store(body: str, status: int):
    """A seat's answer is for this phone and this moment only: its hand and sealed choice must stay
    in no cache, shared or the browser's own (a back button must not show an old hand either)."""
    return body, status, {"Cache-Control": "no-store"}
