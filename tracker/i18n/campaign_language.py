"""The language a campaign's players read: its table display, seats and recaps.

The campaign's stream state holds it as ``language`` once the GM chose one; a campaign that never
chose reads English. Everything outside a request (the command line, a recap written to a file)
renders in a language by forcing Flask-Babel's locale for a while, inside an app context.
"""
from __future__ import annotations

import contextlib
from typing import Iterator

from flask import g, has_app_context
from flask_babel import force_locale, refresh

from tracker.i18n import DEFAULT_LANGUAGE, LANGUAGES
from tracker.projections import queries


def of_campaign(db, campaign_id: str) -> str:
    """The campaign's language, English when it never chose one (or chose one we no longer serve)."""
    state = queries.stream_state(db, f"campaign-{campaign_id}") or {}
    language = state.get("language") if isinstance(state, dict) else None
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


def supported(language: str | None) -> str | None:
    """``language`` if Touché speaks it (``es-ES`` reads as ``es``), else None."""
    if not language:
        return None
    short = language.replace("_", "-").split("-")[0].split(".")[0].lower()
    return short if short in LANGUAGES else None


def serve_in(language: str) -> None:
    """This request's pages read in ``language`` (the players' language, whatever their browser)."""
    g.language = language
    refresh()  # a locale chosen earlier in the request (by the browser's) must not stick


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Render Texts, templates and dates in ``language`` for a while; outside an app context
    (a test building a recap from a bare database) the English source strings are all there is."""
    if not has_app_context():
        yield
        return
    with force_locale(language):
        yield
