"""The glossary lists every word a page shows as it is in every language, as the code declares it."""
import re
from pathlib import Path

from babel.messages.pofile import read_po

from tracker import rules
from tracker.domain.languages import KEPT_WORDS

GLOSSARY = (Path(__file__).resolve().parents[2] / "docs" / "glossary.md").read_text(encoding="utf-8")


def test_every_game_term_a_ruleset_declares_is_in_the_glossary():
    for module in rules.shipped():
        missing = [term for term in module.GAME_TERMS if term not in GLOSSARY]
        assert not missing, f"{module.NAME}'s game terms missing from docs/glossary.md: {missing}"


def test_the_core_s_kept_words_are_in_the_glossary():
    assert [word for word in KEPT_WORDS if word not in GLOSSARY] == []


def _pf2e_terms() -> list[tuple[str, str]]:
    """The glossary's "Pathfinder 2e's terms" rows as (English, Spanish) pairs, a row that lists
    several terms ("frightened, off-guard") split into one pair each, a note in brackets left out."""
    section = GLOSSARY.split("## Pathfinder 2e's terms", 1)[1]
    pairs = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("English", "---"):
            continue
        english, spanish = (re.sub(r"\s*\(.*\)$", "", cell).split(", ") for cell in cells)
        assert len(english) == len(spanish), line
        pairs += zip(english, spanish)
    return pairs


def test_the_pf2e_catalog_says_each_term_as_the_glossary_does():
    catalog = read_po((Path(__file__).resolve().parents[2] / "tracker" / "rules" / "pf2e" / "translations"
                       / "es" / "LC_MESSAGES" / "messages.po").open("rb"))
    checked = {}
    for english, spanish in _pf2e_terms():
        message = catalog.get(english)
        if message is not None:
            checked[english] = (message.string, spanish)
    assert {english: said for english, said in checked.items() if said[0] != said[1]} == {}
    # the duel's reactions and actions, the words a check is most needed for, are all in the catalog
    assert {"Bullying Press", "Deceptive Sidestep", "Sense Weakness", "Dueling Counter", "Strike", "Demoralize",
            "Feint", "untrained", "Treat Wounds"} <= set(checked)
