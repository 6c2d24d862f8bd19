"""The reader's language: Flask-Babel's catalogs, and the translator the rules' Texts use.

Every catalog is gettext's (``tracker.i18n.catalogs`` extracts, updates and compiles them): the core's
in ``tracker/i18n/translations``, the shared rules' in ``tracker/rules/translations``, and one in each
ruleset's package (``tracker/rules/<name>/translations``), found through the ruleset registry, so
a ruleset brings its own words as it brings its own templates. Flask-Babel merges them.
"""
from __future__ import annotations

import gettext
from functools import cached_property
from pathlib import Path

from flask import Flask, current_app, g, has_app_context, request
from flask.json.provider import DefaultJSONProvider
from babel import support
from flask_babel import Babel, Domain, get_translations
from flask_babel import _get_current_context

from tracker import rules
from tracker.rules import text

from tracker.domain.languages import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES
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
    Catalogs(app, locale_selector=select_language, default_translation_directories=directories)
    text.install(translator)
    app.jinja_env.globals.update(current_language=current_language, language_names=LANGUAGE_NAMES)
    if app.config.get("PSEUDO_TRANSLATION"):
        app.jinja_env.install_gettext_callables(
            gettext=lambda s: pseudo(get_translations().ugettext(s)),
            ngettext=lambda s, p, n: pseudo(get_translations().ungettext(s, p, n)), newstyle=True)
    app.json = WordsJSON(app)


class Catalogs(Babel):
    """Flask-Babel, whose catalogs are merged by ``MergedCatalogs``."""

    @cached_property
    def domain_instance(self):
        return MergedCatalogs(domain=self.domain)


class MergedCatalogs(Domain):
    """Every catalog directory's words merged into one translations object for the locale.

    Flask-Babel's own merge takes the plural function of the *last* directory, even one that has
    no ``.mo`` for the locale (it then reads a lenient ``n != 1`` that counts anything, ``None``
    too): a ruleset without a catalog changed how every other catalog counts. Here only a catalog
    read from a ``.mo`` file contributes, and the plural rule is the first such catalog's (the
    core's), so no catalog can change how another counts."""

    def get_translations(self):
        ctx = _get_current_context()
        if ctx is None:
            return support.NullTranslations()
        from flask_babel import get_locale

        locale = get_locale()
        cache = self.get_translations_cache(ctx)
        key = (str(locale), self.domain[0])
        if key not in cache:
            cache[key] = merged(self.translation_directories, locale, self.domain[0])
        return cache[key]


def merged(directories, locale, domain: str) -> support.Translations:
    translations, plural = support.Translations(), None
    for directory in directories:
        catalog = support.Translations.load(directory, [locale], domain)
        if not isinstance(catalog, gettext.GNUTranslations):
            continue  # no .mo for this locale here: nothing to merge, and no say in counting
        translations.merge(catalog)
        plural = plural or catalog.plural
    # Without any catalog the source language's rule, as strict as a compiled one.
    translations.plural = plural or gettext.c2py("n != 1")
    return translations


class WordsJSON(DefaultJSONProvider):
    """JSON answers whose words (Texts from the read models and the rules) read in the reader's
    language, as a page does."""

    @staticmethod
    def default(o):
        if isinstance(o, (text.Text, text.Joined)):
            return str(o)
        return DefaultJSONProvider.default(o)


LANGUAGE_COOKIE = "lang"


def select_language() -> str:
    """The language of this request: one asked for in the address (``?lang=``, the switch on a
    player's page), else one chosen for it (``g.language``: the GM's own choice, or the campaign's
    on a page its players see), else the one the language switch remembered (a cookie), else the
    browser's (``Accept-Language``)."""
    if not request:
        return g.get("language") if g.get("language") in LANGUAGES else DEFAULT_LANGUAGE
    for chosen in (_asked(), g.get("language"), request.cookies.get(LANGUAGE_COOKIE)):
        if chosen in LANGUAGES:
            return chosen
    return request.accept_languages.best_match(LANGUAGES) or DEFAULT_LANGUAGE


def _asked() -> str | None:
    """The language the address asks for (``?lang=``); none when its query string is not even
    UTF-8 (that request is answered 400 elsewhere, and its error page still needs a language)."""
    try:
        return request.args.get("lang")
    except UnicodeDecodeError:
        return None


def gm_language() -> None:
    """Before a request's view: a logged-in GM who chose a language reads every page in it."""
    from tracker.bootstrap.db import get_db
    from tracker.projections import queries

    gm = g.get("gm")
    if gm and "language" not in g:
        chosen = queries.gm_language(get_db(), gm["id"])
        if chosen in LANGUAGES:
            g.language = chosen


def current_language() -> str:
    """The language this page is drawn in (``<html lang>``)."""
    from flask_babel import get_locale

    locale = get_locale()
    return locale.language if locale else DEFAULT_LANGUAGE


def translator():
    """The current reader's gettext and ngettext (English source strings outside a request)."""
    if not has_app_context():
        return (lambda message: message), (lambda one, many, n: one if n == 1 else many)
    translations = get_translations()
    if current_app.config.get("PSEUDO_TRANSLATION"):
        return (lambda message: pseudo(translations.gettext(message)),
                lambda one, many, n: pseudo(translations.ngettext(one, many, n)))
    return translations.gettext, translations.ngettext


# The pseudo-translation (config ``PSEUDO_TRANSLATION``, for tests): every translated string read
# between these marks, so a page shows at a glance which words never went through a catalog.
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


def pseudo(message: str) -> str:
    return f"{PSEUDO_OPEN}{message}{PSEUDO_CLOSE}"


def localized(formatted: str) -> str:
    """A date or a number Babel wrote in the reader's language: marked as translated in the
    pseudo-translation too."""
    return pseudo(formatted) if has_app_context() and current_app.config.get("PSEUDO_TRANSLATION") else formatted
