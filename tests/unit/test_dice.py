"""The dice tray directly: typed values in order, their limits, the server's roll, the shuffle."""
from __future__ import annotations

import pytest

from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import Abandon, DuelAbandoned, DuelYielded, Yield, names


def refusal(call) -> Refused:
    with pytest.raises(Refused) as caught:
        call()
    return caught.value


@pytest.mark.parametrize("value, ok", [(1, True), (20, True), (0, False), (21, False)])
def test_a_typed_d20_from_1_to_20(value, ok):
    dice = Dice({"b": [value]})
    if ok:
        assert dice.roll(20, "b") == value
    else:
        r = refusal(lambda: dice.roll(20, "b", "Lope's shot"))
        assert (r.reason, r.field) == (f"a d20 cannot show {value} (Lope's shot)", "dice_b")


def test_typed_dice_are_used_in_order_then_the_server_rolls():
    dice = Dice({"a": [3, 5]}, source=lambda sides: sides)
    assert dice.roll_many((6, 8, 10)) == (3, 5, 10)
    assert dice.leftover() == {}


def test_without_typed_dice_or_a_server_the_gm_is_asked_for_one():
    r = refusal(lambda: Dice().roll(8, "b", "damage"))
    assert (r.reason, r.field) == ("type another d8 for damage, or let the server roll", "dice_b")
    assert refusal(lambda: Dice().roll(8)).reason == "type another d8, or let the server roll"
    r = refusal(lambda: Dice({"a": [2, 9]}).roll_many((6, 6), "a", "Finta"))
    assert r.reason == "a d6 cannot show 9 (Finta)"
    assert refusal(lambda: Dice({"a": [7]}).roll_many((6,))).reason == "a d6 cannot show 7"


def test_the_shuffle_needs_the_server_and_every_card():
    assert refusal(lambda: Dice().permutation(3)).reason == "shuffling needs the server (virtual cards)"
    assert Dice(shuffle=lambda n: [2, 0, 1]).permutation(3) == [2, 0, 1]
    assert refusal(lambda: Dice(shuffle=lambda n: [0, 0, 1]).permutation(3)).reason == \
        "a shuffle must be an order of every card"


def test_the_common_endings_keep_the_words_given_or_none():
    from tracker.rules.duel import decide_ending
    state = {"outcome": None, "duelists": [{"name": "Inés", "side": "a"}, {"name": "Ana", "side": "a"}]}
    assert decide_ending(state, Yield(side="a")) == [DuelYielded(side="a", detail="")]
    assert decide_ending(state, Abandon()) == [DuelAbandoned(reason="")]
    assert decide_ending(state, Abandon(reason="rain")) == [DuelAbandoned(reason="rain")]
    assert names(state, "a") == "Inés & Ana"
