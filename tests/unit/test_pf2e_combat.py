"""Pathfinder 2e combat duels: secret-skill initiative, the three dueling reactions, degrees of success."""
from __future__ import annotations

import pytest

from tests.unit.test_pf2e_support import Duel, fighter
from tracker.rules import pf2e
from tracker.rules.pf2e import checks
from tracker.rules.pf2e.commands import (ActSecond, BreakTie, DeceptiveSidestep, DeclineSidestep, EndTurn,
                                         RollInitiative, Strike)


def duel(**setup) -> Duel:
    setup.setdefault("victory", "knockout")
    return Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], kind="combat", **setup)


def initiative(d: Duel, v_skill: str, v_die: int, k_skill: str, k_die: int) -> list:
    d.do(RollInitiative("v", v_skill), roll=[v_die])
    return d.do(RollInitiative("k", k_skill), roll=[k_die])


def test_bullying_press_frightens_1_and_2_when_the_target_rolled_perception():
    d = duel()
    events = initiative(d, "intimidation", 15, "intimidation", 10)  # 24 against 19
    assert d.types(events) == ["Pf2eInitiativeRolled", "Pf2eRoundOrdered"]
    assert (d.state["order"], d.state["turn"]) == (["v", "k"], "v")

    events = d.do(Strike(reaction="bullying_press"), attack=[12], damage=[5])  # 22 vs AC 20
    assert d.types(events) == ["Pf2eStrikeRolled", "Pf2eDamageDealt", "Pf2eFrightened"]
    assert (events[0].total, events[0].degree, events[1].amount) == (22, "success", 9)
    assert (d.hp("k"), d.frightened("k"), d.state["reacted"]) == (31, 1, {"v": True})

    d.do(EndTurn())
    events = d.do(Strike(), attack=[15], damage=[3])  # 15 + 10 − frightened 1 = 24
    assert (events[0].modifier, events[0].total, d.hp("v")) == (9, 24, 33)
    events = d.do(EndTurn())
    assert (events[0].frightened, events[0].next) == (0, "")
    assert (d.frightened("k"), d.state["round"], d.state["phase"], d.state["rolls"]) == (0, 2, "initiative", {})

    initiative(d, "intimidation", 14, "perception", 16)  # 23 against 24
    assert d.state["order"] == ["k", "v"]
    d.do(EndTurn())
    events = d.do(Strike(reaction="bullying_press"), attack=[10], damage=[6])  # exactly AC 20
    assert (events[0].degree, d.hp("k"), d.frightened("k")) == ("success", 21, 2)

    assert "already used a reaction" in d.refused(Strike(reaction="bullying_press"), attack=[19])
    events = d.do(Strike(), attack=[10])  # 10 + 10 − 5 = 15 vs AC 20 − frightened 2
    assert (events[0].total, events[0].ac, events[0].degree) == (15, 18, "failure")
    d.do(EndTurn())
    assert d.frightened("k") == 2  # her turn had passed: frightened waits for her next one
    events = d.do(RollInitiative("k", "perception"), roll=[10])
    assert (events[0].modifier, events[0].total) == (6, 16)
    assert d.replays()


def test_sense_weakness_upgraded_leaves_a_deceiver_off_guard_until_her_turn():
    d = duel()
    initiative(d, "perception", 15, "deception", 10)  # 23 against 17
    events = d.do(Strike(reaction="sense_weakness"), attack=[9])  # 19 vs AC 20 − 2
    assert d.types(events) == ["Pf2eStrikeRolled", "Pf2eOffGuard"]
    assert (events[0].ac, events[0].degree, events[0].pending) == (18, "success", True)
    assert d.state["off_guard"] == ["k"]
    assert d.refused(Strike(), attack=[9]) == "the target must first use or decline Deceptive Sidestep"

    d.do(DeclineSidestep(), damage=[4])
    assert (d.hp("k"), d.state["pending"]) == (32, None)
    events = d.do(Strike(), attack=[14])  # 14 + 10 − 5 = 19, still against AC 18
    assert (events[0].ac, events[0].degree, events[0].pending) == (18, "success", True)
    d.do(DeclineSidestep(), damage=[1])
    assert d.hp("k") == 27
    d.do(EndTurn())
    assert (d.state["turn"], d.state["off_guard"]) == ("k", [])
    assert d.replays()


def test_sense_weakness_without_upgrade_works_against_that_strike_only():
    d = duel()
    initiative(d, "perception", 15, "intimidation", 10)
    events = d.do(Strike(reaction="sense_weakness"), attack=[8], damage=[2])  # 18 vs AC 18
    assert d.types(events) == ["Pf2eStrikeRolled", "Pf2eDamageDealt"]
    assert (d.hp("k"), d.state["off_guard"]) == (34, [])
    events = d.do(Strike(), attack=[13])  # 13 + 10 − 5 = 18 vs AC 20
    assert (events[0].ac, events[0].degree) == (20, "failure")


def test_deceptive_sidestep_rerolls_at_minus_2_when_the_attacker_rolled_intimidation():
    d = duel()
    initiative(d, "intimidation", 15, "deception", 10)
    events = d.do(Strike(), attack=[12])  # 22: a hit, held for the Sidestep
    assert (events[0].degree, events[0].pending, d.hp("k")) == ("success", True, 40)
    events = d.do(DeceptiveSidestep(), attack=[11])  # 11 + 10 − 2 = 19: a miss
    assert d.types(events) == ["Pf2eSidestepUsed"]
    assert (events[0].penalty, events[0].total, events[0].degree) == (-2, 19, "failure")
    assert (d.hp("k"), d.state["reacted"], d.state["pending"]) == (40, {"k": True}, None)
    events = d.do(Strike(), attack=[18], damage=[2])  # 23: a hit, but her reaction is spent
    assert (events[0].pending, d.hp("k")) == (False, 34)


def test_deceptive_sidestep_without_upgrade_and_never_against_a_critical_hit():
    d = duel()
    initiative(d, "perception", 15, "deception", 10)
    events = d.do(Strike(), attack=[20], damage=[3])  # natural 20: 30 = AC + 10, critical
    assert (events[0].degree, events[0].pending, events[1].amount, d.hp("k")) == ("critical_success", False, 14, 26)
    d.do(Strike(), attack=[16])  # 16 + 10 − 5 = 21: a hit
    events = d.do(DeceptiveSidestep(), attack=[16], damage=[6])  # 21 again, no penalty
    assert (events[0].penalty, events[0].degree, d.hp("k")) == (0, "success", 16)
    assert "no hit is waiting" in d.refused(DeceptiveSidestep(), attack=[5])


def test_degree_of_success_edges_in_a_strike():
    d = duel()
    initiative(d, "perception", 15, "intimidation", 10)
    events = d.do(Strike(modifier=5), attack=[15], damage=[3])  # 30 = AC + 10
    assert (events[0].degree, events[1].multiplier, events[1].amount, d.hp("k")) == ("critical_success", "double", 14, 26)
    events = d.do(Strike(modifier=-7), attack=[20], damage=[2])  # 20 + 10 − 5 − 7 = 18: a miss, raised
    assert (events[0].total, events[0].degree, d.hp("k")) == (18, "success", 20)
    events = d.do(Strike(modifier=20), attack=[1])  # 1 + 10 − 10 + 20 = 21: a hit, lowered
    assert (events[0].total, events[0].degree, len(events), d.hp("k")) == (21, "failure", 1, 20)


@pytest.mark.parametrize("total, die, expected", [
    (30, 15, "critical_success"), (29, 15, "success"), (20, 10, "success"), (19, 10, "failure"),
    (11, 5, "failure"), (10, 5, "critical_failure"), (19, 20, "success"), (29, 20, "critical_success"),
    (21, 1, "failure"), (35, 1, "success"), (10, 20, "failure"), (5, 1, "critical_failure"),
])
def test_degree_against_ac_20(total, die, expected):
    assert checks.degree(total, 20, die) == expected


def test_initiative_tie_an_npc_acts_before_a_pc():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b", rank="villano")], kind="combat")
    events = initiative(d, "intimidation", 10, "intimidation", 10)
    assert events[1].tiers == (("k",), ("v",))
    assert (d.state["order"], d.state["turn"]) == (["k", "v"], "k")


def test_initiative_tie_between_pcs_waits_for_the_gm():
    d = duel()
    events = initiative(d, "intimidation", 10, "intimidation", 10)
    assert events[1].tiers == (("v", "k"),)
    assert (d.state["phase"], d.state["turn"]) == ("ordering", None)
    assert d.refused(Strike(), attack=[10]) == "the initiative tie must be broken first"
    assert pf2e.actions(d.state) == ["BreakTie", "Yield", "Disqualify", "Abandon", "SetCondition"]
    d.do(BreakTie("k"))
    assert (d.state["order"], d.state["turn"], d.state["phase"]) == (["k", "v"], "k", "turns")
    assert d.refused(BreakTie("v")) == "there is no initiative tie to break"


def test_the_winner_may_act_second_and_nobody_strikes_out_of_turn():
    d = duel()
    initiative(d, "intimidation", 15, "deception", 10)
    d.do(ActSecond())
    assert (d.state["order"], d.state["turn"]) == (["k", "v"], "k")
    assert "only the initiative winner" in d.refused(ActSecond())
    assert d.refused(Strike(attacker="v"), attack=[10]) == "Valeros cannot Strike out of turn: it is Kyra's turn"
    assert d.refused(RollInitiative("v", "perception"), roll=[3]) == "initiative for round 1 is already rolled"


def test_reactions_must_be_granted_this_round():
    d = Duel([fighter("v", "Valeros", "a", perception_rank="untrained"), fighter("k", "Kyra", "b")],
             kind="combat", victory="knockout")
    initiative(d, "perception", 15, "intimidation", 10)  # untrained: no Sense Weakness
    assert d.state["reaction"] == {"v": None, "k": "bullying_press"}
    assert d.refused(Strike(reaction="sense_weakness"), attack=[10]) == "Valeros did not gain Sense Weakness this round"
    assert d.refused(Strike(reaction="bullying_press"), attack=[10]) == "Valeros did not gain Bullying Press this round"
    assert d.refused(Strike(melee=False), attack=[10]) == "the agreed terms allow melee weapons only"


def test_a_combat_duel_refuses_magic_initiative_and_spells():
    d = duel()
    assert d.refused(RollInitiative("v", "arcana"), roll=[10]) == \
        "a combat duel's initiative uses Deception, Intimidation, Perception"
