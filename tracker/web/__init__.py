"""The web layer: one blueprint per area, and what they share (errors, forms, htmx)."""
from __future__ import annotations

from typing import Any

from flask import Flask, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf
from markupsafe import Markup

from tracker import policy, rules
from tracker.errors import Denied
from tracker.services import NotFound
from tracker.store import Conflict

csrf = CSRFProtect()


def init_web(app: Flask) -> None:
    from tracker.web import (access, api, auth, backup, campaigns, characters, duels, health, history, inputs,
                             limits, log, player, recaps, sessions, theme, throttle, timetravel)

    inputs.init_app(app)  # first: its int converter must be in place before any route is added
    limits.init_app(app)  # before CSRF: an oversized body is a 413 before anything reads it
    csrf.init_app(app)
    for module in (auth, campaigns, characters, sessions, log, duels, history, timetravel, recaps, backup,
                   player, api, health, theme):
        app.register_blueprint(module.bp)
    csrf.exempt(api.bp)  # the API authenticates by token, never by cookie, so CSRF cannot reach it
    throttle.init_app(app)
    app.before_request(access.guard)
    app.after_request(access.secure_headers)

    app.jinja_env.globals.update(rulesets=rules.RULESETS, is_htmx=is_htmx)
    app.jinja_env.globals["csrf_field"] = lambda: Markup(
        f'<input type="hidden" name="csrf_token" value="{generate_csrf()}">')
    app.jinja_env.filters["as_lines"] = as_lines
    app.jinja_env.tests["startswith"] = lambda value, prefix: str(value).startswith(prefix)
    app.jinja_env.filters["ruleset_title"] = lambda name: rules.RULESETS[name].TITLE if name in rules.RULESETS else name

    @app.errorhandler(Conflict)
    def conflict(error: Conflict):
        what = error.stream.split("-", 1)[0]
        message = (f"This {what} changed since you opened it: someone else logged first. "
                   "Nothing you sent was logged. Look at it as it is now, then try again.")
        if request.path.startswith("/api/"):
            return {"error": "conflict", "message": message, "stream": error.stream,
                    "expected_version": error.expected, "current_version": error.actual}, 409
        return render_template("conflict.html", message=message, error=error), 409

    @app.errorhandler(NotFound)
    def not_found(error: NotFound):
        if request.path.startswith("/api/"):
            return {"error": "not_found", "message": str(error)}, 404
        return render_template("error.html", title="Not found", message=str(error)), 404

    @app.errorhandler(Denied)
    def denied(error: Denied):
        if request.path.startswith("/api/"):
            return {"error": "forbidden", "message": str(error)}, 403
        return render_template("error.html", title="Not allowed", message=str(error)), 403

    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError):
        message = "This form has expired or did not come from Touché. Reload the page and try again."
        return render_template("error.html", title="Form refused", message=message), 400


def as_lines(value: Any, columns: tuple[str, ...] = ()) -> str:
    """A table of weapons or insults as the one-per-line, ``|``-separated text its textarea takes,
    its cells in the order of the field's ``columns``."""
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        def cells(item):
            row = [item.get(c) for c in columns] if isinstance(item, dict) else [item]
            while row and row[-1] in (None, ""):
                row.pop()
            return " | ".join("" if v is None else str(v) for v in row)
        return "\n".join(cells(item) for item in value)
    return str(value)


def is_htmx() -> bool:
    """True when htmx made the request (and wants a fragment, not the whole page)."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true"


def form_data() -> dict[str, Any]:
    """The submitted form as a dict: one value per field, a list where a field repeats."""
    return {key: values[0] if len(values) == 1 else values for key, values in request.form.lists()
            if key != "csrf_token"}


def page_or_fragment(page_template: str, fragment_template: str, status: int = 200, **context: Any):
    """Render the fragment for htmx requests and the full page (which includes it) otherwise."""
    return render_template(fragment_template if is_htmx() else page_template, **context), status


def service(door: str = policy.PAGES, **signup: bool):
    """The service for this request, on the request's database, acting as the logged-in GM (or an
    anonymous visitor) through ``door``: never as the command line."""
    from flask import current_app

    from tracker.db import get_db
    from tracker.services import Context, Service

    import dataclasses

    from flask import g

    if door == policy.COMMAND_LINE:
        raise ValueError("the web is never the command line")
    context = current_app.config.get("SERVICE_CONTEXT") or Context()
    gm = g.get("gm")
    return Service(get_db(), dataclasses.replace(context, actor=gm["id"] if gm else "", door=door, **signup))
