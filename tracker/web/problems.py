"""Every error the JSON API answers, in one shape: RFC 9457 problem details.

``application/problem+json`` with ``type`` (a URI naming the kind of problem, the same for every
occurrence: a client switches on it), ``title`` (that kind in words, in the reader's language),
``status`` (the HTTP status), ``detail`` (this occurrence in words) and ``errors``, the member
Touché adds: each field's message (``{}`` when no one field is to blame; a refusal of the whole
command says why in ``detail``). Version 1's first members stay beside them, as version 1 never
removes one: ``error`` (the kind's short name, the last segment of ``type``) and ``message``
(the same words as ``detail``). docs/api.md lists the kinds.
"""
from __future__ import annotations

from typing import Any, Mapping

from flask import current_app

from tracker.rules.text import t

PROBLEM_JSON = "application/problem+json"
# A tag URI (RFC 4151) names a kind without promising a page to fetch (RFC 9457, 3.1.1).
TYPE_PREFIX = "tag:touche,2026:problem:"
WHOLE = "__all__"  # the key a refusal of the whole command keeps its message under, on the pages

TITLES = {
    "bad_request": t("Bad request"),
    "unauthorized": t("No valid API token"),
    "forbidden": t("Not allowed"),
    "not_found": t("Not found"),
    "method_not_allowed": t("Method not allowed"),
    "conflict": t("Changed meanwhile"),
    "too_large": t("Too large"),
    "invalid": t("Invalid command"),
    "refused": t("Refused by the rules"),
    "too_many_attempts": t("Too many attempts"),
    "too_many_requests": t("Too many requests"),
    "unavailable": t("Try again in a moment"),
}


def type_of(kind: str) -> str:
    return TYPE_PREFIX + kind


def problem(status: int, kind: str, detail: Any, errors: Mapping[str, Any] | None = None,
            title: Any = None, **extra: Any):
    """The problem-details response for one error of the API (``extra``: members of that kind,
    such as a conflict's versions)."""
    body = {"type": type_of(kind), "title": title or TITLES.get(kind) or kind.replace("_", " "),
            "status": status, "detail": detail,
            "errors": {name: message for name, message in (errors or {}).items() if name != WHOLE},
            "error": kind, "message": detail, **extra}
    response = current_app.json.response(body)
    response.status_code = status
    response.mimetype = PROBLEM_JSON
    return response
