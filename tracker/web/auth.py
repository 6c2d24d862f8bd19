"""GM accounts on the web: first-start set-up, login, logout, and the settings page (API tokens)."""
from __future__ import annotations

from flask import Blueprint, current_app, g, redirect, render_template, request, session, url_for
from werkzeug.security import check_password_hash

from tracker import policy, setup_code
from tracker.accounts import SIGNUP_FIELDS
from tracker.db import get_db
from tracker.errors import Denied
from tracker.rules.base import Field
from tracker.web import form_data, service
from tracker.web.rejections import shows_form

CODE_FIELD = Field("code", "Set-up code", "text", maximum=100,
                   help="printed in the console where Touché was started")

bp = Blueprint("auth", __name__)


def has_gm() -> bool:
    return get_db().execute("SELECT 1 FROM gms LIMIT 1").fetchone() is not None


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
    session.clear()
    session["gm_id"] = outcome.key
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
        row = get_db().execute("SELECT id, password_hash FROM gms WHERE username = ?", [username]).fetchone()
        if row and check_password_hash(row[1], request.form.get("password", "")):
            session.clear()
            session["gm_id"] = row[0]
            target = request.args.get("next", "")
            return redirect(target if target.startswith("/") and not target.startswith("//")
                            else url_for("campaigns.index"))
        error = "Wrong username or password."
    return render_template("auth/login.html", error=error, username=username), 401 if error else 200


@bp.post("/logout")
def logout():
    """Log out."""
    session.clear()
    return redirect(url_for("auth.login"))


@bp.get("/settings")
def settings():
    """Show the GM's settings: API tokens."""
    return _settings_page()


def _settings_page(new_token: str = "", status: int = 200):
    tokens = get_db().execute("SELECT token_id, label, revoked FROM api_tokens WHERE gm_id = ? ORDER BY rowid",
                              [g.gm["id"]]).fetchall()
    return render_template("auth/settings.html", tokens=tokens, new_token=new_token,
                           version=get_db().execute("SELECT version FROM gms WHERE id = ?",
                                                    [g.gm["id"]]).fetchone()[0]), status


@bp.post("/settings/tokens")
def create_token():
    """Create an API token (shown once)."""
    outcome = service().handle({**form_data(), "type": "IssueApiToken"})
    return _settings_page(new_token=outcome.secret, status=201)


@bp.post("/settings/tokens/<token_id>/revoke")
def revoke_token(token_id):
    """Revoke an API token."""
    service().handle({"type": "RevokeApiToken", "token_id": token_id})
    return redirect(url_for("auth.settings"))
