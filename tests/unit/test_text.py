"""The rules' words stay message ids with values until a reader's language renders them."""
import orjson
import pytest

from tracker.rules import text
from tracker.rules.text import join, revive, t, tn

SPANISH = {"{name} has no {card} in hand": "{name} no tiene {card} en la mano", "Estocada Alta": "Estocada Alta",
           "the shared deck": "el mazo compartido"}


def spanish_gettext(message):
    return SPANISH.get(message, message)


def spanish_ngettext(one, many, n):
    return {"{count} card": ("{count} carta", "{count} cartas")}.get(one, (one, many))[0 if n == 1 else 1]


@pytest.fixture
def spanish():
    text.install(lambda: (spanish_gettext, spanish_ngettext))
    yield
    text.install(None)


def test_a_text_reads_as_its_english_source_with_no_translator():
    line = t("{name} has no {card} in hand", name="Inés", card="Estocada Alta")
    assert str(line) == "Inés has no Estocada Alta in hand"
    assert line == "Inés has no Estocada Alta in hand"
    assert "no Estocada" in line


def test_a_text_reads_in_the_installed_language_and_so_do_the_texts_inside_it(spanish):
    deck = t("the shared deck")
    assert str(t("{name} has no {card} in hand", name="Inés", card=deck)) == "Inés no tiene el mazo compartido en la mano"


@pytest.mark.parametrize("count, english, spanish_line", [(0, "0 cards", "0 cartas"), (1, "1 card", "1 carta"),
                                                          (2, "2 cards", "2 cartas")])
def test_a_plural_is_chosen_by_the_count_in_each_language(count, english, spanish_line):
    line = tn("{count} card", "{count} cards", count)
    assert str(line) == english
    text.install(lambda: (spanish_gettext, spanish_ngettext))
    try:
        assert str(line) == spanish_line
    finally:
        text.install(None)


def test_a_text_kept_as_data_in_json_comes_back_as_the_same_text():
    line = {"at": 3, "text": join([t("{name} has no {card} in hand", name="Inés", card=t("the shared deck")),
                                   tn("{count} card", "{count} cards", 2)], "; ")}
    stored = orjson.loads(orjson.dumps(text.as_data(line)))
    back = revive(stored)
    assert back == line
    assert str(back["text"]) == "Inés has no the shared deck in hand; 2 cards"
    assert back["at"] == 3
