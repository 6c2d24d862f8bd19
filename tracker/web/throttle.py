"""Throttling of failed logins, per client address and per account, with Flask-Limiter.

Only failed attempts count (a 401 answer), so a GM who types their password right is never held
back, while guessing is: past the limit the login answers 429 with a Retry-After, before any
password is checked. Counters live in memory by default (one process: `make run` serves with
waitress, which is threaded); ``TOUCHE_RATELIMIT_STORAGE`` names a shared storage (e.g.
``redis://…``) for an install that runs several processes.
"""
from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address

from tracker.rules.text import t

MESSAGE = t("Too many failed logins. Wait a few minutes, then try again.")


def _failed(response) -> bool:
    return response.status_code == 401


def _account() -> str:
    return "account:" + request.form.get("username", "").strip().casefold()


def init_app(app: Flask) -> None:
    """Put the login limits on the login view of this app (each app counts on its own)."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)  # sends Retry-After with every 429
    limiter = Limiter(get_remote_address, app=app)
    login = app.view_functions["auth.login"]
    for limit, key in (("LOGIN_LIMIT_PER_ADDRESS", get_remote_address), ("LOGIN_LIMIT_PER_ACCOUNT", _account)):
        login = limiter.limit(lambda setting=limit: current_app.config[setting], key_func=key, methods=["POST"],
                              deduct_when=_failed, scope=limit.lower())(login)
    app.view_functions["auth.login"] = login
    app.register_error_handler(RateLimitExceeded, _too_many)


def _too_many(error: RateLimitExceeded):
    response = current_app.make_response((render_template("error.html", title=t("Too many attempts"),
                                                           message=MESSAGE), 429))
    response.headers.setdefault("Retry-After", "60")
    return response
