"""The languages Touché speaks, each named in its own language (as a language switch shows them)."""
from __future__ import annotations

from typing import Any

from tracker.rules.base import Invalid
from tracker.rules.text import t

LANGUAGES = ("en", "es")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "es": "Español"}
# Words the core's pages show as they are in every language (docs/glossary.md): the brand, the
# language names and "vs" between a duel's sides. Each ruleset lists its own game terms
# (``GAME_TERMS``).
KEPT_WORDS = ("Touché", *LANGUAGE_NAMES.values(), "vs")


def parse_language(raw: Any, name: str = "language") -> str:
    """A language Touché speaks, from a form or JSON, or Invalid naming the field."""
    if raw not in LANGUAGES:
        raise Invalid({name: t("must be one of {choices}", choices=", ".join(LANGUAGES))})
    return raw
