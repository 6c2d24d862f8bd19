"""The reader's language: Flask-Babel's catalogs, and the translator the rules' Texts use.

Every catalog is gettext's (``tracker.catalogs`` extracts, updates and compiles them): the core's
in ``tracker/translations``, the shared rules' in ``tracker/rules/translations``, and one in each
ruleset's package (``tracker/rules/<name>/translations``), found through the ruleset registry, so
a ruleset brings its own words as it brings its own templates. Flask-Babel merges them.
"""
from __future__ import annotations

from pathlib import Path

from flask import Flask, g, has_app_context, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, get_translations

from tracker import rules
from tracker.rules import text

LANGUAGES = ("en", "es")
DEFAULT_LANGUAGE = "en"
CORE_CATALOGS = Path(__file__).parent / "translations"


def catalog_directories() -> list[Path]:
    """The core's catalog directory, the shared rules', then each registered ruleset's."""
    found = [CORE_CATALOGS, Path(rules.__file__).parent / "translations"]
    for module in rules.RULESETS.values():
        found.append(Path(module.__file__).parent / "translations")
    return found


def init_app(app: Flask) -> None:
    directories = ";".join(str(d) for d in catalog_directories())
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", directories)
    Babel(app, locale_selector=select_language, default_translation_directories=directories)
    text.install(translator)
    app.json = _TextJSON(app)


class _TextJSON(DefaultJSONProvider):
    """JSON answers read the rules' Texts in the request's language."""

    @staticmethod
    def default(o):
        if isinstance(o, (text.Text, text.Joined)):
            return str(o)
        return DefaultJSONProvider.default(o)


def select_language() -> str:
    """The language of this request: one chosen for it (``g.language``), else the browser's."""
    chosen = g.get("language")
    if chosen in LANGUAGES:
        return chosen
    if request:
        return request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def translator():
    """The current reader's gettext and ngettext (English source strings outside a request)."""
    if not has_app_context():
        return (lambda message: message), (lambda one, many, n: one if n == 1 else many)
    translations = get_translations()
    return translations.gettext, translations.ngettext
