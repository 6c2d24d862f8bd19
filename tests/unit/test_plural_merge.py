"""A catalog without a .mo file (a ruleset that brings no words, like the tests' coin ruleset)
cannot change how the other catalogs count: Flask-Babel's own merge took the last directory's
plural function, and a missing catalog's is lenient (it counted ``None``), which hid a 500 that
production raises (issue 29)."""
import pytest
from flask_babel import get_translations

from tests import coin_ruleset
from tracker import create_app, rules


def counting(monkeypatch, tmp_path, extra=()):
    """How the merged catalogs count, in English and Spanish, with the shipped rulesets and
    ``extra``: each language's plural forms for 0..5 and what a missing count does."""
    monkeypatch.setattr(rules, "RULESETS", {m.NAME: m for m in rules.shipped()})
    for module in extra:
        rules.register(module)
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / f"t{len(extra)}.db"), "SECRET_KEY": "x"})
    found = {}
    for language in ("en", "es"):
        with app.test_request_context(f"/?lang={language}"):
            translations = get_translations()
            try:
                missing = translations.ngettext("%(num)s hit", "%(num)s hits", None)
            except TypeError as error:
                missing = f"raised {error}"
            found[language] = ([translations.plural(n) for n in range(6)], missing,
                               translations.ngettext("%(num)s duel", "%(num)s duels", 2))
    return found


def test_a_catalog_less_ruleset_leaves_the_plural_rules_as_production_has_them(monkeypatch, tmp_path):
    production = counting(monkeypatch, tmp_path)
    assert production["en"][1].startswith("raised") and production["es"][1].startswith("raised")
    assert production["es"][2] == "%(num)s duelos"
    assert counting(monkeypatch, tmp_path, extra=[coin_ruleset]) == production


def test_with_no_catalog_at_all_a_missing_count_still_raises(monkeypatch, tmp_path):
    monkeypatch.setattr(rules, "RULESETS", {})
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "none.db"), "SECRET_KEY": "x",
                      "BABEL_TRANSLATION_DIRECTORIES": str(tmp_path / "nothing")})
    with app.test_request_context("/?lang=es"):
        with pytest.raises(TypeError):
            get_translations().ngettext("%(num)s hit", "%(num)s hits", None)
        assert get_translations().ngettext("%(num)s hit", "%(num)s hits", 1) == "%(num)s hit"
