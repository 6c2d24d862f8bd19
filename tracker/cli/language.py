"""The command line's language: ``TOUCHE_LANG`` if set, else the terminal's locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``, the first one set), when it is one Touché speaks; else English.

Messages are rendered inside the command (``speaking``), where an app context gives Flask-Babel's
catalogs. Help texts are read before any command runs, so ``gettext`` here translates them at
import from the core catalog directly.
"""
from __future__ import annotations

import functools
import os
from typing import Callable

from babel.support import NullTranslations, Translations

from tracker.i18n.campaign_language import speaking, supported
from tracker.i18n import CORE_CATALOGS, DEFAULT_LANGUAGE

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def language(environ: dict | None = None) -> str:
    """The language the command line speaks in this environment."""
    environ = os.environ if environ is None else environ
    if supported(environ.get("TOUCHE_LANG")):
        return supported(environ["TOUCHE_LANG"])
    terminal = next((environ[name] for name in LOCALE_VARIABLES if environ.get(name)), "")
    return supported(terminal) or DEFAULT_LANGUAGE


def in_cli_language(command: Callable) -> Callable:
    """Run a command's body in the command line's language (its messages, its refusals)."""
    @functools.wraps(command)
    def speaking_command(*args, **kwargs):
        with speaking(language()):
            return command(*args, **kwargs)
    return speaking_command


@functools.cache
def _catalog(lang: str) -> NullTranslations:
    return Translations.load(str(CORE_CATALOGS), [lang])


def gettext(message: str) -> str:
    """A help text in the command line's language (English when no catalog is compiled yet)."""
    return _catalog(language()).gettext(message)
