"""The GM hands out players' seats: one per player character of a session, as a link and a QR code
to scan; revokes one; closes the session (every seat of it stops working)."""
from __future__ import annotations

import segno
from flask import Blueprint, redirect, request, url_for

from tracker.bootstrap.db import get_db
from tracker.projections import queries
from tracker.rules.text import t
from tracker.application.services import NotFound
from tracker.web import form_data, service
from tracker.web.links import sign
from tracker.web.player import shared_url
from tracker.web.redirects import same_site_path

bp = Blueprint("seat_links", __name__)


def qr_code(url: str) -> str:
    """The QR code of ``url`` as an SVG data URI: an image the page's CSP allows (img-src data:)."""
    return segno.make(url, error="m").svg_data_uri(scale=4, border=2, dark="#000", light="#fff")


@bp.app_template_global()
def seat_links(session_id: str) -> list[dict]:
    """The session's seats in force: each character's name, the address to share and its QR code."""
    found = []
    for seat in queries.seats_of_session(get_db(), session_id):
        url = shared_url("seats.show", token=sign(seat["link_id"]))
        found.append(dict(seat, url=url, qr=qr_code(url)))
    return found


def _back(session_id: str):
    """Back to the page the form was on (a duel's page, or the session's seats panel)."""
    return redirect(same_site_path(request.form.get("next") or "")
                    or url_for("sessions.show", session_id=session_id, _anchor="seats"))


@bp.post("/sessions/<session_id>/seats")
def issue(session_id):
    """Make a seat for one character of the session's campaign."""
    queries.session(get_db(), session_id)  # a session this GM cannot open is a 404 before any field
    form = form_data()
    service().handle({"type": "IssuePlayerLink", "kind": "seat", "target": session_id,
                      "character_id": str(form.get("character_id") or "")})
    return _back(session_id)


@bp.post("/sessions/<session_id>/seats/<link_id>/revoke")
def revoke(session_id, link_id):
    """Revoke one seat: it stops working at once."""
    if link_id not in {seat["link_id"] for seat in queries.seats_of_session(get_db(), session_id)}:
        raise NotFound(t("no such seat"))
    service().handle({"type": "RevokePlayerLink", "link_id": link_id})
    return _back(session_id)


@bp.post("/sessions/<session_id>/close")
def close(session_id):
    """Close the session: every seat of it stops working."""
    queries.session(get_db(), session_id)
    service().handle({"type": "CloseSession", "session_id": session_id})
    return redirect(url_for("sessions.show", session_id=session_id))
