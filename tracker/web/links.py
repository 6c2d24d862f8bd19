"""The token a player link carries in its URL: the link's id, signed with the app's secret."""
from __future__ import annotations

from flask import current_app
from itsdangerous import BadSignature, URLSafeSerializer

__all__ = ["BadSignature", "link_id_of", "sign"]


def _signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt="player-link")


def sign(link_id: str) -> str:
    """The token a player link carries in its URL."""
    return _signer().dumps(link_id)


def link_id_of(token: str) -> str:
    """The link id a token was signed for; BadSignature when it was not signed here."""
    return _signer().loads(token)
