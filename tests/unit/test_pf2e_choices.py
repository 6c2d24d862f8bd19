"""What the GM's PF2e forms offer at each step (``board.choices``) and the invariants every state
keeps, checked at their edges for either side."""
from __future__ import annotations

import pytest

from tests.unit.test_pf2e_actions import duel
from tests.unit.test_pf2e_maneuver_edges import OTHER, turn_of
from tracker.rules import pf2e
from tracker.rules.pf2e.board import choices
from tracker.rules.pf2e.commands import Demoralize, OtherAction, RollInitiative, Strike

KYRA_ROLLS = [{"frightened": 0, "id": "k", "name": "Kyra", "usual": "intimidation", "skills": [
    {"gains": "Deceptive Sidestep", "label": "Deception", "modifier": 7, "rank": "trained", "skill": "deception"},
    {"gains": "Bullying Press", "label": "Intimidation", "modifier": 9, "rank": "expert", "skill": "intimidation"},
    {"gains": "Sense Weakness", "label": "Perception", "modifier": 8, "rank": "trained", "skill": "perception"}]}]


def test_between_two_initiative_rolls_only_who_has_not_rolled_is_offered_and_no_turn_has_anything():
    d = duel()
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    assert choices(d.state) == {
        "initiative": KYRA_ROLLS, "usual": [{"name": "Kyra", "skill": "Intimidation"}], "tied": [],
        "turn": None, "turn_name": "", "strike_number": 1, "penalty": (0, 0), "actions_left": 0, "demoralize": [],
        "reactions": [], "readied": "", "targets": [], "slots": [], "focus": None, "new_focus": [], "counters": [],
        "tag_sides": []}


@pytest.mark.parametrize("who", ["v", "k"])
@pytest.mark.parametrize("setting, agile", [(True, False), (True, True), (False, False)])
def test_the_multiple_attack_penalty_offered_follows_the_strikes_and_the_setting(who, setting, agile):
    d = duel(attack_penalty=setting)
    d.do(RollInitiative("v", "intimidation"), roll=[15 if who == "v" else 2])
    d.do(RollInitiative("k", "perception"), roll=[15 if who == "k" else 2])
    expected = [(0, 0), (-5, -4), (-10, -8)] if setting else [(0, 0)] * 3
    for strikes, penalty in enumerate(expected):
        c = choices(d.state)
        assert (c["strike_number"], c["penalty"], c["actions_left"]) == (strikes + 1, penalty, 3 - strikes)
        if strikes < 2:
            d.do(Strike(agile=agile), attack=[2])


@pytest.mark.parametrize("who", ["v", "k"])
def test_a_demoralized_target_is_offered_no_more_to_the_same_duelist(who):
    d = turn_of(who)
    names = {"v": "Valeros", "k": "Kyra"}
    assert choices(d.state)["demoralize"] == [{"id": OTHER[who], "name": names[OTHER[who]]}]
    d.do(Demoralize(), check=[2])
    assert choices(d.state)["demoralize"] == [] and choices(d.state)["actions_left"] == 2


# --- invariants ---------------------------------------------------------------------------------

@pytest.mark.parametrize("actions, problem", [
    (0, None), (3, None),
    (-1, "-1 actions spent in a turn of three"), (4, "4 actions spent in a turn of three"),
])
def test_a_turn_spends_from_none_to_three_actions(actions, problem):
    d = turn_of("v")
    found = pf2e.invariants(dict(d.state, actions=actions))
    assert found == ([problem] if problem else [])


@pytest.mark.parametrize("exposure, fine", [
    ({"who": "k", "against": "v", "owner": "v", "ends": 1}, True),
    ({"who": "v", "against": "k", "owner": "k", "ends": 2}, True),
    ({"who": "k", "against": "v", "owner": "v", "ends": 0}, False),
    ({"who": "k", "against": "v", "owner": "v", "ends": 3}, False),
    ({"who": "k", "against": "k", "owner": "v", "ends": 1}, False),  # off-guard against oneself
    ({"who": "x", "against": "v", "owner": "v", "ends": 1}, False),  # a stranger
    ({"who": "k", "against": "v", "owner": "x", "ends": 1}, False),
])
def test_an_off_guard_from_a_feint_lasts_one_or_two_ends_against_an_opponent(exposure, fine):
    d = turn_of("v")
    found = pf2e.invariants(dict(d.state, exposures=[exposure]))
    assert found == ([] if fine else [f"an off-guard from a Feint that the rules cannot leave: {exposure}"])


def test_a_state_without_actions_or_exposures_keeps_its_invariants():
    state = {k: v for k, v in turn_of("k").state.items() if k not in ("actions", "exposures")}
    assert pf2e.invariants(state) == []


@pytest.mark.parametrize("hp, problem", [(40, False), (0, True), (41, True)])
def test_hp_must_be_what_the_damage_left_up_to_the_sheet_s_maximum(hp, problem):
    d = turn_of("v")
    d.state = dict(d.state, hp=dict(d.state["hp"], k=hp))
    assert pf2e.invariants(d.state) == (["Kyra has %d HP, not what the damage left" % hp] if problem else [])


def test_every_action_counts_toward_the_turn_s_three():
    d = turn_of("k")
    d.do(OtherAction(action="Stride", cost="3"))
    assert pf2e.invariants(d.state) == [] and d.state["actions"] == 3


@pytest.mark.parametrize("raised, problem", [(10, False), (11, True)])
def test_a_duelist_who_started_hurt_may_be_raised_by_hand_up_to_the_sheet_s_maximum(raised, problem):
    from tests.unit.test_pf2e_support import Duel, fighter
    d = Duel([fighter("v", "Valeros", "a", hp=30), fighter("k", "Kyra", "b", hp=30)], kind="combat",
             victory="knockout")
    for who, name in (("v", "Valeros"), ("k", "Kyra")):
        state = dict(d.state, hp=dict(d.state["hp"], **{who: 30 + raised}),
                     adjustments=[{"character": who, "track": "HP", "amount": raised}])
        assert pf2e.invariants(state) == ([f"{name} has {30 + raised} HP, not what the damage left"] if problem else [])


# --- a Feint's off-guard on the board ------------------------------------------------------------

def conditions(d) -> dict:
    from tracker.rules.pf2e.board import board
    return {row["id"]: row["conditions"] for side in board(d.state)["sides"] for row in side["duelists"]}


NAMES = {"v": "Valeros", "k": "Kyra"}


@pytest.mark.parametrize("who", ["v", "k"])
def test_a_feint_success_shows_the_target_off_guard_for_the_next_melee_attack(who):
    from tracker.rules.pf2e.commands import Feint
    d = turn_of(who)
    d.do(Feint(), check=[11])
    assert conditions(d) == {who: [], OTHER[who]: [{"name": f"Off-guard (−2 AC) against {NAMES[who]}",
                                                     "lasts": f"{NAMES[who]}'s next melee attack this turn"}]}


@pytest.mark.parametrize("who", ["v", "k"])
def test_a_feint_critical_shows_the_target_off_guard_until_the_end_of_the_feinter_s_next_turn_then_this_one(who):
    from tracker.rules.pf2e.commands import EndTurn, Feint
    d = turn_of(who)
    d.do(Feint(), check=[20])
    shown = lambda when: {who: [], OTHER[who]: [{"name": f"Off-guard (−2 AC) against {NAMES[who]}",  # noqa: E731
                                                 "lasts": f"until the end of {NAMES[who]}'s {when}"}]}
    assert conditions(d) == shown("next turn")
    d.do(EndTurn())
    assert conditions(d) == shown("next turn")  # the target's own turn
    d.do(EndTurn())
    d.do(RollInitiative("v", "intimidation"), roll=[15 if who == "v" else 2])
    d.do(RollInitiative("k", "perception"), roll=[15 if who == "k" else 2])
    assert d.state["turn"] == who and conditions(d) == shown("turn")


@pytest.mark.parametrize("who", ["v", "k"])
def test_a_feint_critical_failure_shows_the_feinter_off_guard_against_the_target(who):
    from tracker.rules.pf2e.commands import Feint
    d = turn_of(who)
    d.do(Feint(), check=[1])
    assert conditions(d) == {OTHER[who]: [], who: [{"name": f"Off-guard (−2 AC) against {NAMES[OTHER[who]]}",
                                                    "lasts": f"until the end of {NAMES[who]}'s next turn"}]}


def test_each_duelist_s_hp_is_adjustable_up_to_the_sheet_or_what_they_started_with():
    from tests.unit.test_pf2e_support import Duel, fighter
    d = Duel([fighter("v", "Valeros", "a", hp=45), fighter("k", "Kyra", "b", hp=30)], kind="combat",
             victory="knockout")
    assert pf2e.adjustable_tracks(d.state) == [
        {"character": "v", "name": "Valeros", "side": "a", "track": "HP", "label": "HP", "value": 45, "max": 45},
        {"character": "k", "name": "Kyra", "side": "b", "track": "HP", "label": "HP", "value": 30, "max": 40}]
    sheetless = dict(d.state, duelists=[dict(x, stats=None, current={"HP": 7}) for x in d.state["duelists"]])
    assert [t["max"] for t in pf2e.adjustable_tracks(sheetless)] == [7, 7]
