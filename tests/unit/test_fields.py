"""The form-field parser every layer shares, at and just past each of its limits."""
from __future__ import annotations

import pytest

from tracker.rules.base import Invalid, Refused
from tracker.rules.fields import LARGEST_INT, Field, command, is_text, parse_command, parse_dice, parse_fields


def parsed(field: Field, value):
    return parse_fields([field], {field.name: value})[field.name]


def error(field: Field, value) -> str:
    with pytest.raises(Invalid) as caught:
        parse_fields([field], {field.name: value})
    return caught.value.errors[field.name]


BOX = Field("box", "A box", "bool", default=False)
TICKED_BOX = Field("box", "A box", "bool", default=True)


@pytest.mark.parametrize("spelling", [True, "1", "true", "True", "TRUE", "on", "ON", "yes", "Yes", "y", "Y",
                                      ["false", "true"], ("0", "on")])
def test_every_spelling_of_a_ticked_box(spelling):
    assert parsed(BOX, spelling) is True


@pytest.mark.parametrize("spelling", [False, "0", "false", "False", "off", "OFF", "no", "No", "n", "N",
                                      ["true", "false"], ["false"]])
def test_every_spelling_of_an_unticked_box(spelling):
    assert parsed(TICKED_BOX, spelling) is False


@pytest.mark.parametrize("blank", [None, "", "   ", [], ()])
@pytest.mark.parametrize("field, expected", [(BOX, False), (TICKED_BOX, True)])
def test_a_missing_box_takes_its_default(blank, field, expected):
    assert parsed(field, blank) is expected


@pytest.mark.parametrize("spelling", ["maybe", "2", "tru", "-1"])
def test_a_box_that_is_neither(spelling):
    assert error(BOX, spelling) == "must be yes or no"


BOUNDED = Field("n", "A number", "int", minimum=1, maximum=24)


@pytest.mark.parametrize("value, expected", [(1, 1), (24, 24), ("1", 1), (" 24 ", 24), (12, 12)])
def test_a_number_at_its_limits_is_taken(value, expected):
    assert parsed(BOUNDED, value) == expected


@pytest.mark.parametrize("value, message", [
    (0, "must be at least 1"), (25, "must be at most 24"), ("-3", "must be at least 1"),
    ("x", "must be a whole number"), ("1.5", "must be a whole number"), (True, "must be a whole number"),
    ("9" * 5000, "must be a whole number"),
])
def test_a_number_just_past_its_limits_is_refused(value, message):
    assert error(BOUNDED, value) == message


def test_an_unbounded_number_takes_what_sqlite_holds_and_no_more():
    free = Field("n", "A number", "int")
    assert parsed(free, LARGEST_INT) == LARGEST_INT
    assert parsed(free, -LARGEST_INT) == -LARGEST_INT
    assert error(free, LARGEST_INT + 1) == f"must be at most {LARGEST_INT}"
    assert error(free, -LARGEST_INT - 1) == f"must be at least {-LARGEST_INT}"


def test_blank_values_take_the_default_or_are_required():
    assert parsed(Field("n", "N", "int", default=6), "") == 6
    assert parsed(Field("n", "N", "int", default=0), None) == 0
    assert parsed(Field("n", "N", "int", required=False), " ") is None
    assert error(Field("n", "N", "int"), "") == "is required"


@pytest.mark.parametrize("value, size", [("d6", 6), ("D8", 8), ("10", 10), (" d12 ", 12), (6, 6)])
def test_a_die_is_d6_to_d12(value, size):
    assert parsed(Field("die", "Die", "die"), value) == size


@pytest.mark.parametrize("value, message", [("d4", "must be d6, d8, d10 or d12"), ("d20", "must be d6, d8, d10 or d12"),
                                            ("dx", "must be a die such as d8")])
def test_a_die_that_is_not_one(value, message):
    assert error(Field("die", "Die", "die"), value) == message


@pytest.mark.parametrize("value, dice", [("3 5", (3, 5)), ("3,5", (3, 5)), ("3/5", (3, 5)), ([1, 100], (1, 100)),
                                         ("", ()), ((4,), (4,))])
def test_typed_dice(value, dice):
    assert parse_dice(value) == dice


@pytest.mark.parametrize("value", ["0", "101", "3 -1"])
def test_typed_dice_outside_1_to_100(value):
    with pytest.raises(ValueError, match="each die shows a number from 1 up"):
        parse_dice(value)


CHOICE = Field("c", "Choice", "choice", choices=(("zero", "from 0"), ("carry", "carried")))


def test_a_choice_takes_only_its_keys():
    assert parsed(CHOICE, "carry") == "carry"
    assert error(CHOICE, "Carry") == "must be one of from 0, carried"


@pytest.mark.parametrize("kind", ["text", "character"])
def test_text_at_its_limit_and_one_past(kind):
    field = Field("t", "Text", kind, maximum=5)
    assert parsed(field, "  abcde  ") == "abcde"
    assert error(field, "abcdef") == "must be at most 5 characters"
    assert error(field, 5) == "must be text"
    assert error(field, "a\ud800") == "holds a character that is not valid text (a lone surrogate)"
    unbounded = Field("t", "Text", kind)
    assert parsed(unbounded, "x" * 2000) == "x" * 2000
    assert error(unbounded, "x" * 2001) == "must be at most 2000 characters"


def test_is_text():
    assert is_text("Inés ¡a muerte!") and not is_text("\udfff")


def test_every_error_is_reported_at_once_and_unknown_kinds_are_refused():
    with pytest.raises(Invalid) as caught:
        parse_fields([BOUNDED, BOX, Field("w", "W", "wand")], {"n": 0, "box": "maybe", "w": "x"})
    assert caught.value.errors == {"n": "must be at least 1", "box": "must be yes or no", "w": "unknown field kind wand"}
    assert str(caught.value) == "n: must be at least 1; box: must be yes or no; w: unknown field kind wand"
    assert parsed(Field("w", "W", "weapons"), [{"name": "x"}]) == [{"name": "x"}]


@command
class Sample:
    FIELDS = (Field("count", "Count", "int", minimum=0, maximum=3), Field("loud", "Loud", "bool", default=False))
    count: int
    loud: bool = False


def test_a_command_is_built_from_its_fields():
    assert parse_command(Sample, {"count": "3", "loud": "on"}) == Sample(count=3, loud=True)
    with pytest.raises(Invalid):
        parse_command(Sample, {"count": "4"})
    with pytest.raises(Exception):
        Sample(count=1).count = 2  # frozen


def test_a_refusal_keeps_its_reason_and_field():
    refusal = Refused("no", field="side")
    assert (refusal.reason, refusal.field, str(refusal)) == ("no", "side", "no")
    assert Refused("no").field is None


def test_typed_dice_messages_exactly():
    with pytest.raises(ValueError) as caught:
        parse_dice("3 x")
    assert str(caught.value) == "must be die values such as 3 5"
    with pytest.raises(ValueError) as caught:
        parse_dice("0")
    assert str(caught.value) == "each die shows a number from 1 up"


@command
class Bare:
    """A command with no fields at all."""


def test_a_command_without_fields_takes_no_input():
    assert parse_command(Bare, {"anything": 1}) == Bare()


def _every_declared_field_list():
    from tracker import rules

    for module in rules.shipped():
        yield f"{module.NAME} sheet", module.STATS
        yield f"{module.NAME} set-up", module.SETUP
        for name, cls in module.COMMANDS.items():
            yield f"{module.NAME}.{name}", cls.FIELDS


def test_depends_on_names_a_sibling_and_cells_are_the_columns_of_their_table():
    for where, fields in _every_declared_field_list():
        names = {f.name for f in fields}
        for f in fields:
            assert set(f.depends_on) <= names - {f.name}, (where, f.name, f.depends_on)
            if f.cells:
                assert tuple(c.name for c in f.cells) == f.columns, (where, f.name)


def test_depends_on_and_cells_only_describe_a_field_the_parser_reads_as_before():
    plain = Field("dc", "DC", "int", required=False)
    described = Field("dc", "DC", "int", required=False, depends_on=("check_modifier",),
                      cells=(Field("x", "X"),))
    for raw in ({}, {"dc": "15"}):
        assert parse_fields([plain], raw) == parse_fields([described], raw)
