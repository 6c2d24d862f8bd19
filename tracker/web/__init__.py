"""The web layer: one blueprint per area (assembled in ``tracker.web.app``), and what they
share: forms, htmx, the request's service."""
from __future__ import annotations

import dataclasses
from typing import Any, Mapping

from flask import current_app, g, render_template, request

from tracker.application import policy

HANDLERS = "touche.handlers"  # the app's extension holding the handler table (see tracker.bootstrap)


def as_lines(value: Any, columns: tuple[str, ...] = (), words: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """A table of weapons or insults as the one-per-line, ``|``-separated text its textarea takes,
    its cells in the order of the field's ``columns``; a key a column's ``words`` name (a weapon's
    kind) as its word in the reader's language."""
    if value is None:
        return ""
    words = words or {}
    if isinstance(value, (list, tuple)):
        def cells(item):
            row = ([words.get(c, {}).get(item.get(c), item.get(c)) for c in columns] if isinstance(item, dict)
                   else [item])
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


def fingerprint_key() -> bytes:
    """The install's key for command fingerprints (derived from its SECRET_KEY)."""
    from tracker.application.commands.base import fingerprint_key as derived

    return derived(current_app.config["SECRET_KEY"])


def service(door: str = policy.PAGES, **signup: bool):
    """The service for this request, on the request's database, acting as the logged-in GM (or an
    anonymous visitor) through ``door``: never as the command line."""
    from tracker.bootstrap.db import get_db
    from tracker.application.services import Context, Service

    if door == policy.COMMAND_LINE:
        raise ValueError("the web is never the command line")
    context = current_app.config.get("SERVICE_CONTEXT") or Context()
    gm = g.get("gm")
    guesses = current_app.extensions.get("touche.guesses")  # tracker.web.throttle's
    return Service(get_db(), dataclasses.replace(context, actor=gm["id"] if gm else "", door=door, guesses=guesses,
                                                 scope=g.get("scope") or policy.FULL,
                                                 fingerprint_key=fingerprint_key(), **signup),
                   current_app.extensions[HANDLERS])

