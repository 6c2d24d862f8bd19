"""The web layer assembled: every blueprint, the request checks, and the answers to errors."""
from __future__ import annotations

from flask import Flask, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect, generate_csrf
from markupsafe import Markup

from tracker import i18n, rules
from tracker.domain import workspace
from tracker.domain.errors import Denied, NotFound
from tracker.rules.text import t
from tracker.eventstore.store import Conflict
from tracker.web import (access, api, as_lines, cors, auth, backup, campaigns, characters, duel_setup, duels, health, history, inputs,
                         is_htmx, labels, language, limits, log, player, problems, ratelimits, recaps, recovery, rejections, seat_links, seats, sessions, theme,
                         throttle, timetravel, undo)

csrf = CSRFProtect()


def _session_title(session) -> object:
    """A session's title in the reader's language (a session planned on the fly has none of its own)."""
    return workspace.session_title(session.get("title") or "", session.get("date") or "")


def init_web(app: Flask) -> None:
    inputs.init_app(app)  # first: its int converter must be in place before any route is added
    limits.init_app(app)  # before CSRF: an oversized body is a 413 before anything reads it
    csrf.init_app(app)
    rejections.init_app(app)
    for module in (auth, campaigns, characters, recovery, sessions, duel_setup, log, duels, undo, history, timetravel,
                   recaps, backup, player, seats, seat_links, health, theme, language):
        app.register_blueprint(module.bp)
    api.init_app(app)  # /api/v1, and the old unversioned /api paths as aliases
    cors.init_app(app)  # for the origins the GM lists (CORS_ORIGINS)
    csrf.exempt(api.bp)  # the API authenticates by token, never by cookie, so CSRF cannot reach it
    throttle.init_app(app)
    app.before_request(access.guard)
    ratelimits.init_app(app)  # after the guard, which finds the token the API's requests count under
    app.before_request(i18n.gm_language)  # after the guard, which finds the GM
    app.after_request(access.secure_headers)

    app.jinja_env.globals.update(rulesets=rules.RULESETS, is_htmx=is_htmx, rank_short=labels.rank_short,
                                 field_names=labels.FIELD_NAMES, log_categories=labels.LOG_CATEGORIES)
    app.jinja_env.globals["csrf_field"] = lambda: Markup(
        f'<input type="hidden" name="csrf_token" value="{generate_csrf()}">')
    app.jinja_env.filters["as_lines"] = as_lines
    app.jinja_env.filters.update(day=inputs.day, moment=inputs.moment, ending=labels.ending, result=labels.result,
                                 track_label=labels.track_label)
    app.jinja_env.tests["startswith"] = lambda value, prefix: str(value).startswith(prefix)
    app.jinja_env.filters["session_title"] = _session_title
    app.jinja_env.filters["ruleset_title"] = lambda name: rules.RULESETS[name].TITLE if name in rules.RULESETS else name

    @app.errorhandler(Conflict)
    def conflict(error: Conflict):
        what = error.stream.split("-", 1)[0]
        message = t("This {what} changed since you opened it: someone else logged first. "
                    "Nothing you sent was logged. Look at it as it is now, then try again.",
                    what=labels.LOG_CATEGORIES.get(what, what))
        if request.path.startswith("/api/"):
            return problems.problem(409, "conflict", message, stream=error.stream,
                                    expected_version=error.expected, current_version=error.actual)
        return render_template("conflict.html", message=message, error=error), 409

    @app.errorhandler(NotFound)
    def not_found(error: NotFound):
        if request.path.startswith("/api/"):
            return problems.problem(404, "not_found", str(error))
        return render_template("error.html", title=t("Not found"), message=str(error)), 404

    @app.errorhandler(Denied)
    def denied(error: Denied):
        if request.path.startswith("/api/"):
            return problems.problem(403, "forbidden", str(error))
        return render_template("error.html", title=t("Not allowed"), message=str(error)), 403

    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError):
        message = t("This form has expired or did not come from Touché. Reload the page and try again.")
        return render_template("error.html", title=t("Form refused"), message=message), 400
