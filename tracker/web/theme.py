"""The colour theme: light, dark, or auto (the system's preference), kept in a cookie.

A plain form post, so the switch works without JavaScript; the page comes back as it was."""
from flask import Blueprint, current_app, redirect, request

from tracker.web.redirects import same_site_path

bp = Blueprint("theme", __name__)

THEMES = ("auto", "light", "dark")
ONE_YEAR = 365 * 24 * 3600


@bp.app_template_global()
def this_page() -> str:
    """The address of the page being drawn, to come back to; its query string read leniently, so
    even the error page for an address that is not UTF-8 can be drawn."""
    query = request.query_string.decode("utf-8", "replace")
    return request.path + (f"?{query}" if query else "")


@bp.post("/theme")
def choose():
    """Remember the chosen colour theme, then go back to the page it was chosen on."""
    theme = request.form.get("theme")
    response = redirect(same_site_path(request.form.get("next") or "") or "/", 303)
    if theme in ("light", "dark"):
        response.set_cookie("theme", theme, max_age=ONE_YEAR, samesite="Lax", httponly=True,
                            secure=current_app.config.get("SESSION_COOKIE_SECURE", False))
    elif theme == "auto":
        response.delete_cookie("theme", samesite="Lax", httponly=True)
    return response
