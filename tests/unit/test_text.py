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


# --- every way a Text is read, with the reader's functions given or installed --------------------

def shout(message):
    """A reader's gettext that marks what it translated (placeholders left as they are)."""
    return f"<{message}>"


def shout_plural(one, many, n):
    return f"<{one if n == 1 else many}>"


def test_a_text_s_values_are_read_with_the_same_functions_as_the_text():
    said = t("{who} drew {cards}", who=t("the dealer"), cards=tn("{count} card", "{count} cards", 2))
    assert said.render(shout, shout_plural) == "<<the dealer> drew <2 cards>>"
    assert text.render(said, shout, shout_plural) == "<<the dealer> drew <2 cards>>"
    listed = join([t("a tie"), tn("{count} die", "{count} dice", 1)], " / ")
    assert listed.render(shout, shout_plural) == "<a tie> / <1 die>"
    assert text.render(listed, shout, shout_plural) == "<a tie> / <1 die>"


def test_render_without_both_functions_reads_with_the_installed_translator():
    assert text.render(t("a tie"), shout, None) == "a tie"
    assert text.render(t("a tie"), None, shout_plural) == "a tie"
    assert text.render(t("a tie")) == "a tie"
    assert text.render(7, shout, shout_plural) == "7"


def test_a_text_without_values_keeps_its_braces_and_a_count_is_a_value_unless_given():
    assert t("use {braces} freely").render(shout, shout_plural) == "<use {braces} freely>"
    assert tn("{count} card", "{count} cards", 3).render(shout, shout_plural) == "<3 cards>"
    assert text.Text("{count} card", {"count": "three"}, "{count} cards", 3).render(shout, shout_plural) == "<three cards>"


def test_texts_join_with_plain_words_either_side():
    after, before = t("Tajo") + "!", "¡" + t("Tajo")
    assert (str(after), str(before)) == ("Tajo!", "¡Tajo")
    assert (after.parts, after.separator, before.parts, before.separator) == ([t("Tajo"), "!"], "", ["¡", t("Tajo")], "")
    assert join(iter([t("a"), t("b")])).render(shout, shout_plural) == "<a>, <b>"  # a generator is read once, kept


def test_a_text_reads_like_its_sentence_but_keeps_its_own_and_private_names():
    said = t("Estocada Alta")
    assert said.lower() == "estocada alta" and said.rstrip("a") == "Estocada Alt" and said.split() == ["Estocada", "Alta"]
    for name in ("__getnewargs__", "_formatter_parser", "separator", "parts"):
        assert not hasattr(said, name), name
    assert not hasattr(join([said]), "msgid") and not hasattr(join([said]), "count")


def test_equal_texts_hash_alike_and_as_their_words():
    assert hash(t("a", n=1)) == hash(t("a", n=2)) == hash("a")
    assert hash(join([t("a"), "b"])) == hash(("a", "b"))
    assert len({t("a"), t("a")}) == 1


def test_texts_anywhere_in_a_value_are_kept_as_data_and_revived():
    value = {"lines": (t("a"), [tn("{count} die", "{count} dice", 2)]), "n": 1}
    data = text.as_data(value)
    assert data == {"lines": [{"msgid": "a", "args": {}},
                              [{"msgid": "{count} die", "args": {}, "plural": "{count} dice", "count": 2}]], "n": 1}
    assert revive(data) == {"lines": [t("a"), [tn("{count} die", "{count} dice", 2)]], "n": 1}
    assert revive({"msgid": "only an id"}) == {"msgid": "only an id"}  # a dict that merely has the key
    assert revive({"args": {"x": 1}}) == {"args": {"x": 1}}
    assert revive({"joined": [1]}) == {"joined": [1]} and revive({"separator": ","}) == {"separator": ","}


def test_whether_words_read_as_anything_is_told_without_rendering_them():
    class Counting:
        def __init__(self):
            self.calls = 0

        def __call__(self, message):
            self.calls += 1
            return message

    counting = Counting()
    text.install(lambda: (counting, lambda one, many, n: one))
    try:
        cases = [(t("a tie"), True), (t(""), False), (join([]), False), (join([""]), False), (join(["", ""], ""), False),
                 (join(["", ""], ", "), True), (join([t("")]), False), (join([t(""), 0]), True), (join([t("x")]), True)]
        assert [bool(words) for words, _ in cases] == [expected for _, expected in cases]
        assert counting.calls == 0
        assert [bool(str(words)) for words, _ in cases] == [expected for _, expected in cases]  # as rendered
    finally:
        text.install(None)
