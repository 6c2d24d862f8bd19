"""Session recaps for the GM: Markdown, HTML and JSON downloads, and the players' recap links.

A recap reads in the campaign's language unless ``?lang=`` asks for another one Touché speaks."""
from flask import Blueprint, Response, abort, redirect, request, url_for

from tracker import campaign_language, recap
from tracker.db import get_db
from tracker.projections import queries
from tracker.rules.text import t
from tracker.services import NotFound
from tracker.web import service
from tracker.web.links import sign

bp = Blueprint("recaps", __name__)


def download(data: dict, fmt: str) -> Response:
    """A recap as a file to save: the standalone HTML is a document, never shown under our origin."""
    if fmt not in recap.FORMATS:
        abort(404)
    response = Response(recap.render(data, fmt), mimetype=recap.FORMATS[fmt].split(";")[0])
    response.headers["Content-Disposition"] = f'attachment; filename="{recap.filename(data, fmt)}"'
    return response


@bp.get("/sessions/<session_id>/recap.<fmt>")
def download_recap(session_id, fmt):
    """Download the session's recap for the GM or for the players (?audience=), in ?lang= if given."""
    audience = request.args.get("audience", "gm")
    if audience not in recap.AUDIENCES:
        abort(404)
    return download(recap.build(get_db(), session_id, audience, asked_language()), fmt)


def asked_language() -> str | None:
    """The language ``?lang=`` asks for, if Touché speaks it (else the campaign's will do)."""
    return campaign_language.supported(request.args.get("lang"))


@bp.post("/sessions/<session_id>/recap-links")
def issue_link(session_id):
    """Make a signed, read-only link to the session's players' recap."""
    service().handle({"type": "IssuePlayerLink", "link_kind": "recap", "target": session_id})
    return redirect(url_for("sessions.show", session_id=session_id, _anchor="recap"))


@bp.post("/sessions/<session_id>/recap-links/<link_id>/revoke")
def revoke_link(session_id, link_id):
    """Revoke one of the session's recap links: it stops working at once."""
    if link_id not in {link["link_id"] for link in recap_links(session_id)}:
        raise NotFound(t("no such link"))
    service().handle({"type": "RevokePlayerLink", "link_id": link_id})
    return redirect(url_for("sessions.show", session_id=session_id, _anchor="recap"))


@bp.app_template_global()
def recap_links(session_id: str) -> list[dict]:
    """The session's live player-recap links, each with the token its URL carries."""
    return [{"link_id": link_id, "token": sign(link_id)} for link_id in queries.recap_link_ids(get_db(), session_id)]
