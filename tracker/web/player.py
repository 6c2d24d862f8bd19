"""What players see: signed, revocable, read-only links (the table display, the player recap).

A link carries a signed link id. It works while the campaign's log says the link was issued and
not revoked, and only for its one duel or session. Player routes are GET only: a link can never
write, and never shows what only the GM may see (hands, hidden skills, notes).
"""
from __future__ import annotations

from flask import Blueprint, current_app
from itsdangerous import BadSignature, URLSafeSerializer

from tracker.db import get_db
from tracker.services import NotFound

bp = Blueprint("player", __name__, url_prefix="/play")


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="player-link")


def sign(link_id: str) -> str:
    """The token a player link carries in its URL."""
    return _signer().dumps(link_id)


def open_link(token: str, kind: str) -> dict:
    """The link behind a token, if it is genuine, of this kind and not revoked; else NotFound."""
    try:
        link_id = _signer().loads(token)
    except BadSignature:
        raise NotFound("this link is not valid") from None
    row = get_db().execute("SELECT link_id, campaign_id, kind, target, revoked FROM player_links WHERE link_id = ?",
                           [link_id]).fetchone()
    if row is None or row[2] != kind or row[4]:
        raise NotFound("this link is not valid, or the GM revoked it")
    return {"link_id": row[0], "campaign_id": row[1], "kind": row[2], "target": row[3]}
