"""Throttling of password guesses on the web: failed logins per client address and per account,
and failed password changes per account (``tracker.application.guesses`` counts them, before the check).

Only failed attempts count, so a GM who types their password right is never held back, while
guessing is: past the limit the login (or the password change) answers 429 with a Retry-After,
before any password is checked. Counters live in memory by default (one process: `make run`
serves with waitress, which is threaded); ``TOUCHE_RATELIMIT_STORAGE`` names a shared storage (e.g.
``redis://…``) for an install that runs several processes. Flask-Limiter builds that storage
from the app's configuration.
"""
from __future__ import annotations

from flask import Flask, current_app, render_template, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from tracker.application.guesses import Guesses, TooManyGuesses
from tracker.rules.text import t
from tracker.web import problems

MESSAGE = t("Too many failed logins. Wait a few minutes, then try again.")
GUESSES = "touche.guesses"  # the app's extension holding its Guesses
STORAGE = "touche.rate_storage"  # the counters' storage, shared with the API's rate limit (tracker.web.ratelimits)


def init_app(app: Flask) -> None:
    """Count this app's password guesses (each app counts on its own)."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    limiter = Limiter(get_remote_address, app=app)
    app.extensions[STORAGE] = limiter.storage
    app.extensions[GUESSES] = Guesses(limiter.storage, lambda: current_app.config["LOGIN_LIMIT_PER_ACCOUNT"],
                                      lambda: current_app.config["LOGIN_LIMIT_PER_ADDRESS"])
    app.register_error_handler(TooManyGuesses, _too_many)


def guesses() -> Guesses:
    return current_app.extensions[GUESSES]


def client_address() -> str:
    return get_remote_address()


def _too_many(error: TooManyGuesses):
    if request.path.startswith("/api/"):
        errors = {error.field: error.message} if error.field else {}
        response = problems.problem(429, "too_many_attempts", error.message, errors)
    else:
        response = current_app.make_response((render_template("error.html", title=t("Too many attempts"),
                                                               message=error.message), 429))
    response.headers["Retry-After"] = str(error.retry_after)
    return response
