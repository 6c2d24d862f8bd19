"""Pathfinder 2e's fuller turn: three actions, the multiple attack penalty from their count,
Demoralize and Feint with every degree, any other action, a Strike that ends the turn, and
initiative rolled for everyone with their usual skills. Every die is typed; every number checked.

Valeros (side A): attack +10, AC 20, Intimidation +9 (expert), Deception +7, Perception +8, Will +5.
Kyra (side B): the same sheet with Will +6 and Perception +8: her Will DC is 16, her Perception DC 18.
"""
from __future__ import annotations

import pytest

from tests.unit.test_pf2e_support import Duel, fighter
from tracker.rules import pf2e
from tracker.rules.pf2e.commands import (DeclineSidestep, Demoralize, EndTurn, Feint, OtherAction,
                                         RollInitiative, Strike)


def duel(**setup) -> Duel:
    setup.setdefault("victory", "knockout")
    return Duel([fighter("v", "Valeros", "a", will=5), fighter("k", "Kyra", "b", will=6)], kind="combat", **setup)


def valeros_first(d: Duel) -> None:
    d.do(RollInitiative("v", "intimidation"), roll=[15])  # 24
    d.do(RollInitiative("k", "perception"), roll=[5])  # 13
    assert d.state["turn"] == "v"


# --- Demoralize: Intimidation +9 against Kyra's Will DC 16 --------------------------------------

def test_demoralize_degrees_at_their_boundaries():
    cases = [  # (die, other modifier, total, degree, frightened)
        (7, 0, 16, "success", 1),  # total equal to the DC
        (6, 0, 15, "failure", 0),  # one below
        (16, 0, 25, "success", 1),  # DC + 9
        (17, 0, 26, "critical_success", 2),  # DC + 10
        (7, -10, 6, "critical_failure", 0),  # DC − 10
        (8, -10, 7, "failure", 0),  # DC − 9
        (20, -20, 9, "success", 1),  # a failure raised by the natural 20
        (1, 6, 16, "failure", 0),  # a success lowered by the natural 1
    ]
    for die, extra, total, degree, frightened in cases:
        d = duel()
        valeros_first(d)
        events = d.do(Demoralize(modifier=extra), check=[die])
        e = events[0]
        assert (d.types(events), e.duelist, e.target) == (["Pf2eDemoralized"], "v", "k")
        assert (e.die, e.modifier, e.total, e.dc, e.degree, e.frightened) == (die, 9 + extra, total, 16, degree, frightened)
        assert (d.frightened("k"), d.frightened("v"), d.state["actions"]) == (frightened, 0, 1)
        assert d.replays()


def test_demoralize_frightens_until_the_targets_turns_wear_it_off_and_immunity_follows():
    d = duel()
    valeros_first(d)
    d.do(Demoralize(), check=[17])  # 26 vs 16: critical success, frightened 2
    assert "immune to Valeros's Demoralize" in d.refused(Demoralize(), check=[10])
    # Frightened 2 lowers Kyra's AC and DCs: the Strike is against AC 18.
    events = d.do(Strike(), attack=[8], damage=[3])  # 18 vs 18: a hit
    assert (events[0].modifier, events[0].ac, events[0].degree, d.hp("k")) == (10, 18, "success", 33)
    assert d.state["actions"] == 2
    d.do(EndTurn())
    assert d.frightened("k") == 2  # Valeros's turn ending does not touch Kyra's fear
    # Kyra's turn, frightened 2: her Demoralize is at Intimidation 9 − 2 against Valeros's Will DC 15.
    events = d.do(Demoralize(), check=[8])  # 15 vs 15: success
    e = events[0]
    assert (e.duelist, e.target, e.modifier, e.total, e.dc, e.degree, e.frightened) == ("k", "v", 7, 15, 15, "success", 1)
    events = d.do(EndTurn())
    assert (events[0].frightened, d.frightened("k"), d.frightened("v")) == (1, 1, 1)
    # Round 2: frightened also lowers initiative.
    events = d.do(RollInitiative("v", "intimidation"), roll=[10])
    assert (events[0].modifier, events[0].total) == (8, 18)
    d.do(RollInitiative("k", "intimidation"), roll=[2])  # 2 + 9 − 1 = 10
    assert d.state["turn"] == "v"
    events = d.do(EndTurn())
    assert (events[0].frightened, d.frightened("v")) == (0, 0)  # his own turn's end wears his fear off
    assert "immune to Kyra's Demoralize" in d.refused(Demoralize(), check=[9])
    assert d.replays()


def test_demoralize_twice_by_the_same_duelist_is_refused_but_the_other_side_may():
    d = duel()
    valeros_first(d)
    d.do(Demoralize(), check=[2])  # 11 vs 16: failure, no fear, immunity all the same
    assert d.frightened("k") == 0
    assert "immune" in d.refused(Demoralize(), check=[19])
    d.do(EndTurn())
    events = d.do(Demoralize(), check=[1])  # 10 vs Will DC 15, natural 1: critical failure
    assert (events[0].total, events[0].dc, events[0].degree, events[0].frightened) == (10, 15, "critical_failure", 0)
    assert d.frightened("v") == 0


# --- Feint: Deception +7 against Kyra's Perception DC 18 ------------------------------------------

def test_feint_success_exposes_the_target_to_the_next_melee_strike_only():
    d = duel()
    valeros_first(d)
    events = d.do(Feint(), check=[11])  # 18 vs 18: success
    e = events[0]
    assert (e.modifier, e.total, e.dc, e.degree, e.exposed) == (7, 18, 18, "success", "k")
    events = d.do(Strike(), attack=[8], damage=[2])  # 18 vs AC 20 − 2 off-guard: a hit
    assert (events[0].ac, events[0].degree, d.hp("k")) == (18, "success", 34)
    events = d.do(Strike(), attack=[13])  # 13 + 10 − 5 = 18 vs AC 20 again: the Feint is spent
    assert (events[0].modifier, events[0].ac, events[0].degree) == (5, 20, "failure")
    assert d.state["exposures"] == [] and d.state["actions"] == 3
    assert d.replays()


def test_feint_success_lapses_at_the_end_of_the_feinters_turn():
    d = duel()
    valeros_first(d)
    d.do(Feint(), check=[12])  # 19: success
    d.do(EndTurn())
    assert d.state["exposures"] == []
    events = d.do(Strike(), attack=[10], damage=[1])  # Kyra strikes Valeros: AC 20, 20: a hit
    assert events[0].ac == 20


def test_feint_critical_success_lasts_until_the_end_of_the_feinters_next_turn():
    d = duel()
    valeros_first(d)
    events = d.do(Feint(), check=[20])  # 27 vs 18: a success, up a step by the natural 20
    assert (events[0].total, events[0].degree, events[0].exposed) == (27, "critical_success", "k")
    assert d.do(Strike(), attack=[3])[0].ac == 18  # 13 vs 18: a miss, yet still off-guard
    assert d.do(Strike(), attack=[13], damage=[1])[0].ac == 18  # 18 vs 18: a hit
    d.do(EndTurn())
    assert d.do(Strike(), attack=[4])[0].ac == 20  # Kyra strikes Valeros: he is not off-guard
    d.do(EndTurn())
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "perception"), roll=[5])
    assert d.do(Strike(), attack=[2])[0].ac == 18  # Valeros's next turn: still off-guard to him
    d.do(EndTurn())
    assert d.state["exposures"] == []
    assert d.replays()


def test_feint_critical_failure_leaves_the_feinter_off_guard_and_a_failure_does_nothing():
    d = duel()
    valeros_first(d)
    events = d.do(Feint(), check=[10])  # 17 vs 18: failure
    assert (events[0].degree, events[0].exposed, d.state["exposures"]) == ("failure", "", [])
    events = d.do(Feint(modifier=-6), check=[9])  # 9 + 7 − 6 = 10 vs 18: failure (DC − 8)
    assert events[0].degree == "failure"
    events = d.do(Feint(modifier=-6), check=[7])  # 8 = DC − 10: critical failure
    assert (events[0].total, events[0].degree, events[0].exposed) == (8, "critical_failure", "v")
    assert d.state["actions"] == 3
    assert "no action left" in d.refused(Strike(), attack=[10])
    d.do(EndTurn())
    events = d.do(Strike(), attack=[8], damage=[2])  # Kyra: 18 vs Valeros's AC 20 − 2
    assert (events[0].ac, events[0].degree, d.hp("v")) == (18, "success", 34)
    d.do(EndTurn())
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "perception"), roll=[5])
    d.do(EndTurn())  # the end of Valeros's next turn ends his exposure
    assert d.do(Strike(), attack=[8])[0].ac == 20
    assert d.replays()


# --- three actions and the multiple attack penalty ------------------------------------------------

def test_three_strikes_take_minus_5_and_minus_10_and_a_fourth_action_is_refused():
    d = duel()
    valeros_first(d)
    totals = [d.do(Strike(), attack=[5])[0].modifier for _ in range(3)]
    assert totals == [10, 5, 0]
    assert "Valeros has no action left this turn: a Strike costs 1" in d.refused(Strike(), attack=[5])
    assert pf2e.actions(d.state)[:2] == ["EndTurn", "OtherAction"]  # a free action still fits


def test_agile_strikes_take_minus_4_and_minus_8():
    d = duel()
    valeros_first(d)
    assert [d.do(Strike(agile=True), attack=[5])[0].modifier for _ in range(3)] == [10, 6, 2]


def test_other_actions_spend_their_cost_and_may_check_with_the_attack_penalty():
    d = duel()
    valeros_first(d)
    events = d.do(OtherAction(action="Stride", cost="1"))
    e = events[0]
    assert (e.action, e.cost, e.die, e.degree, d.state["actions"]) == ("Stride", 1, 0, "", 1)
    assert d.do(Strike(), attack=[5])[0].modifier == 10  # Stride is no attack: no penalty
    events = d.do(OtherAction(action="Trip", cost="1", check_modifier=9, dc=18, attack=True), check=[14])
    e = events[0]  # the second attack this turn: 14 + 9 − 5 = 18 vs DC 18
    assert (e.die, e.modifier, e.total, e.dc, e.degree, d.state["strikes"]) == (14, 4, 18, 18, "success", 2)
    assert "only" not in d.refused(OtherAction(action="Raise a Shield", cost="2"))
    assert "has no action left" in d.refused(OtherAction(action="Raise a Shield", cost="1"))
    events = d.do(OtherAction(action="Release", cost="0"))  # a free action still fits
    assert (events[0].cost, d.state["actions"]) == (0, 3)
    assert "both its modifier and its DC" in d.refused(OtherAction(action="x", cost="0", dc=15))


def test_an_action_the_turn_cannot_afford_says_what_is_left():
    d = duel()
    valeros_first(d)
    d.do(OtherAction(action="Stride", cost="2"))
    assert d.refused(OtherAction(action="Sudden Charge", cost="2")) == \
        "Valeros has only 1 action left this turn: Sudden Charge costs 2"


# --- one step: a Strike that ends the turn, everyone's initiative ---------------------------------

def test_a_strike_can_end_the_turn_in_the_same_step():
    d = duel()
    valeros_first(d)
    events = d.do(Strike(end_turn=True), attack=[12], damage=[5])  # 22 vs 20: 9 damage
    assert d.types(events) == ["Pf2eStrikeRolled", "Pf2eDamageDealt", "Pf2eTurnEnded"]
    assert (d.hp("k"), d.state["turn"], d.state["actions"]) == (31, "k", 0)


def test_a_strike_ending_the_turn_waits_for_deceptive_sidestep_then_ends_it():
    d = duel()
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "deception"), roll=[5])  # Kyra trained: Deceptive Sidestep
    events = d.do(Strike(end_turn=True), attack=[12])  # 22 vs 20: a hit she may sidestep
    assert (d.types(events), d.state["turn"]) == (["Pf2eStrikeRolled"], "v")
    events = d.do(DeclineSidestep(), damage=[5])
    assert d.types(events) == ["Pf2eSidestepDeclined", "Pf2eDamageDealt", "Pf2eTurnEnded"]
    assert (d.hp("k"), d.state["turn"]) == (31, "k")


def test_a_winning_strike_leaves_the_turn_to_the_judge():
    d = duel(victory="first_blood")
    valeros_first(d)
    events = d.do(Strike(end_turn=True), attack=[12], damage=[5])
    assert d.types(events) == ["Pf2eStrikeRolled", "Pf2eDamageDealt", "Pf2eVictoryProposed"]
    assert d.state["turn"] == "v"


def test_initiative_for_everyone_uses_each_usual_skill_then_the_last_one_rolled():
    d = duel()
    events = d.do(RollInitiative(), roll=[15, 5])  # best trained: Intimidation +9 for both
    assert d.types(events) == ["Pf2eInitiativeRolled", "Pf2eInitiativeRolled", "Pf2eRoundOrdered"]
    assert [(e.duelist, e.skill, e.total) for e in events[:2]] == [("v", "intimidation", 24), ("k", "intimidation", 14)]
    d.do(EndTurn())
    d.do(EndTurn())
    d.do(RollInitiative("k", "perception"), roll=[10])  # 18
    events = d.do(RollInitiative(), roll=[3])  # only Valeros is left: his usual Intimidation
    assert [(e.duelist, e.skill, e.total) for e in events[:1]] == [("v", "intimidation", 12)]
    assert d.state["order"] == ["k", "v"]
    d.do(EndTurn())
    d.do(EndTurn())
    assert "name the duelist" in d.refused(RollInitiative(skill="deception"), roll=[3, 3])
    events = d.do(RollInitiative(), roll=[4, 4])  # Kyra's usual skill is now Perception
    assert [(e.skill, e.total) for e in events[:2]] == [("intimidation", 13), ("perception", 12)]


def test_a_spell_costs_its_actions():
    from tests.unit.test_pf2e_support import caster
    from tracker.rules.pf2e.commands import CastSpell

    d = Duel([fighter("e", "Ezren", "a", block=caster()), fighter("s", "Seoni", "b", block=caster())],
             kind="spellcasting", victory="knockout")
    d.do(RollInitiative("e", "perception"), roll=[15])
    d.do(RollInitiative("s", "perception"), roll=[2])
    d.do(CastSpell(spell="Shield", rank=1, tradition="arcane", cantrip=True, actions=1))
    assert d.state["actions"] == 1
    assert "only 2 actions left" in d.refused(CastSpell(spell="Fireball", rank=3, tradition="arcane", actions=3))



# --- every degree at its boundary, for both sides --------------------------------------------------

def test_feint_degrees_at_their_boundaries_for_either_side():
    # Valeros: Deception +7 against Kyra's Perception DC 18; Kyra: Deception +7 against his DC 18 too.
    cases = [  # (die, other modifier, total, degree, who is exposed)
        (11, 0, 18, "success", "target"),  # total equal to the DC
        (10, 0, 17, "failure", ""),  # DC − 1
        (16, 5, 28, "critical_success", "target"),  # DC + 10
        (15, 5, 27, "success", "target"),  # DC + 9
        (1, 0, 8, "critical_failure", "actor"),  # DC − 10 (and a natural 1)
        (2, 0, 9, "failure", ""),  # DC − 9
    ]
    for kyra_acts in (False, True):
        for die, extra, total, degree, exposed in cases:
            d = duel()
            valeros_first(d)
            if kyra_acts:
                d.do(EndTurn())
            actor, target = ("k", "v") if kyra_acts else ("v", "k")
            e = d.do(Feint(modifier=extra), check=[die])[0]
            assert (e.duelist, e.target, e.modifier, e.total, e.dc, e.degree) == (actor, target, 7 + extra, total, 18, degree)
            assert e.exposed == {"target": target, "actor": actor, "": ""}[exposed]
            assert invariants_hold(d)


def test_another_action_s_check_at_its_boundaries():
    cases = [(6, 15, "success"), (5, 14, "failure"), (16, 25, "critical_success"), (15, 24, "success"),
             (1, 10, "critical_failure")]  # a failure, down a step by the natural 1
    for die, total, degree in cases:  # modifier +9 against DC 15: the DC at 6, DC + 10 at 16
        d = duel()
        valeros_first(d)
        e = d.do(OtherAction(action="Climb", cost="1", check_modifier=9, dc=15), check=[die])[0]
        assert (e.die, e.modifier, e.total, e.dc, e.degree, e.attack) == (die, 9, total, 15, degree, False)
    d = duel()
    valeros_first(d)
    d.do(Strike(), attack=[2])
    e = d.do(OtherAction(action="Grapple", cost="1", check_modifier=9, dc=15, attack=True), check=[11])[0]
    assert (e.modifier, e.total, e.degree) == (4, 15, "success")  # the second attack: −5
    assert d.do(Strike(), attack=[2])[0].modifier == 0  # and the third: −10


def invariants_hold(d: Duel) -> bool:
    assert pf2e.invariants(d.state) == []
    return d.replays()


def test_the_fold_refuses_an_action_out_of_turn_or_beyond_three():
    from tracker.rules.base import ImpossibleHistory
    from tracker.rules.pf2e import events as ev

    d = duel()
    valeros_first(d)
    with pytest.raises(ImpossibleHistory):
        pf2e.evolve(d.state, ev.Pf2eDemoralized("k", "v", 10, 9, 19, 15, "success", 1), 99)
    d.do(OtherAction(action="Stride", cost="3"))
    with pytest.raises(ImpossibleHistory):
        pf2e.evolve(d.state, ev.Pf2eFeinted("v", "k", 10, 7, 17, 18, "failure", ""), 99)


def test_a_weaker_fright_never_lowers_a_higher_one():
    from tracker.rules.pf2e import events as ev

    d = duel()
    valeros_first(d)
    d.do(Demoralize(), check=[17])  # frightened 2
    # Another duelist's Demoralize (say, in a team duel) landing a success leaves the higher value.
    after = pf2e.evolve(dict(d.state, demoralized=[]), ev.Pf2eDemoralized("v", "k", 7, 9, 16, 14, "success", 1), 99)
    assert after["frightened"]["k"] == 2


def test_the_fold_holds_a_turn_to_exactly_three_actions():
    """The third action fits; a fourth, or a two-action one after two, is an impossible history,
    named with the event and whose turn it was."""
    from tracker.rules.base import ImpossibleHistory
    from tracker.rules.pf2e import events as ev

    d = duel()
    valeros_first(d)
    d.do(OtherAction(action="Stride", cost="2"))
    assert d.state["actions"] == 2
    third = pf2e.evolve(d.state, ev.Pf2eActionTaken("v", "Step", 1), 99)
    assert third["actions"] == 3
    with pytest.raises(ImpossibleHistory) as two_more:
        pf2e.evolve(d.state, ev.Pf2eActionTaken("v", "Stride", 2), 99)
    assert str(two_more.value) == "Pf2eActionTaken beyond the turn's three actions"
    with pytest.raises(ImpossibleHistory) as out_of_turn:
        pf2e.evolve(d.state, ev.Pf2eFeinted("k", "v", 10, 7, 17, 18, "failure", ""), 99)
    assert str(out_of_turn.value) == "Pf2eFeinted out of k's turn"
