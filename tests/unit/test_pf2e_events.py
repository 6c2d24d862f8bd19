"""PF2e commands decided into exact events: Strikes with each reaction, sidesteps, counters,
typed damage carried or replaced, and the 1-HP edge of who may act and be targeted."""
from __future__ import annotations

import pytest

from tracker.rules.pf2e import events as ev
from tracker.rules.pf2e.commands import (CastSpell, DeceptiveSidestep, DeclineCounter, DeclineSidestep,
                                         DuelingCounter, RollInitiative, Strike, Tag)

from tests.unit.test_pf2e_edges import spell_duel
from tests.unit.test_pf2e_refusals import four
from tests.unit.test_pf2e_support import Duel, fighter


def duel(v_skill: str, k_skill: str, **setup) -> Duel:
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], victory="knockout", **setup)
    d.do(RollInitiative("v", v_skill), roll=[15])
    d.do(RollInitiative("k", k_skill), roll=[5])
    return d


def test_sense_weakness_on_a_deceiver_leaves_her_off_guard_and_a_critical_doubles_the_rolled_damage():
    d = duel("perception", "deception")
    assert d.do(Strike(reaction="sense_weakness"), attack=[18], damage=[6]) == [
        ev.Pf2eStrikeRolled(attacker="v", target="k", die=18, modifier=10, total=28, ac=18, degree="critical_success",
                            reaction="sense_weakness", pending=False, damage_typed=None),
        ev.Pf2eOffGuard(duelist="k", cause="Sense Weakness"),
        ev.Pf2eDamageDealt(attacker="v", target="k", source="Strike", expression="1d8+4", dice=(6,), base=10,
                           multiplier="double", amount=20, hp_after=20)]


def pressed_and_pending() -> Duel:
    d = duel("intimidation", "deception")
    assert d.do(Strike(reaction="bullying_press", damage=4), attack=[12]) == [
        ev.Pf2eStrikeRolled(attacker="v", target="k", die=12, modifier=10, total=22, ac=20, degree="success",
                            reaction="bullying_press", pending=True, damage_typed=4)]
    return d


def test_a_sidestep_rerolls_at_minus_2_and_bullying_press_still_frightens():
    d = pressed_and_pending()
    assert d.do(DeceptiveSidestep(), attack=[14]) == [
        ev.Pf2eSidestepUsed(defender="k", attacker="v", die=14, modifier=10, penalty=-2, total=22, ac=20,
                            degree="success"),
        ev.Pf2eDamageDealt(attacker="v", target="k", source="Strike", expression="", dice=(), base=4,
                           multiplier="full", amount=4, hp_after=36),
        ev.Pf2eFrightened(duelist="k", value=1, cause="Bullying Press")]


def test_a_natural_20_on_the_sidestep_reroll_still_raises_the_degree():
    d = pressed_and_pending()
    used, damage, _ = d.do(DeceptiveSidestep(), attack=[20])
    assert (used.total, used.degree, damage.multiplier, damage.amount) == (28, "critical_success", "double", 8)


@pytest.mark.parametrize("typed, amount", [({"damage": 6}, 6), ({}, 4), ({"damage": 0}, 0)])
def test_declining_the_sidestep_lands_the_hit_with_the_damage_typed_now_or_before(typed, amount):
    d = pressed_and_pending()
    events = d.do(DeclineSidestep(**typed))
    assert events[:2] == [
        ev.Pf2eSidestepDeclined(defender="k"),
        ev.Pf2eDamageDealt(attacker="v", target="k", source="Strike", expression="", dice=(), base=amount,
                           multiplier="full", amount=amount, hp_after=40 - amount)]
    assert events[2:] == [ev.Pf2eFrightened(duelist="k", value=1, cause="Bullying Press")]


def test_a_failed_counter_lets_the_spell_roll_its_damage_named_after_the_spell():
    s = spell_duel()
    s.do(CastSpell("Force Barrage", 1, "occult", damage_expr="1d4+1", target="s"))
    assert s.do(DuelingCounter("s", slot_rank=1), check=[2], damage=[3]) == [
        ev.Pf2eCounterAttempted(duelist="s", caster="e", spell="Force Barrage", slot_rank=1, spell_rank=1, die=2,
                                modifier=8, total=10, dc=20, degree="critical_failure", counteracted=False),
        ev.Pf2eDamageDealt(attacker="e", target="s", source="Force Barrage", expression="1d4+1", dice=(3,), base=4,
                           multiplier="full", amount=4, hp_after=28)]


def test_a_natural_20_counter_is_a_critical_success():
    s = spell_duel()
    s.do(CastSpell("Force Barrage", 3, "occult", cantrip=True, damage=5))
    [attempt] = s.do(DuelingCounter("s", slot_rank=1), check=[20])
    assert (attempt.total, attempt.degree, attempt.spell_rank, attempt.counteracted) == (28, "critical_success", 3, True)


@pytest.mark.parametrize("typed, amount", [({"damage": 7}, 7), ({}, 5)])
def test_declining_a_counter_lands_the_spell_with_the_damage_typed_now_or_before(typed, amount):
    s = spell_duel()
    s.do(CastSpell("Force Barrage", 1, "occult", damage=5))
    assert s.do(DeclineCounter(**typed)) == [
        ev.Pf2eCounterDeclined(spell="Force Barrage"),
        ev.Pf2eDamageDealt(attacker="e", target="s", source="Force Barrage", expression="", dice=(), base=amount,
                           multiplier="full", amount=amount, hp_after=32 - amount)]


def test_a_failed_counter_keeps_the_damage_typed_with_the_spell():
    s = spell_duel()
    s.do(CastSpell("Force Barrage", 1, "occult", damage=5))
    [_, damage] = s.do(DuelingCounter("s", slot_rank=1), check=[2])
    assert (damage.base, damage.hp_after) == (5, 27)


def test_a_spell_with_a_target_and_no_damage_deals_none():
    s = spell_duel()
    assert s.do(CastSpell("Mage Armor", 1, "arcane", target="s")) == [
        ev.Pf2eSpellCast(caster="e", spell="Mage Armor", rank=1, tradition="arcane", cantrip=False, target="s",
                         damage_expr="", damage_typed=None, effect="full", pending=False)]
    [cast] = spell_duel().do(CastSpell("Shield", 1, "arcane", cantrip=True))
    assert (cast.target, cast.damage_expr) == ("", "")


def test_a_spell_s_damage_dice_are_checked_and_named():
    s = spell_duel()
    [cast, damage] = s.do(CastSpell("Produce Flame", 1, "arcane", cantrip=True, damage_expr="1D4 + 2"), damage=[4])
    assert (cast.damage_expr, damage.expression, damage.base, damage.source) == ("1d4+2", "1d4+2", 6, "Produce Flame")
    # at the start of a turn (a spell costs 2 of its 3 actions), so only the missing die can refuse it
    fresh = spell_duel()
    assert fresh.refused(CastSpell("Ray", 1, "arcane", cantrip=True, damage_expr="1d4")) == \
        "type another d4 for Ray damage, or let the server roll"


def test_a_strike_with_no_damage_dice_on_the_sheet_deals_0():
    from tracker.rules.pf2e.strikes import damage_dealt
    from tracker.rules.dice import fixed_dice
    d = duel("perception", "perception")
    hit = damage_dealt(d.state, "v", "k", "Kick", "", None, "full", fixed_dice())
    assert (hit.base, hit.amount, hit.dice, hit.expression, hit.hp_after) == (0, 0, (), "", 40)


# --- one hit point is still standing ----------------------------------------------------------------

def test_a_duelist_at_1_hp_still_strikes_and_is_still_a_target():
    d = Duel([fighter("v", "Valeros", "a", hp=1), fighter("k", "Kyra", "b", hp=1)], victory="knockout")
    d.do(RollInitiative("v", "perception"), roll=[15])
    d.do(RollInitiative("k", "perception"), roll=[5])
    [rolled, damage, won] = d.do(Strike(damage=1), attack=[15])
    assert (rolled.target, damage.hp_after, won.side) == ("k", 0, "a")


def test_a_caster_at_1_hp_still_casts():
    s = spell_duel()
    s.state = dict(s.state, hp={"e": 1, "s": 1})
    [cast, damage, won] = s.do(CastSpell("Daze", 1, "arcane", cantrip=True, damage=1))
    assert (cast.target, damage.hp_after, won.ending) == ("s", 0, "knockout")


def test_tagging_in_a_partner_at_1_hp_and_out_a_duelist_at_1_hp_only_on_their_turn():
    d = four("tag")
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "intimidation"), roll=[10])
    d.state = dict(d.state, hp=dict(d.state["hp"], m=1, k=1))
    assert [type(e).__name__ for e in d.do(Tag(side="a"))] == ["Pf2eTagged", "Pf2eTurnEnded"]
    assert "only on their own turn" in d.refused(Tag(side="a"))  # Merisiel at 1 HP, on Kyra's turn
    d.state = dict(d.state, hp=dict(d.state["hp"], m=0, v=40))
    assert d.do(Tag(side="a")) == [ev.Pf2eTagged(side="a", out="m", into="v")]  # knocked out: at once
