"""GM accounts on the web: first-start set-up, login, logout, and the settings page (API tokens)."""
from __future__ import annotations

from flask import Blueprint, current_app, g, redirect, render_template, request, session, url_for
from werkzeug.security import check_password_hash

from tracker import policy, setup_code
from tracker.accounts import SIGNUP_FIELDS
from tracker.db import get_db
from tracker.errors import Denied
from tracker.projections import queries
from tracker.rules.base import Field, Invalid
from tracker.web import form_data, service

CODE_FIELD = Field("code", "Set-up code", "text", maximum=100,
                   help="printed in the console where Touché was started")

bp = Blueprint("auth", __name__)


def has_gm() -> bool:
    return queries.has_gm(get_db())


def signup_open() -> bool:
    return not has_gm() or current_app.config.get("OPEN_SIGNUP", False)


@bp.route("/setup", methods=("GET", "POST"))
def setup():
    """Create a GM account: on first start with the set-up code, or whenever signups are open."""
    if not signup_open():
        return redirect(url_for("auth.login"))
    first = not has_gm()
    if first:
        code, new = setup_code.issue(current_app)
        if new:
            setup_code.announce(code, current_app.config.get("BASE_URL", ""))  # never the Host header: a stranger sets that
    form, errors = {"code": request.args.get("code", "")}, {}
    if request.method == "POST":
        form = form_data()
        signing_up = service(policy.SETUP_PAGE, open_signup=current_app.config.get("OPEN_SIGNUP", False),
                             setup_code_ok=setup_code.matches(current_app, form.get("code")))
        try:
            outcome = signing_up.handle({**{k: v for k, v in form.items() if k != "code"}, "type": "RegisterGM"})
        except Invalid as bad:
            errors = bad.errors
        except Denied:  # someone else finished the first start while this form was open
            return redirect(url_for("auth.login"))
        else:
            if outcome.replayed:  # a resent form logs nobody in: a session comes only from a new account
                return redirect(url_for("auth.login"))
            if first:
                setup_code.discard(current_app)
            session.clear()
            session["gm_id"] = outcome.key
            return redirect(url_for("campaigns.index"))
    return render_template("auth/setup.html", fields=SIGNUP_FIELDS, code_field=CODE_FIELD if first else None,
                           form=form, errors=errors, first=first), 422 if errors else 200


@bp.route("/login", methods=("GET", "POST"))
def login():
    """Log a GM in."""
    if not has_gm():
        return redirect(url_for("auth.setup"))
    error = None
    username = ""
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        row = queries.gm_login(get_db(), username)
        if row and check_password_hash(row["password_hash"], request.form.get("password", "")):
            session.clear()
            session["gm_id"] = row["id"]
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
    return render_template("auth/settings.html", tokens=queries.api_tokens(get_db(), g.gm["id"]), new_token=new_token,
                           version=queries.gm_version(get_db(), g.gm["id"])), status


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
