"""Session recaps for the GM: Markdown, HTML and JSON downloads, and the players' recap links.

A recap reads in the campaign's language unless ``?lang=`` asks for another one Touché speaks."""
from flask import Blueprint, Response, abort, redirect, request, url_for

from tracker import recap
from tracker.i18n import campaign_language
from tracker.bootstrap.db import get_db
from tracker.projections import queries
from tracker.rules.text import t
from tracker.application.services import NotFound
from tracker.web import service
from tracker.web.links import sign

bp = Blueprint("recaps", __name__)


def download(data: dict, fmt: str) -> Response:
    """A recap as a file to save; the HTML one opens in the browser (``?download=1`` saves it),
    under a policy of its own that runs no script at all and allows only its own stylesheet."""
    if fmt not in recap.FORMATS:
        abort(404)
    body = recap.render(data, fmt)
    response = Response(body, mimetype=recap.FORMATS[fmt].split(";")[0])
    shown = fmt == "html" and not request.args.get("download")
    how = "inline" if shown else "attachment"
    response.headers["Content-Disposition"] = f'{how}; filename="{recap.filename(data, fmt)}"'
    if shown:
        response.headers["Content-Security-Policy"] = document_policy(body)
    return response


def document_policy(document: str) -> str:
    """The HTML recap's policy: nothing but its one inline <style>, by its hash, and data: images."""
    import base64
    import hashlib
    import re

    styles = re.findall(r"<style>(.*?)</style>", document, re.S)
    hashes = " ".join("'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'" for s in styles)
    return (f"default-src 'none'; style-src {hashes or chr(39) + 'none' + chr(39)}; img-src data:; "
            "frame-ancestors 'none'; base-uri 'none'; form-action 'none'")


@bp.get("/sessions/<session_id>/recap/chat")
def chat(session_id):
    """The one-message recap as text to copy into the table's chat (a Copy button, or select it)."""
    from flask import render_template

    audience = request.args.get("audience", "gm")
    if audience not in recap.AUDIENCES:
        abort(404)
    db = get_db()
    data = recap.build(db, session_id, audience, asked_language())
    session = queries.session(db, session_id)
    return render_template("recaps/chat.html", text=recap.short_text(data), audience=audience, session=session,
                           campaign=queries.campaign(db, session["campaign_id"]))


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
