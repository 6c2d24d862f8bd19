"""Damage expressions checked, sized and rolled directly, at the edges of what they allow."""
from __future__ import annotations

import pytest

from tracker.rules import dice_expr
from tracker.rules.dice import Dice


@pytest.mark.parametrize("typed, normal", [("1d8", "1d8"), (" 2D6 + 3 ", "2d6+3"), ("1d10-1", "1d10-1"),
                                           ("20d20", "20d20"), ("1d100", "1d100"), ("(1d4+1)+2", "(1d4+1)+2"),
                                           ("3", "3"), ("1d2", "1d2"), ("1d3", "1d3")])
def test_plain_dice_arithmetic_is_accepted_and_normalised(typed, normal):
    assert dice_expr.check(typed) == normal


@pytest.mark.parametrize("typed, message", [
    ("", "must be dice such as 1d8 or 2d6+3"), ("   ", "must be dice such as 1d8 or 2d6+3"),
    ("1d8+" + "1" * 37, "must be dice such as 1d8 or 2d6+3"),  # 41 characters
    ("hello", "must be dice such as 1d8 or 2d6+3"),
    ("21d6", "dice must be like 1d4 … 20d20"), ("0d6", "dice must be like 1d4 … 20d20"),
    ("1d7", "dice must be like 1d4 … 20d20"), ("2d6*2", "only dice, numbers, + and - are allowed"),
    ("4d6kh3", "only dice, numbers, + and - are allowed"),
])
def test_what_is_not_plain_dice_is_refused(typed, message):
    with pytest.raises(ValueError) as caught:
        dice_expr.check(typed)
    assert str(caught.value) == message


def test_forty_characters_is_the_limit():
    text = "1d8+" + "1" * 36
    assert len(text) == 40 and dice_expr.check(text) == text


@pytest.mark.parametrize("expression, sizes", [("2d6+1d4-1", [6, 6, 4]), ("(1d8)", [8]), ("5", [])])
def test_sizes_in_order(expression, sizes):
    assert dice_expr.sizes(expression) == sizes


@pytest.mark.parametrize("expression, typed, used, total", [
    ("2d6+3", [2, 5], (2, 5), 10), ("1d10-1", [4], (4,), 3), ("(1d4+1)-2", [3], (3,), 2),
    ("1d4-1", [1], (1,), 0),  # exactly 0
    ("1d4-3", [1], (1,), 0),  # would go below 0: no negative damage
    ("1d6-1d6", [1, 6], (1, 6), 0), ("10-1d4", [4], (4,), 6), ("4", [], (), 4),
])
def test_rolling_keeps_every_die_and_never_goes_below_0(expression, typed, used, total):
    dice = Dice({"a": list(typed)})
    rolled = dice_expr.roll(expression, dice)
    assert (rolled.expression, rolled.dice, rolled.total) == (expression, used, total)
    assert dice.leftover() == {}


def test_each_side_rolls_its_own_dice():
    dice = Dice({"b": [3]})
    assert dice_expr.roll("1d6", dice, who="b").total == 3


def test_doubling_keeps_the_dice():
    doubled = dice_expr.doubled(dice_expr.Rolled("1d8", (5,), 5))
    assert doubled == dice_expr.Rolled("1d8 ×2", (5,), 10)


def test_a_die_typed_out_of_range_names_what_it_was_for():
    from tracker.rules.base import Refused
    for expression in ("1d6", "1d4+1d6", "1d4-1d6", "(1d6)"):
        dice = Dice({"b": [1, 7]} if "1d4" in expression else {"b": [7]})
        with pytest.raises(Refused) as caught:
            dice_expr.roll(expression, dice, who="b", what="Sable damage")
        assert caught.value.reason == "a d6 cannot show 7 (Sable damage)"
    with pytest.raises(Refused) as caught:
        dice_expr.roll("1d6", Dice({"a": [9]}))
    assert caught.value.reason == "a d6 cannot show 9 (damage)"


def test_rolling_refuses_what_is_not_plain_dice_even_unchecked():
    with pytest.raises(ValueError) as caught:
        dice_expr.roll("4d6kh3", Dice())
    assert str(caught.value) == "only dice, numbers, + and - are allowed"
