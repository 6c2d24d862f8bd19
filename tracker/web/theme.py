"""The colour theme: light, dark, or auto (the system's preference), kept in a cookie.

A plain form post, so the switch works without JavaScript; the page comes back as it was."""
from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, request

bp = Blueprint("theme", __name__)

THEMES = ("auto", "light", "dark")
ONE_YEAR = 365 * 24 * 3600


def local_path(target: str | None) -> str:
    """The page to go back to, when it is a path on this site; the home page otherwise."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


@bp.post("/theme")
def choose():
    """Remember the chosen colour theme, then go back to the page it was chosen on."""
    theme = request.form.get("theme")
    response = redirect(local_path(request.form.get("next")), 303)
    if theme in ("light", "dark"):
        response.set_cookie("theme", theme, max_age=ONE_YEAR, samesite="Lax", httponly=True,
                            secure=current_app.config.get("SESSION_COOKIE_SECURE", False))
    elif theme == "auto":
        response.delete_cookie("theme", samesite="Lax", httponly=True)
    return response
