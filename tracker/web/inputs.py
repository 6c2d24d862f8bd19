"""What a request may carry: numbers SQLite can hold, real text, shallow JSON; else a 4xx saying why.

Hostile input is stopped here, where it enters, so no view meets a number too large for the
database, a lone surrogate, or JSON nested deep enough to exhaust the stack. Werkzeug already
keeps undecodable bytes of a path, form or query string percent-encoded, except in a query string
of raw bytes that are not UTF-8, which it cannot read at all: that is refused before any view runs.
"""
from __future__ import annotations

import datetime as dt
import functools
from typing import Any

from flask import Flask, current_app, render_template, request
from werkzeug.exceptions import BadRequest, HTTPException
from werkzeug.routing import IntegerConverter, ValidationError

from tracker.backup import strictjson
from tracker.i18n import localized
from tracker.rules.fields import LARGEST_INT
from tracker.rules.text import t
from tracker.web import problems


class StoredInteger(IntegerConverter):
    """The ``<int:…>`` of every route: a whole number SQLite can hold, so ``/events/10**30`` is a
    404 like any other missing event, never an OverflowError."""

    def __init__(self, map, fixed_digits: int = 0, min: int | None = None, max: int | None = None,
                 signed: bool = False) -> None:
        super().__init__(map, fixed_digits, min, LARGEST_INT if max is None else max, signed)

    def to_python(self, value: str) -> int:
        if len(value) > len(str(LARGEST_INT)):  # also spares int() a string of a million digits
            raise ValidationError()
        return super().to_python(value)


def int_arg(name: str, default: int | None = None, minimum: int = 0) -> int | None:
    """The query-string parameter ``name`` as a whole number SQLite can hold; ``default`` when it
    is missing or empty; a 400 naming the parameter when it is anything else."""
    text = request.args.get(name, "").strip()
    if not text:
        return default
    digits = text.removeprefix("-")
    # ASCII digits only: int() would also take "٣" or "1_000", and "²" passes isdigit() yet not int().
    plain = digits.isascii() and digits.isdigit() and len(digits) <= len(str(LARGEST_INT))
    number = int(text) if plain else None
    if number is None or not minimum <= number <= LARGEST_INT:
        raise BadRequest(str(t("The address's {name} must be a whole number from {minimum} to {maximum}.",
                               name=repr(name), minimum=minimum, maximum=LARGEST_INT)))
    return number


def json_body() -> Any:
    """The request's JSON body, decoded strictly (see ``tracker.backup.strictjson``); ``None`` when the
    body does not say it is JSON; BadJSON when it is not JSON we accept."""
    if not request.is_json:
        return None
    return strictjson.loads(request.get_data(cache=False))


def refuse_undecodable_query():
    """Before any view: a query string of raw bytes that are not UTF-8 is a 400, not a crash
    when a view (or the login redirect) reads it."""
    try:
        request.query_string.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(str(t("The address holds bytes that are not UTF-8 text."))) from None


HTTP_TITLES = {400: t("Bad request"), 403: t("Not allowed"), 404: t("Not found"), 405: t("Method not allowed"),
               413: t("Too large"), 429: t("Too many requests"), 500: t("Something went wrong"),
               503: t("Try again in a moment")}
HTTP_MESSAGES = {
    400: t("The browser sent a request this server could not understand."),
    404: t("There is nothing at this address. Check it, or follow a link from the campaigns."),
    405: t("This address does not take that kind of request."),
    500: t("Something went wrong on the server: nothing you sent was logged."),
}


def http_error(error: HTTPException):
    """Any 4xx or 5xx werkzeug raises, as our error page, or as JSON {error, message} on /api/."""
    # Werkzeug's own wording of an error, left as it is, reads in the reader's language.
    told = error.description if error.description != type(error).description else \
        HTTP_MESSAGES.get(error.code, error.description)
    if request.path.startswith("/api/"):
        kind = error.name.lower().replace(" ", "_")
        response = problems.problem(error.code or 500, kind, told, title=problems.TITLES.get(kind) or HTTP_TITLES.get(error.code))
    else:
        response = current_app.make_response(render_template("error.html", title=HTTP_TITLES.get(error.code, error.name),
                                                              message=told))
    for name, value in error.get_headers():  # keep what the error adds, such as Allow or Retry-After
        if name.lower() not in ("content-type", "content-length"):
            response.headers[name] = value
    response.status_code = error.code or 500
    return response


def unreadable_input(error: Exception):
    """The safety net behind the checks above: a value our code could not hold or encode still
    gets a 400, and the error is logged in full, because reaching here means a check is missing."""
    current_app.logger.error("input reached %s unchecked: %r", request.path, error, exc_info=error)
    message = t("This request holds a value Touché cannot handle (a number too large, text that is not "
                "valid, or data nested too deep).")
    if request.path.startswith("/api/"):
        return problems.problem(400, "bad_request", message)
    return render_template("error.html", title=t("Bad request"), message=message), 400


def init_app(app: Flask) -> None:
    """Install the checks; call before any blueprint is registered, so every route's ``int`` is ours."""
    app.url_map.converters["int"] = StoredInteger
    app.before_request(refuse_undecodable_query)
    app.register_error_handler(HTTPException, http_error)
    for kind in (OverflowError, UnicodeError, RecursionError):
        app.register_error_handler(kind, unreadable_input)


# --- dates, typed in the reader's language ----------------------------------------------------

def typed_date(value: Any, language: str) -> Any:
    """A date as ISO 8601 (``2026-11-29``), read from what a date field sent: the browser's picker
    sends ISO, and a date typed by hand in the language's order is read too (``29/11/2026`` or
    ``29-11-26`` in Spanish, ``11/29/2026`` in English). Anything else comes back as it was sent,
    for the command to refuse next to its field."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    parts = text.replace(".", "/").replace("-", "/").split("/")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() and 0 < len(p) <= 4 for p in parts):
        return value
    numbers = dict(zip(("y", "m", "d") if len(parts[0]) == 4 else _date_order(language), map(int, parts)))
    year = numbers["y"] + (2000 if numbers["y"] < 100 else 0)
    try:
        return dt.date(year, numbers["m"], numbers["d"]).isoformat()
    except ValueError:
        return value


def _date_order(language: str) -> tuple[str, str, str]:
    """The order day, month and year are written in, in the language (from its short date format)."""
    from babel.dates import get_date_format

    pattern = get_date_format("short", locale=language).pattern.lower()
    return tuple(sorted("ymd", key=lambda letter: pattern.find(letter)))  # type: ignore[return-value]


def day(value: Any) -> str:
    """An ISO date (a session's) as the reader writes it: ``29 nov 2026``, ``Nov 29, 2026``."""
    from flask_babel import format_date

    try:
        return localized(format_date(dt.date.fromisoformat(str(value)[:10]), "medium"))
    except ValueError:
        return str(value)


def moment(value: Any) -> str:
    """A UTC ISO timestamp (when an event was logged) as the reader writes a date and a time."""
    from flask_babel import get_locale, get_timezone

    return localized(_moment(str(value), str(get_locale()), str(get_timezone())))


@functools.lru_cache(maxsize=4096)
def _moment(value: str, locale: str, timezone: str) -> str:
    # Kept: a log page writes 50 of these, ~80 us each with Flask-Babel's lookups (a quarter of
    # the page), and the same lines are drawn again at every visit and refresh; a logged moment,
    # the language and the zone say all the words there are.
    from babel.dates import format_datetime, get_timezone

    try:
        when = dt.datetime.fromisoformat(value)
    except ValueError:
        return value
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return format_datetime(when, "medium", tzinfo=get_timezone(timezone), locale=locale)
