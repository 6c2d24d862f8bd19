"""The limits every request lives within: how big a body may be (413), and a database that is
busy, full or read-only (503 with Retry-After, on pages and on the API alike).

A 503 is only ever answered for a write that was rolled back whole, so nothing acknowledged is
lost: the client may simply send it again.
"""
from __future__ import annotations

import sqlite3

import psycopg
from flask import Flask, current_app, render_template, request
from werkzeug.exceptions import RequestEntityTooLarge

from tracker.rules.text import join, t
from tracker.web import problems

LARGE_BODIES = {"backup.create", "characters.import_create"}  # the routes that take an upload: the rest take a form or a command
RETRY_AFTER_SECONDS = 5
UNAVAILABLE = {  # what SQLite or PostgreSQL says -> what the user reads
    "database is locked": t("Touché is busy writing something big (an import?)."),
    "database table is locked": t("Touché is busy writing something big (an import?)."),
    "lock timeout": t("Touché is busy writing something big (an import?)."),
    "could not extend file": t("The server's disk is full."),
    "read-only transaction": t("The database is read-only at the moment."),
    "database or disk is full": t("The server's disk is full."),
    "readonly database": t("The database is read-only at the moment."),
}


def init_app(app: Flask) -> None:
    """Register before CSRF protection, which reads the form (and so the body) first."""
    app.before_request(allow_uploads)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    app.register_error_handler(sqlite3.OperationalError, unavailable)
    app.register_error_handler(psycopg.OperationalError, unavailable)


def allow_uploads() -> None:
    """Let the routes that take an upload read a bigger body than the rest."""
    if request.endpoint in LARGE_BODIES:
        request.max_content_length = current_app.config["MAX_UPLOAD_LENGTH"]


def too_large(_error: RequestEntityTooLarge):
    limit = request.max_content_length or 0
    message = t("What you sent is larger than this server accepts ({size}). Nothing was logged.", size=_size(limit))
    if request.endpoint in LARGE_BODIES:
        message = join([message, t("Split the file, or ask the administrator to raise TOUCHE_MAX_UPLOAD_MB.")], " ")
    if request.path.startswith("/api/"):
        return problems.problem(413, "too_large", message, limit_bytes=limit)
    return render_template("error.html", title=t("Too large"), message=message), 413


def unavailable(error: sqlite3.OperationalError | psycopg.OperationalError):
    reason = next((text for fragment, text in UNAVAILABLE.items() if fragment in str(error)), None)
    if reason is None and isinstance(error, psycopg.OperationalError) and (error.sqlstate or "08")[:2] in ("08", "57"):
        reason = t("The database cannot be reached at the moment.")  # lost, restarting, or shut down
    if reason is None:
        raise error
    message = join([reason, t("Nothing you sent was logged: try again in a few seconds.")], " ")
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if request.path.startswith("/api/"):
        response = problems.problem(503, "unavailable", message)
        response.headers.update(headers)
        return response
    return render_template("error.html", title=t("Try again in a moment"), message=message), 503, headers


def _size(limit: int) -> str:
    return f"{limit / 1024 / 1024:g} MB" if limit >= 1024 * 1024 else f"{limit / 1024:g} KB"
