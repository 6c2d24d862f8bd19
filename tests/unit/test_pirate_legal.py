"""Pirate duels' legal next actions, whole, for either side: the blow of whoever's turn it is (the
insults a wit duel offers), the fall to record and its fates; and what throwing sealed insults refuses."""
from __future__ import annotations

import pytest

from tests import legal_summary
from tests.unit.test_pirate import PISTOLS, Duel
from tests.unit.test_pirate_sealed import sealed
from tracker.rules import pirate
from tracker.rules.pirate.commands import Attack, ChooseInsult, RecordFall, RollInitiative, ThrowInsults

ALWAYS = legal_summary.ENDINGS


def summary(state) -> dict:
    return legal_summary.summary(pirate, state)


def first(d: Duel, side: str) -> None:
    d.run(RollInitiative(), a=[15 if side == "a" else 2], b=[15 if side == "b" else 2])
    assert d.state["order"][0] == side


@pytest.mark.parametrize("side", ["a", "b"])
def test_a_wit_duel_offers_its_insults_to_whoever_s_turn_it_is(side):
    d = Duel("wit")
    first(d, side)
    names = [i["name"] for i in d.state["settings"]["insults"]]
    assert summary(d.state)["Insult"] == (side, {"side": [side], "insult": names, f"dice_{side}:dice": [20]})


@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize("kind, blow", [("sword", "Attack"), ("pistol", "Shoot")])
def test_a_blow_is_offered_to_whoever_s_turn_it_is_and_names_no_insult(side, kind, blow):
    d = Duel(kind, **({"distance": 5, **PISTOLS} if kind == "pistol" else {}))
    first(d, side)
    offered = summary(d.state)[blow]
    assert offered[0] == side and offered[1]["side"] == [side] and "insult" not in offered[1]


def test_initiative_asks_for_a_d20_each():
    assert summary(Duel("sword").state)["RollInitiative"] == (None, {"dice_a:dice": [20], "dice_b:dice": [20]})


def test_a_fall_is_recorded_for_the_fallen_side_down_or_dead_then_only_dead():
    d = Duel("sword", sword_victory="death")
    d.run(RollInitiative(), a=[12], b=[7])
    d.run(Attack(side="a"), a=[15, 8])
    d.run(Attack(side="b"), b=[18, 5])
    d.run(RollInitiative(), a=[12], b=[7])
    d.run(Attack(side="a"), a=[15, 4])  # Lope at 0 PV
    assert summary(d.state)["RecordFall"] == ("b", {"side": ["b"], "fate": ["down", "dead"]})
    d.run(RecordFall(side="b", fate="down"))
    assert summary(d.state)["RecordFall"] == ("b", {"side": ["b"], "fate": ["dead"]})


def test_what_throwing_sealed_insults_refuses():
    plain = Duel("wit")
    assert plain.refused(ThrowInsults()).reason == "in this duel the GM records each insult in turn"
    d = sealed(reveal="gm")
    d.run(ChooseInsult(side="a", insult="Burla ingeniosa"))
    d.run(ChooseInsult(side="b", insult="Insulto directo"))
    d.run(ThrowInsults(), b=[18, 2], a=[3, 19, 3])
    d.state = dict(d.state, phase="act")
    assert d.refused(ThrowInsults()).reason == "exchange 1 is under way"


@pytest.mark.parametrize("side", ["a", "b"])
def test_each_seat_chooses_its_insult_until_the_exchange_is_thrown(side):
    d = sealed()
    assert pirate.seat_actions(d.state, side) == ["ChooseInsult"]
    assert pirate.seat_actions(Duel("wit").state, side) == []  # not sealed: the GM records each insult
    d.state = dict(d.state, phase="act")
    assert pirate.seat_actions(d.state, side) == []


def test_a_sealed_exchange_that_ends_the_duel_returns_every_event_up_to_the_win():
    d = Duel("wit", choices="sealed", exchanges=1)
    d.run(ChooseInsult(side="a", insult="Burla ingeniosa"))
    events = d.run(ChooseInsult(side="b", insult="Insulto directo"), b=[18, 2], a=[3, 19, 3])
    assert [type(e).__name__ for e in events][:4] == ["PirateInsultChosen", "PirateInitiativeRolled",
                                                      "PirateInsultTraded", "PirateInsultTraded"]
    assert d.state["outcome"]["winner"] == "a" and type(events[-1]).__name__ == "DuelWon"


def test_the_public_view_is_what_the_table_display_sees():
    d = sealed()
    d.run(ChooseInsult(side="a", insult="Burla ingeniosa", line="You fight like a dairy farmer."))
    assert pirate.public(d.state) == pirate.seen_by(d.state, "display")
    assert pirate.public(d.state)["sealed"] == {"a": {}}


@pytest.mark.parametrize("side", ["a", "b"])
def test_each_sealed_insult_refusal_says_why_at_its_field(side):
    def refusal(d, command):
        refused = d.refused(command)
        return refused.reason, refused.field
    assert refusal(Duel("wit"), ChooseInsult(side=side, insult="Provocación")) == \
        ("in this duel the GM records each insult in turn", "insult")
    d = sealed()
    assert refusal(d, ChooseInsult(side=side, insult="Provocación", round=2)) == \
        ("that choice was for exchange 2, and the duel is now at exchange 1: choose again", "insult")
    under_way = dict(d.state, phase="act", round=1)
    d.state, before = under_way, d.state
    assert refusal(d, ChooseInsult(side=side, insult="Provocación")) == \
        ("exchange 1 is under way: choose for the next one once it is over", "insult")
    d.state = before
    seats = sealed(dice_by="seats")
    for dice in ((), (0,), (21,), (5, 6)):
        assert refusal(seats, ChooseInsult(side=side, insult="Provocación", dice=dice)) == \
            ("type the d20 you rolled for your insult, e.g. 14", "dice")
    assert seats.run(ChooseInsult(side=side, insult="Provocación"))[0].die == 0  # the server rolls it at the throw
    for die in (1, 20):
        assert seats.run(ChooseInsult(side=side, insult="Provocación", dice=(die,)))[0].die == die
