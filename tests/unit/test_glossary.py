"""The glossary lists every word a page shows as it is in every language, as the code declares it."""
from pathlib import Path

from tracker import rules
from tracker.languages import KEPT_WORDS

GLOSSARY = (Path(__file__).resolve().parents[2] / "docs" / "glossary.md").read_text(encoding="utf-8")


def test_every_game_term_a_ruleset_declares_is_in_the_glossary():
    for module in rules.shipped():
        missing = [term for term in module.GAME_TERMS if term not in GLOSSARY]
        assert not missing, f"{module.NAME}'s game terms missing from docs/glossary.md: {missing}"


def test_the_core_s_kept_words_are_in_the_glossary():
    assert [word for word in KEPT_WORDS if word not in GLOSSARY] == []
