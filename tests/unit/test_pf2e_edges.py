"""PF2e at its edges: degrees at AC, AC±10 and the naturals, counteract ranks, MAP both ways, slots never shared."""
from __future__ import annotations

import copy
from tests import plain_json as json

import pytest

from tracker.rules import pf2e
from tracker.rules.pf2e.checks import attack_penalty, counteracts, degree
from tracker.rules.pf2e.commands import CastSpell, DuelingCounter, EndTurn, RollInitiative, Strike

from tests.unit.test_pf2e_support import Duel, caster, fighter

AC = 20


@pytest.mark.parametrize("total, die, expected", [
    (AC + 10, 10, "critical_success"), (AC + 9, 10, "success"),
    (AC, 10, "success"), (AC - 1, 10, "failure"),
    (AC - 9, 10, "failure"), (AC - 10, 10, "critical_failure"),
    # a natural 20 goes a step up, a natural 1 a step down, never past the ends
    (AC + 9, 20, "critical_success"), (AC + 10, 20, "critical_success"), (AC - 1, 20, "success"),
    (AC - 10, 20, "failure"), (AC, 1, "failure"), (AC + 10, 1, "success"),
    (AC - 9, 1, "critical_failure"), (AC - 10, 1, "critical_failure"),
    (AC, 19, "success"), (AC - 1, 2, "failure"),
])
def test_degrees_of_success_at_every_boundary(total, die, expected):
    assert degree(total, AC, die) == expected


@pytest.mark.parametrize("result, counter_rank, target_rank, done", [
    ("critical_success", 2, 5, True), ("critical_success", 2, 6, False),
    ("success", 2, 3, True), ("success", 2, 4, False),
    ("failure", 2, 1, True), ("failure", 2, 2, False),
    ("critical_failure", 2, 1, False),
])
def test_what_a_counteract_check_counteracts_at_each_rank_edge(result, counter_rank, target_rank, done):
    assert counteracts(result, counter_rank, target_rank) is done


@pytest.mark.parametrize("strikes, agile, penalty", [
    (0, False, 0), (1, False, -5), (2, False, -10), (3, False, -10),
    (0, True, 0), (1, True, -4), (2, True, -8), (5, True, -8),
])
def test_the_multiple_attack_penalty_is_minus_5_10_or_agile_4_8(strikes, agile, penalty):
    assert attack_penalty(strikes, agile) == penalty


def two_fighters(**setup):
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], **setup)
    d.do(RollInitiative("v", "perception"), roll=[15])
    d.do(RollInitiative("k", "perception"), roll=[5])
    return d


@pytest.mark.parametrize("agile", [False, True])
@pytest.mark.parametrize("setting", [True, False])
def test_the_multiple_attack_penalty_setting_both_ways(setting, agile):
    d = two_fighters(attack_penalty=setting, victory="knockout")
    modifiers = []
    for _ in range(3):
        [rolled] = d.do(Strike(agile=agile), attack=[2])[:1]  # a natural 2 misses AC 20 whatever the penalty
        modifiers.append(rolled.modifier)
    step = (4 if agile else 5) if setting else 0
    assert modifiers == [10, 10 - step, 10 - 2 * step]
    d.do(EndTurn())
    [rolled] = d.do(Strike(agile=agile), attack=[2])[:1]
    assert rolled.modifier == 10  # a new turn starts again at no penalty


@pytest.mark.parametrize("die, degree_, damage", [(10, "success", 6), (9, "failure", 0), (20, "critical_success", 12)])
def test_a_strike_total_exactly_at_ac_hits_for_either_side(die, degree_, damage):
    for first in ("v", "k"):
        d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], victory="knockout")
        d.do(RollInitiative("v", "perception"), roll=[15 if first == "v" else 5])
        d.do(RollInitiative("k", "perception"), roll=[5 if first == "v" else 15])
        target = "k" if first == "v" else "v"
        events = d.do(Strike(damage=6), attack=[die])
        assert (events[0].total, events[0].ac, events[0].degree) == (die + 10, AC, degree_)
        assert d.hp(target) == 40 - damage


def test_damage_never_takes_hp_below_0():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b", hp=5)], victory="knockout")
    d.do(RollInitiative("v", "perception"), roll=[15])
    d.do(RollInitiative("k", "perception"), roll=[5])
    events = d.do(Strike(damage=5), attack=[15])
    assert (events[1].amount, events[1].hp_after, d.hp("k")) == (5, 0, 0)


# --- spell slots: spending one never touches the state it came from ------------------------------

def ezren():
    return fighter("e", "Ezren", "a", block=caster())


def seoni():
    return fighter("s", "Seoni", "b", block=caster(hp_max=32, arcana=7, arcana_rank="trained", occultism=8,
                                                   spell_dc=19, spell_slots="1:2, 2:2, 3:1"))


def spell_duel(**setup):
    d = Duel([ezren(), seoni()], kind="spellcasting", victory="knockout", **setup)
    d.do(RollInitiative("e", "arcana"), roll=[12])
    d.do(RollInitiative("s", "occultism"), roll=[11])
    return d


def test_spending_a_slot_leaves_the_earlier_state_as_it_was():
    d = spell_duel()
    earlier = copy.deepcopy(d.state)
    frozen = json.dumps(earlier, sort_keys=True)
    [cast] = d.do(CastSpell("Force Barrage", 2, "arcane", damage=1))[:1]
    assert json.dumps(earlier, sort_keys=True) == frozen
    later = pf2e.evolve(earlier, cast, 99)
    assert json.dumps(earlier, sort_keys=True) == frozen
    assert (later["slots"]["e"], earlier["slots"]["e"]) == ({"1": 3, "2": 1}, {"1": 3, "2": 2})
    assert (later["expended"]["e"], earlier["expended"]["e"]) == ({"2": 1}, {})


def test_the_last_slot_of_a_rank_can_be_spent_and_then_not_again():
    d = spell_duel()
    d.do(CastSpell("Force Barrage", 2, "arcane", damage=1))
    d.do(EndTurn())
    d.do(EndTurn())
    d.do(CastSpell("Force Barrage", 2, "arcane", damage=1))
    assert d.state["slots"]["e"]["2"] == 0
    d.do(EndTurn())
    d.do(EndTurn())
    assert d.refused(CastSpell("Force Barrage", 2, "arcane", damage=1)) == "Ezren has no rank-2 spell slot left"
    d.do(CastSpell("Electric Arc", 2, "arcane", cantrip=True, damage=1))  # a cantrip needs no slot


def test_a_counter_spends_its_slot_without_touching_the_earlier_state():
    d = spell_duel()
    d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    assert d.state["pending"]["kind"] == "spell"
    earlier = copy.deepcopy(d.state)
    frozen = json.dumps(earlier, sort_keys=True)
    [attempt, *_] = d.do(DuelingCounter("s", slot_rank=1), check=[14])
    assert json.dumps(earlier, sort_keys=True) == frozen
    assert earlier["slots"]["s"]["1"] == 2 and d.state["slots"]["s"]["1"] == 1


@pytest.mark.parametrize("counteract_with, modifier", [("skill", 8), ("spell_attack", 9)])
@pytest.mark.parametrize("frightened_counter, frightened_caster", [(0, 0), (1, 0), (0, 2), (2, 1)])
def test_a_counteract_check_with_either_modifier_and_frightened_on_either_side(
        counteract_with, modifier, frightened_counter, frightened_caster):
    d = spell_duel(counteract_with=counteract_with)
    d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    d.state = dict(d.state, frightened={"e": frightened_caster, "s": frightened_counter})
    [attempt, *_] = d.do(DuelingCounter("s", slot_rank=1), check=[10])
    assert attempt.modifier == modifier - frightened_counter
    assert attempt.dc == 20 - frightened_caster
    assert attempt.total == 10 + modifier - frightened_counter


# --- the endings, for either side ---------------------------------------------------------

from tracker.rules.duel import DuelDisqualified, DuelWon, Disqualify, Yield  # noqa: E402
from tracker.rules.pf2e.commands import ConfirmVictory, DeclineVictory, EscalateToCombat  # noqa: E402

SIDE_OF = {"v": "a", "k": "b"}


def acting_first(who: str, **setup) -> Duel:
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b", hp=setup.pop("kyra_hp", None))], **setup)
    d.do(RollInitiative("v", "perception"), roll=[15 if who == "v" else 5])
    d.do(RollInitiative("k", "perception"), roll=[5 if who == "v" else 15])
    return d


@pytest.mark.parametrize("who", ["v", "k"])
def test_first_blood_is_proposed_for_either_side_and_the_judge_confirms(who):
    d = acting_first(who)
    target = "k" if who == "v" else "v"
    events = d.do(Strike(damage=1), attack=[15])
    proposed = events[-1]
    assert (proposed.side, proposed.ending) == (SIDE_OF[who], "first_blood")
    assert (proposed.attacker, proposed.target) == (who, target)
    assert d.state["proposal"]["detail"] == f"{d.state['duelists'][0 if who == 'v' else 1]['name']} drew first blood " \
                                            f"from {d.state['duelists'][1 if who == 'v' else 0]['name']}"
    assert pf2e.actions(d.state)[:2] == ["ConfirmVictory", "DeclineVictory"]
    refused = d.refused(ConfirmVictory(side=SIDE_OF[target]))
    assert refused.startswith("the rules propose victory for ")
    proposal = d.state["proposal"]["detail"]
    [won] = d.do(ConfirmVictory())
    assert won == DuelWon(side=SIDE_OF[who], ending="first_blood")
    assert d.state["outcome"]["detail"] == proposal


@pytest.mark.parametrize("who", ["v", "k"])
def test_zero_damage_proposes_nothing(who):
    d = acting_first(who)
    events = d.do(Strike(damage=0), attack=[15])
    assert d.types(events) == ["Pf2eStrikeRolled", "Pf2eDamageDealt"]
    assert d.refused(ConfirmVictory()) == "the victory condition is not met yet: nobody has drawn first blood"


@pytest.mark.parametrize("left, proposed", [(1, False), (0, True)])
def test_a_knockout_is_proposed_at_exactly_0_hp(left, proposed):
    d = acting_first("v", victory="knockout", kyra_hp=10)
    events = d.do(Strike(damage=10 - left), attack=[15])
    assert (type(events[-1]).__name__ == "Pf2eVictoryProposed") is proposed
    if proposed:
        assert (events[-1].side, events[-1].ending, d.state["proposal"]["detail"]) == ("a", "knockout", "Kyra knocked out")
        d.do(DeclineVictory(reason="she stands"))
        assert d.state["proposal"] is None
        assert d.refused(DeclineVictory()) == "no victory is waiting for the judge"
    else:
        assert d.refused(ConfirmVictory()) == "the victory condition is not met yet: no side is knocked out"


@pytest.mark.parametrize("side", ["a", "b"])
def test_a_custom_victory_is_confirmed_for_the_side_named(side):
    d = acting_first("v", victory="custom", victory_text="a touch to the heart")
    assert d.refused(ConfirmVictory()) == "name the side that met the victory condition"
    [won] = d.do(ConfirmVictory(side=side))
    assert won == DuelWon(side=side, ending="custom")
    assert d.state["outcome"]["detail"] == "Magistrate Ilse confirmed: a touch to the heart"


@pytest.mark.parametrize("side", ["a", "b"])
@pytest.mark.parametrize("penalty", ["", "exile"])
def test_either_side_is_disqualified_with_or_without_a_penalty(side, penalty):
    d = acting_first("v", penalty=penalty)
    events = d.do(Disqualify(side=side, reason="poison"))
    assert events[0] == DuelDisqualified(side=side, reason="poison")
    assert d.types(events)[1:] == (["Pf2ePenaltyImposed"] if penalty else [])
    if penalty:
        assert (events[1].side, events[1].penalty) == (side, "exile")


@pytest.mark.parametrize("side", ["a", "b"])
def test_either_side_may_yield_and_fighting_on_escalates_once(side):
    d = acting_first("k")
    assert d.refused(EscalateToCombat()) == "the duel has not ended: there is nothing to escalate yet"
    d.do(Yield(side=side))
    assert d.state["outcome"]["winner"] == ("b" if side == "a" else "a")
    [escalated] = d.do(EscalateToCombat(side=side, detail="drew again"))
    assert (escalated.side, escalated.detail) == (side, "drew again")
    assert pf2e.progress(d.state) == "Over, escalated to combat"
    assert d.refused(EscalateToCombat()) == "this duel has already escalated to normal combat"
