"""The shared rules helpers every ruleset leans on, tested directly: the reason a ValueError
carries (``base.why``) and the points a rest really restores (``contract.within_max``)."""
from __future__ import annotations

import pytest

from tracker.rules.base import why
from tracker.rules.contract import within_max
from tracker.rules.text import t


def test_why_is_the_message_a_value_error_was_raised_with():
    message = t("{name} has no {card} in hand", name="Inés", card="Tajo")
    assert why(ValueError(message)) is message
    assert why(ValueError("plain words")) == "plain words"


@pytest.mark.parametrize("args, said", [((), ""), (("two", "parts"), "('two', 'parts')")])
def test_why_without_a_single_message_is_the_error_s_own_words(args, said):
    assert why(ValueError(*args)) == said


HP = {"track": "HP", "persists": True, "max_stat": "hp_max"}
LUCK = {"track": "luck", "persists": False, "max_stat": "luck_max"}
PM = {"track": "PM", "persists": True, "max_stat": "pm_max"}


def test_only_persisting_tracks_named_by_the_rest_change_and_the_others_are_still_read():
    gained = within_max([LUCK, HP, PM], {"hp_max": 20, "pm_max": 10, "luck_max": 5},
                        {"HP": 4, "PM": 10, "luck": 1}, {"luck": 3, "HP": 30, "PM": 2})
    assert gained == {"HP": 16, "PM": 0}
    assert within_max([HP, PM], {"hp_max": 20, "pm_max": 10}, {"HP": 4, "PM": 1}, {"PM": 2}) == {"PM": 2}


@pytest.mark.parametrize("stats, current, gain, regained", [
    ({"hp_max": 20}, {"HP": 20}, 5, 0),  # already full
    ({"hp_max": 20}, {"HP": 19}, 5, 1),  # one short of full
    ({"hp_max": 20}, {}, 20, 20),  # a track never written starts at 0
    ({}, {"HP": 0}, 5, 0),  # no maximum known: nothing to restore up to
    ({"hp_max": 20}, {"HP": 5}, -8, -5),  # a loss stops at 0
    ({"hp_max": 10}, {"HP": 12}, -1, -1),  # a loss from above the maximum is the loss asked for
    ({"hp_max": 10}, {"HP": 12}, 3, -2),  # above a maximum the sheet lowered: back down to it
    ({"hp_max": 10}, {"HP": 12}, 0, -2),  # even by a rest that restores nothing
])
def test_a_rest_restores_up_to_the_maximum_and_a_loss_stops_at_zero(stats, current, gain, regained):
    assert within_max([HP], stats, current, {"HP": gain}) == {"HP": regained}


# --- legal.offer: what every field says of itself ----------------------------------------------

def test_an_offered_field_carries_its_default_and_its_limits():
    from tracker.rules import legal
    from tracker.rules.pf2e.commands import OtherAction

    fields = legal.offer(OtherAction, "OtherAction", for_side="a", duelist=["v"])["fields"]
    assert fields["cost"] == {"kind": "choice", "type": "string", "required": True, "label": "Cost", "default": "1",
                              "choices": ["1", "2", "3", "0"]}
    assert fields["check_modifier"] == {"kind": "int", "type": "integer", "required": False, "label": "Check modifier",
                                        "minimum": -30, "maximum": 60, "depends_on": ["dc"]}
    assert fields["dc"] == {"kind": "int", "type": "integer", "required": False, "label": "DC of the check",
                            "minimum": 1, "maximum": 70, "depends_on": ["check_modifier"]}
    assert fields["attack"]["default"] is False  # a false default is still a default
    assert fields["duelist"]["choices"] == ["v"] and "default" not in fields["duelist"]
    assert "minimum" not in fields["action"] and fields["action"]["maximum"] == 80


# --- dice.Dice: typed first, then the server's roller -----------------------------------------

def test_a_tray_can_roll_while_typed_dice_are_left_or_a_source_rolls():
    from tracker.rules.dice import Dice

    typed = Dice({"b": [3]})
    assert (typed.can_roll("b"), typed.can_roll("a"), typed.can_roll()) == (True, False, False)
    assert typed.roll(6, "b") == 3 and typed.can_roll("b") is False
    served = Dice(source=lambda sides: sides)
    assert served.can_roll("a") is True and served.roll(8, "b") == 8
    assert Dice().can_roll("a") is False


def test_a_tray_hands_each_name_its_own_typed_dice_in_order():
    from tracker.rules.dice import Dice

    tray = Dice({"a": [1, 2], "b": [6]}, source=lambda sides: 4)
    assert [tray.roll(6, "b"), tray.roll(6, "a"), tray.roll(6, "a"), tray.roll(6, "a"), tray.roll(6, "b")] == [6, 1, 2, 4, 4]


def test_an_offer_naming_fields_the_command_lacks_says_which():
    from tracker.rules import legal
    from tracker.rules.pf2e.commands import OtherAction

    with pytest.raises(ValueError, match=r"^OtherAction has no field spell, weapon$"):
        legal.offer(OtherAction, "OtherAction", weapon=["x"], dice={"spell": [6]})
