"""What players see: signed, revocable, read-only links (the table display, the player recap).

A link carries a signed link id. It works while the campaign's log says the link was issued and
not revoked, and only for its one duel or session. Player routes are GET only: a link can never
write, and never shows what only the GM may see (hands, hidden skills, notes). Players read the
campaign's language, whatever their browser says: the table is one table.
"""
from __future__ import annotations

from flask import Blueprint, current_app, make_response, render_template, request, url_for

from tracker import rules
from tracker.i18n import campaign_language
from tracker.rules.text import t
from tracker.bootstrap.db import get_db
from tracker.projections import queries
from tracker.application.services import NotFound
from tracker.web.inputs import int_arg
from tracker.web.longpoll import hint, requested_wait, wait_for
from tracker.web.links import BadSignature, link_id_of, sign  # noqa: F401 (sign: pages import it here)

bp = Blueprint("player", __name__, url_prefix="/play")
RECENT = 8  # history lines the display shows, newest first
PAGE_WAIT = 25  # seconds a seat's or display's long-poll waits (under a proxy's usual 30 s or 60 s)


@bp.app_template_global()
def shared_url(endpoint: str, **values) -> str:
    """The address to give players: on the configured base URL (``TOUCHE_BASE_URL``), never on the
    Host header a request claims, which anyone can forge to make the GM hand out a link to them."""
    return current_app.config["BASE_URL"] + url_for(endpoint, **values)


@bp.app_template_global()
def follow_wait() -> int:
    """The seconds a seat or a display asks its long-poll to wait (``PAGE_WAIT``, or less if the
    server cuts waits shorter): a change ends the wait at once, so this is only how often a quiet
    page asks again."""
    return int(min(PAGE_WAIT, float(current_app.config.get("LONG_POLL_MAX", PAGE_WAIT))))


def open_link(token: str, kind: str) -> dict:
    """The link behind a token, if it is genuine, of this kind and not revoked; else NotFound.
    A genuine link's page, even a revoked one's last words, reads in its campaign's language."""
    try:
        link_id = link_id_of(token)
    except BadSignature:
        raise NotFound(t("this link is not valid")) from None
    db = get_db()
    campaign_id = queries.campaign_of_link(db, link_id)
    if campaign_id:
        campaign_language.serve_in(campaign_language.of_campaign(db, campaign_id))
    link = queries.live_player_link(db, link_id)
    if link is None or link["kind"] != kind:
        raise NotFound(t("this link is not valid, or the GM revoked it"))
    return link


@bp.get("/<token>/recap")
def recap(token):
    """Show the session's players' recap (nothing secret), or download it (?format=md|html|json)."""
    from tracker import recap as recaps
    from tracker.web.recaps import asked_language, download

    data = recaps.build(get_db(), open_link(token, "recap")["target"], "players", asked_language())
    campaign_language.serve_in(data["language"])
    fmt = request.args.get("format")
    return download(data, fmt) if fmt else render_template("player/recap.html", recap=data, token=token)


# --- the table display: a duel as the players may see it, following it live ---------------------

def _display(token: str) -> dict:
    """What the display draws: the duel's row and its public state, never the GM's state."""
    link = open_link(token, "display")
    duel = queries.duel_window(get_db(), link["target"])  # the latest lines: the display shows a few
    module = rules.get(duel["ruleset"])
    state = module.seen_by(duel.pop("state"), "display")
    return dict(token=token, duel=duel, ruleset=module, state=state, public_view=True,
                recent=state.get("history", [])[-RECENT:][::-1])


@bp.get("/<token>/display")
def display(token):
    """Show the table display of a duel: what the players may see, for a second screen."""
    return render_template("player/display.html", **_display(token))


@bp.get("/<token>/display/live")
def display_live(token):
    """The display's fragment once the duel has moved past version ``v``; 204 while it has not.
    With ``wait=`` a long-poll on the followers' pool (see ``seats.live``)."""
    try:
        link = open_link(token, "display")
    except NotFound:
        return _no_store(render_template("player/_display_gone.html"), 404)
    seen, wait = int_arg("v"), requested_wait()
    stream = f"duel-{link['target']}"

    def moved() -> bool:  # the duel moved, or (while waiting) the link was revoked
        if seen is None or seen != queries.stream_version(get_db(), stream):
            return True
        return bool(wait) and queries.live_player_link(get_db(), link["link_id"]) is None

    # With ``wait=`` a long-poll, as the seat's: woken by the duel or the campaign (its links) moving.
    if not wait_for(moved, wait, (stream, f"campaign-{link['campaign_id']}") if wait else stream):
        return hint(make_response(_no_store("", 204)))
    try:
        fragment = render_template("player/_display.html", **_display(token))
    except NotFound:  # revoked while it waited
        return _no_store(render_template("player/_display_gone.html"), 404)
    return hint(make_response(_no_store(fragment, 200)))


def _no_store(body: str, status: int):
    return body, status, {"Cache-Control": "no-store"}
