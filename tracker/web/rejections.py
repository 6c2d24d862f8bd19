"""A rejected command, answered in one place: problem details (RFC 9457) for the API, the form again for a page.

A route that shows a form declares, with ``@shows_form(page)``, how to draw its page again;
when the command it sends is ``Rejected``, the error handler calls ``page(form, rejected,
**the route's arguments)`` with what was posted and answers 422, so the GM finds each message next
to its field and nothing they typed is lost. The route itself only sends the command.
"""
from __future__ import annotations

from typing import Any, Callable

from flask import Flask, current_app, make_response, render_template, request

from tracker.domain.errors import NotFound, Rejected
from tracker.rules.base import Refused
from tracker.rules.text import t
from tracker.web import problems

FormPage = Callable[..., Any]


def shows_form(page: FormPage) -> Callable:
    """Mark a view whose rejected command redraws its form with ``page(form, rejected, **view_args)``."""
    def mark(view):
        view.form_page = page
        return view
    return mark


def answer(rejected: Rejected):
    """The 422 for a rejected command: JSON on /api/, else the route's form with its errors."""
    if request.path.startswith("/api/"):
        kind = "refused" if isinstance(rejected, Refused) else "invalid"
        return problems.problem(422, kind, rejected.message, rejected.fields)
    from tracker.web import form_data

    view = current_app.view_functions.get(request.endpoint or "")
    page = getattr(view, "form_page", None)
    if page is None:
        body = render_template("error.html", title=t("Not accepted"), message=rejected.message)
    else:
        try:
            body = page(form_data(), rejected, **(request.view_args or {}))
        except NotFound as missing:  # the form's subject does not exist: that answer comes first
            return current_app.handle_user_exception(missing)
    response = make_response(body)
    response.status_code = 422
    return response


def init_app(app: Flask) -> None:
    app.register_error_handler(Rejected, answer)
