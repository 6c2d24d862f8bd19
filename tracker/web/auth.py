"""GM accounts on the web: first-start set-up, login, logout, and the settings page (API tokens,
password, sessions)."""
from __future__ import annotations

from flask import Blueprint, current_app, g, redirect, render_template, request, session, url_for

from tracker.application import policy, setup_code
from tracker.domain.accounts import SIGNUP_FIELDS
from tracker.bootstrap.db import get_db
from tracker.domain.errors import Denied
from tracker.application.logins import current_generation, new_session_id, verify_password
from tracker.projections import queries
from tracker.rules.fields import Field
from tracker.rules.text import t
from tracker.web import form_data, service, throttle
from tracker.web.redirects import same_site_path
from tracker.web.rejections import shows_form

CODE_FIELD = Field("code", t("Set-up code"), "text", maximum=100,
                   help=t("printed in the console where Touché was started"))

bp = Blueprint("auth", __name__)


def has_gm() -> bool:
    return queries.has_gm(get_db())


def signup_open() -> bool:
    return not has_gm() or current_app.config.get("OPEN_SIGNUP", False)


def _setup_page(form, rejected=None):
    return render_template("auth/setup.html", fields=SIGNUP_FIELDS, code_field=None if has_gm() else CODE_FIELD,
                           form=form, errors=rejected.fields if rejected else {}, first=not has_gm())


@bp.route("/setup", methods=("GET", "POST"))
@shows_form(_setup_page)
def setup():
    """Create a GM account: on first start with the set-up code, or whenever signups are open."""
    if not signup_open():
        return redirect(url_for("auth.login"))
    first = not has_gm()
    if first:
        code, new = setup_code.issue(current_app)
        if new:
            setup_code.announce(code, current_app.config.get("BASE_URL", ""))  # never the Host header: a stranger sets that
    if request.method == "GET":
        return _setup_page({"code": request.args.get("code", "")})
    form = form_data()
    signing_up = service(policy.SETUP_PAGE, open_signup=current_app.config.get("OPEN_SIGNUP", False),
                         setup_code_ok=setup_code.matches(current_app, form.get("code")))
    try:
        outcome = signing_up.handle({**{k: v for k, v in form.items() if k != "code"}, "type": "RegisterGM"})
    except Denied:  # someone else finished the first start while this form was open
        return redirect(url_for("auth.login"))
    if outcome.replayed:  # a resent form logs nobody in: a session comes only from a new account
        return redirect(url_for("auth.login"))
    if first:
        setup_code.discard(current_app)
    begin_session(outcome.key)
    return redirect(url_for("campaigns.index"))


@bp.route("/login", methods=("GET", "POST"))
def login():
    """Log a GM in."""
    if not has_gm():
        return redirect(url_for("auth.setup"))
    error = None
    username = ""
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        with throttle.guesses().attempt(throttle.MESSAGE, account=username,
                                        address=throttle.client_address()) as attempt:
            gm_id = verify_password(get_db(), username, request.form.get("password", ""), _context().password_method)
            if gm_id:
                attempt.right()
        if gm_id:
            begin_session(gm_id)
            return redirect(same_site_path(request.args.get("next", "")) or url_for("campaigns.index"))
        error = t("Wrong username or password.")
    return render_template("auth/login.html", error=error, username=username), 401 if error else 200


@bp.post("/logout")
def logout():
    """Log out: this session ends on the server too, so a copy of its cookie stops working."""
    if session.get("session_id"):  # a cookie from before sessions had ids has nothing to end on the server
        service().handle({"type": "EndSession", "session_id": session["session_id"]})
    session.clear()
    return redirect(url_for("auth.login"))


def _context():
    from tracker.application.services import Context

    return current_app.config.get("SERVICE_CONTEXT") or Context()


def begin_session(gm_id: str) -> None:
    """Log this browser in as the GM, in a new session of the GM's current generation."""
    session.clear()
    session.update(gm_id=gm_id, session_id=new_session_id(), generation=current_generation(get_db(), gm_id))


@bp.get("/settings")
def settings():
    """Show the GM's settings: language, password and sessions, API tokens."""
    return _settings_page()


def _settings_page(new_token: str = "", status: int = 200, errors: dict | None = None):
    db = get_db()
    return render_template("auth/settings.html", tokens=queries.api_tokens(db, g.gm["id"]), new_token=new_token,
                           scopes=queries.token_scopes(db, g.gm["id"]), campaigns=queries.campaigns(db, g.gm["id"]),
                           changed=request.args.get("changed"),
                           chosen_language=queries.gm_language(get_db(), g.gm["id"]), errors=errors or {},
                           version=queries.gm_version(get_db(), g.gm["id"])), status


@bp.post("/settings/language")
@shows_form(lambda form, rejected: _settings_page(status=422, errors=rejected.fields)[0])
def choose_language():
    """Read Touché in the chosen language from now on."""
    service().handle({**form_data(), "type": "ChooseLanguage"})
    return redirect(url_for("auth.settings", changed="language"))


def _password_page(form=None, rejected=None):
    return render_template("auth/password.html", errors=rejected.fields if rejected else {})


@bp.get("/settings/password")
def change_password():
    """Show the form changing the password."""
    return _password_page()


@bp.post("/settings/password")
@shows_form(_password_page)
def set_password():
    """Change the password; every session ends, and this browser stays logged in on a new one."""
    service().handle({**form_data(), "type": "ChangePassword"})
    begin_session(g.gm["id"])
    return redirect(url_for("auth.settings", changed="password"))


@bp.post("/settings/sessions/end")
def end_all_sessions():
    """Log out everywhere: every session of this GM ends, this one too."""
    service().handle({"type": "EndAllSessions"})
    session.clear()
    return redirect(url_for("auth.login"))


@bp.post("/settings/tokens")
def create_token():
    """Create an API token (shown once), read-only and/or for one campaign as ticked."""
    outcome = service().handle({**form_data(), "type": "IssueApiToken"})
    return _settings_page(new_token=outcome.secret, status=201)


@bp.post("/settings/tokens/<token_id>/revoke")
def revoke_token(token_id):
    """Revoke an API token."""
    service().handle({"type": "RevokeApiToken", "token_id": token_id})
    return redirect(url_for("auth.settings"))
