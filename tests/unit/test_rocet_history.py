"""Rocèt's time-travel steps and recap headline at their edges, for either side."""
from __future__ import annotations

import pytest

from tracker.rules import rocet
from tracker.rules.contract import Step
from tracker.rules.rocet.events import (RocetCardsPlayed, RocetDamageDealt, RocetDamageDeclined, RocetCardDiscarded,
                                        RocetTurnResolved)

NAMES = {"a": "Inés", "b": "Lope"}
STATE = {"sides": {"a": {"name": "Inés"}, "b": {"name": "Lope"}}, "outcome": None}


def turn(n, winner, rolls=((2, 3, 4, 5),), card_a="Finta", card_b="Treta", pm=0, win=""):
    return RocetTurnResolved(turn=n, card_a=card_a, card_b=card_b, advantage="", rolls=rolls, winner=winner, ta=5,
                             pm_damage=pm, win=win)


@pytest.mark.parametrize("event, at, step", [
    (RocetCardsPlayed(turn=1, card_a="Finta", card_b="Treta"), 0, "Turn 1"),  # cards laid open the next turn
    (turn(3, "a"), 2, "Turn 3"),
    (RocetDamageDeclined(side="a", sources=("attack",), lapsed=True), 2, "Turn 3"),  # lapsed with the next cards
    (RocetDamageDeclined(side="b", sources=("attack",)), 2, "Turn 2"),  # declined in its own turn
    (RocetCardDiscarded(side="b", card="Treta"), 2, "Turn 2"),
    (RocetCardDiscarded(side="a", card="Treta"), 0, "Before the first turn"),
])
def test_each_step_belongs_to_its_turn(event, at, step):
    assert rocet.step_of({"turn": at}, event) == Step(step)


@pytest.mark.parametrize("side, other", [("a", "b"), ("b", "a")])
def test_criticals_and_fumbles_are_read_from_each_side_s_deciding_pair(side, other):
    def rolls(mine, theirs):
        return (mine + theirs,) if side == "a" else (theirs + mine,)
    events = [turn(1, side, rolls=((1, 1, 1, 1), *rolls((6, 6), (2, 3)))),  # only the last pair decides
              turn(2, other, rolls=rolls((1, 1), (4, 4))),
              turn(3, side, rolls=rolls((5, 5), (6, 5))),  # a double that is not 6 is no critical
              turn(4, side, rolls=())]
    h = rocet.headline(STATE, list(enumerate(events, 1)))
    assert h.criticals == (f"{NAMES[side]} rolled a critical (double 6) in turn 1",
                           f"{NAMES[side]} fumbled (double 1s) in turn 2")


@pytest.mark.parametrize("winner, loser", [("a", "b"), ("b", "a")])
def test_the_biggest_hit_is_the_first_of_the_largest_in_pg_or_pm(winner, loser):
    events = [turn(1, winner, card_a="Insulto", card_b="Insulto", pm=4),
              RocetDamageDealt(side=loser, source="attack", amount=4, ta=5, weapon_damage=2),
              RocetDamageDealt(side=winner, source="attack", amount=3, ta=5, weapon_damage=2)]
    h = rocet.headline(STATE, list(enumerate(events, 1)))
    assert h.biggest == f"{NAMES[winner]} dealt 4 PM with Insulto in turn 1"
    h = rocet.headline(STATE, list(enumerate(events[1:], 1)))
    assert h.biggest == f"{NAMES[loser]} dealt 4 PG with their weapon in turn 0"


def test_nothing_dealt_nothing_decided():
    h = rocet.headline(STATE, list(enumerate([turn(1, "a")], 1)))
    assert (h.decisive, h.biggest, h.criticals) == ("", "", ())


# --- a resolved turn's numbers beside its line ---------------------------------------------------

@pytest.mark.parametrize("winner", ["a", "b"])
@pytest.mark.parametrize("kind, clocks, meter", [
    ("relojes", {"a": 2, "b": 0}, None),  # clocks, no meter
    ("superioridad", None, 2),  # a meter (Estocada Alta moves it 2), no clocks
])
def test_a_resolved_turn_keeps_every_number_it_was_decided_by(winner, kind, clocks, meter):
    from tests.unit.test_rocet_duels import EA, FINTA, Table
    t = Table({"cards": "physical", "kind": kind})
    win, lose = [5, 4], [1, 2]
    card_a, card_b = (EA, FINTA) if winner == "a" else (FINTA, EA)
    t.turn(card_a, card_b, a=win if winner == "a" else lose, b=win if winner == "b" else lose)
    rows = {winner: {"bonus": 0, "dice": win, "mark": "", "total": 9},
            {"a": "b", "b": "a"}[winner]: {"bonus": 0, "dice": lose, "mark": "", "total": 3}}
    if clocks and winner == "b":
        clocks = {"a": 0, "b": 2}
    if meter and winner == "b":
        meter = -2
    assert t.state["history"][-1]["result"] == {
        "event": "RocetTurnResolved", "turn": 1, "cards": {"a": card_a, "b": card_b}, "ventaja": None,
        "rolls": [{"a": rows["a"], "b": rows["b"], "result": winner}], "winner": winner, "ta": 5,
        "clocks": clocks, "meter": meter, "pm_damage": 0, "clock_completed": False, "discard_owed": False,
        "damage_offers": ["attack"], "win": None}


def test_a_tied_turn_keeps_its_cards_and_tied_rolls():
    from tests.unit.test_rocet_duels import EA, Table
    from tests.unit.test_rocet_ties import tied
    t = Table({"cards": "physical"})
    tied(t)
    row = {"dice": [3, 3], "bonus": 0, "total": 6, "mark": ""}
    assert t.state["history"][-1]["result"] == {"event": "RocetTurnTied", "turn": 1, "cards": {"a": EA, "b": EA},
                                                "ventaja": None, "rolls": [{"a": row, "b": row, "result": "tie"}]}


@pytest.mark.parametrize("winner", ["a", "b"])
def test_damage_dealt_names_its_target_and_what_pg_it_left(winner):
    from tests.unit.test_rocet_duels import EA, FINTA, Table
    from tracker.rules.rocet.commands import DealDamage
    t = Table({"cards": "physical"})
    loser = {"a": "b", "b": "a"}[winner]
    t.turn(EA if winner == "a" else FINTA, FINTA if winner == "a" else EA,
           a=[5, 4] if winner == "a" else [1, 2], b=[5, 4] if winner == "b" else [1, 2])
    before = t.state["sides"][loser]["pg"]
    t.do(DealDamage())
    numbers = t.state["history"][-1]["result"]
    assert (numbers["event"], numbers["side"], numbers["target"], numbers["track"]) == \
        ("RocetDamageDealt", winner, loser, "PG")
    assert numbers["pg_after"] == before - numbers["amount"] == t.state["sides"][loser]["pg"]
