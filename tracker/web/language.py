"""The language switch, on every page: a logged-in GM's choice is an event on their account
(``ChooseLanguage``); anyone else's is kept in a cookie. A plain form post, so it works without
JavaScript; the page comes back as it was, in the language chosen."""
from flask import Blueprint, current_app, g, redirect, request

from tracker.application import policy
from tracker.i18n import LANGUAGE_COOKIE
from tracker.domain.languages import LANGUAGES
from tracker.web import service
from tracker.web.access import gm_of_session
from tracker.web.redirects import same_site_path

bp = Blueprint("language", __name__)

ONE_YEAR = 365 * 24 * 3600


@bp.post("/language")
def choose():
    """Read Touché in the chosen language from now on, then go back to the page it was chosen on."""
    language = request.form.get("language")
    response = redirect(same_site_path(request.form.get("next") or "") or "/", 303)
    if language not in LANGUAGES:
        return response
    g.gm = gm_of_session()
    if g.gm is not None:
        service(policy.PAGES).handle({"type": "ChooseLanguage", "language": language})
    response.set_cookie(LANGUAGE_COOKIE, language, max_age=ONE_YEAR, samesite="Lax", httponly=True,
                        secure=current_app.config.get("SESSION_COOKIE_SECURE", False))
    return response
