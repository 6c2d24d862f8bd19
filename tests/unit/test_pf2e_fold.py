"""PF2e folding and its small rules: impossible histories named, the dice each roll asks for,
the header's defaults, turns passing on, and the signs in the log."""
from __future__ import annotations

import pytest

from tracker.rules import pf2e
from tracker.rules.base import ImpossibleHistory, Refused
from tracker.rules.dice import fixed_dice
from tracker.rules.duel import Disqualify
from tracker.rules.pf2e import events as ev
from tracker.rules.pf2e.commands import (ActSecond, BreakTie, CastSpell, DeceptiveSidestep, DeclineCounter, DeclineVictory,
                                         DuelingCounter, EndTurn, EscalateToCombat, RollInitiative, Strike)
from tracker.rules.pf2e.rounds import order_tiers, turn_ended
from tracker.rules.pf2e.setup import hp_at_start

from tests.unit.test_pf2e_edges import spell_duel, two_fighters
from tests.unit.test_pf2e_refusals import four, fresh
from tests.unit.test_pf2e_support import HEADER, Duel, fighter


def impossible_in(state, event) -> str:
    with pytest.raises(ImpossibleHistory) as broken:
        pf2e.evolve(state, event, 99)
    return str(broken.value)


def test_impossible_histories_say_what_could_not_have_happened():
    d = two_fighters()
    s = d.state
    assert impossible_in(s, ev.Pf2ePenaltyImposed("a", "exile")) == "a penalty without a disqualification"
    assert impossible_in(s, ev.Pf2eDuelEscalated("a", "")) == \
        "an escalation of a duel that had not ended, or had already escalated"
    assert impossible_in(s, ev.Pf2eDamageDealt("v", "k", "Strike", "", (), 5, "full", 5, 30)) == \
        "5 damage leaving 30 HP of 40"
    assert impossible_in(s, ev.Pf2eSidestepDeclined("k")) == "an answer to a strike nobody is waiting on"
    assert impossible_in(s, ev.Pf2eCounterDeclined("Daze")) == "an answer to a spell nobody is waiting on"
    assert impossible_in(s, ev.Pf2eStrikeRolled("v", "k", 5, 10, 15, 20, "failure", "bullying_press", False, None)) == \
        "v used bullying_press without it, or twice in a round"
    assert impossible_in(s, ev.Pf2eActedSecond(1, "k")) == "acting second without being first"
    assert impossible_in(s, ev.Pf2eTurnEnded("k", 0, "v", False)) == "Pf2eTurnEnded out of k's turn"
    assert impossible_in(s, ev.Pf2eInitiativeRolled(1, "v", "perception", 5, 8, 13)) == \
        "initiative rolled in the middle of a round"
    assert impossible_in(s, ev.Pf2eVictoryDeclined("")) == "a victory declined that nobody proposed"
    assert impossible_in(s, ev.Pf2eVictoryProposed("a", "first_blood", "")) == \
        "a victory by first_blood proposed, but no blood was drawn"
    proposed = dict(s, proposal={"side": "a", "ending": "custom", "detail": ""})
    assert impossible_in(proposed, ev.Pf2eVictoryProposed("a", "unknown", "")) == "a victory proposed while another waits"
    pf2e.evolve(s, ev.Pf2eVictoryProposed("a", "unknown", ""), 99)  # an ending with no check of its own passes
    # a reaction already used, even the one gained
    pressed = dict(s, reaction={"v": "bullying_press", "k": None}, reacted={"v": True, "k": False})
    assert impossible_in(pressed, ev.Pf2eStrikeRolled("v", "k", 5, 10, 15, 20, "failure", "bullying_press", False,
                                                       None)) == "v used bullying_press without it, or twice in a round"
    fresh_press = dict(pressed, reacted={"v": False, "k": False})
    pf2e.evolve(fresh_press, ev.Pf2eStrikeRolled("v", "k", 5, 10, 15, 20, "failure", "bullying_press", False, None), 9)


def test_a_spell_needs_the_slot_it_spends_and_a_counter_its_own():
    d = spell_duel()
    s = dict(d.state, slots={"e": {"1": 0, "2": 2}, "s": {"1": 2, "2": 2, "3": 1}})
    cast = ev.Pf2eSpellCast("e", "Daze", 1, "arcane", False, "", "", None, "full", False)
    assert impossible_in(s, cast) == "a rank 1 slot spent that e no longer has"
    pf2e.evolve(s, ev.Pf2eSpellCast("e", "Daze", 1, "arcane", True, "", "", None, "full", False), 9)  # a cantrip
    assert impossible_in(s, ev.Pf2eSpellCast("e", "Daze", 7, "arcane", False, "", "", None, "full", False)) == \
        "a rank 7 slot spent that e no longer has"
    d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    counter = ev.Pf2eCounterAttempted("s", "e", "Force Barrage", 3, 1, 10, 8, 18, 20, "failure", False)
    assert impossible_in(dict(d.state, slots=dict(d.state["slots"], s={"3": 0})), counter) == \
        "a rank 3 slot spent that s no longer has"
    assert impossible_in(dict(d.state, reacted={"s": True}), counter) == \
        "s used dueling_counter without it, or twice in a round"
    after = pf2e.evolve(d.state, counter, 9)
    assert (after["slots"]["s"]["3"], after["expended"]["s"]) == (0, {"3": 1})


def test_a_sidestep_needs_a_pending_hit_and_the_reaction():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")])
    d.do(RollInitiative("v", "perception"), roll=[15])
    d.do(RollInitiative("k", "deception"), roll=[5])
    d.do(Strike(), attack=[12])
    used = ev.Pf2eSidestepUsed("k", "v", 3, 18, 0, 21, 20, "success")
    assert impossible_in(dict(d.state, reacted={"k": True}), used) == \
        "k used deceptive_sidestep without it, or twice in a round"
    assert impossible_in(dict(d.state, pending=None), used) == "an answer to a strike nobody is waiting on"
    assert impossible_in(dict(d.state, pending=dict(d.state["pending"], kind="spell")), used) == \
        "an answer to a strike nobody is waiting on"


def test_a_new_duel_state_starts_clean():
    s = fresh().state
    assert (s["round"], s["phase"], s["rolls"], s["tiers"], s["order"], s["turn"], s["acted"], s["strikes"]) == \
        (1, "initiative", {}, [], [], None, False, 0)
    assert (s["pending"], s["proposal"], s["spells"], s["penalty"], s["escalated"]) == (None, None, [], None, None)


@pytest.mark.parametrize("command, typed, words", [
    (RollInitiative("v", "perception"), {"roll": [21]}, "a d20 cannot show 21 (Valeros's initiative)"),
    (RollInitiative("v", "perception"), {}, "type another d20 for Valeros's initiative, or let the server roll"),
])
def test_initiative_asks_for_a_d20_named_after_its_roller(command, typed, words):
    assert fresh().refused(command, **typed) == words
    fresh().do(RollInitiative("v", "perception"), roll=[20])


def test_each_roll_names_itself_when_a_die_is_wrong():
    assert two_fighters().refused(Strike(), attack=[21]) == "a d20 cannot show 21 (Valeros's attack roll)"
    two_fighters(victory="knockout").do(Strike(), attack=[20], damage=[8])
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")])
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "deception"), roll=[5])
    d.do(Strike(damage=1), attack=[12])
    assert d.refused(DeceptiveSidestep(), attack=[21]) == "a d20 cannot show 21 (Valeros's second attack roll)"
    s = spell_duel()
    s.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    assert s.refused(DuelingCounter("s", slot_rank=1), check=[21]) == "a d20 cannot show 21 (Seoni's counteract check)"
    assert two_fighters().refused(Strike()) == "type another d20 for Valeros's attack roll, or let the server roll"
    assert two_fighters().refused(Strike(), attack=[15]) == \
        "type another d8 for Strike damage, or let the server roll"


def test_the_header_s_optional_words_default_to_empty():
    [started] = pf2e.start({"duel_id": "d9", "campaign_id": "c9", "session_id": "s9"}, {},
                           [fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], fixed_dice())
    assert (started.duel_id, started.campaign_id, started.session_id, started.ruleset) == ("d9", "c9", "s9", "pf2e")
    assert (started.challenger, started.stakes, started.judge) == ("", "", "")
    [full] = pf2e.start(HEADER, {}, [fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], fixed_dice())
    assert (full.challenger, full.stakes, full.judge) == ("a", "the family sword", "Magistrate Ilse")


@pytest.mark.parametrize("duelist, hp", [
    ({"stats": {"hp_max": 30}, "current": {"HP": 12}}, 12),
    ({"stats": {"hp_max": 30}, "current": {}}, 30),
    ({"stats": {"hp_max": 30}, "current": None}, 30),
    ({"stats": {"hp_max": 30}}, 30),
    ({"stats": None}, 0),
    ({}, 0),
    ({"stats": {}, "current": {"HP": "7"}}, 7),
])
def test_hp_at_the_start_is_the_current_hp_else_the_sheet_s_maximum(duelist, hp):
    assert hp_at_start(duelist) == hp


def test_a_duelist_without_a_sheet_is_refused_before_hp_is_read():
    with pytest.raises(Refused) as refusal:
        pf2e.start(HEADER, {}, [fighter("v", "Valeros", "a"), {"id": "k", "name": "Kyra", "side": "b", "stats": None}],
                   fixed_dice())
    assert (refusal.value.reason, refusal.value.field) == \
        ("Kyra has no Pathfinder 2e stats block: fill it in before the duel", "side_b")


def test_frightened_drops_by_exactly_1_at_the_end_of_a_turn():
    d = two_fighters()
    for before, after in ((3, 2), (1, 0), (0, 0)):
        state = dict(d.state, frightened={"v": before, "k": 0})
        assert turn_ended(state, "v").frightened == after


def test_a_spell_duel_wraps_round_to_the_first_caster_and_a_combat_round_ends():
    s = spell_duel()
    [ended] = s.do(EndTurn())
    assert (ended.next, ended.new_round) == ("s", False)
    [ended] = s.do(EndTurn())
    assert (ended.next, ended.new_round) == ("e", True)
    d = two_fighters()
    d.do(EndTurn())
    [ended] = d.do(EndTurn())
    assert (ended.next, ended.new_round) == ("", True)
    assert d.state["phase"] == "initiative" and d.state["round"] == 2


def test_a_spell_duel_wraps_past_a_fallen_caster_to_the_one_who_ended():
    s = spell_duel()
    s.state = dict(s.state, hp={"e": 30, "s": 0})
    [ended] = s.do(EndTurn())
    assert (ended.next, ended.new_round) == ("e", True)


def test_a_duelist_outside_the_order_passes_the_turn_to_the_first_in_it():
    d = four("tag")
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "intimidation"), roll=[10])
    ended = turn_ended(dict(d.state, order=["v", "k"]), "m")
    assert (ended.next, ended.new_round) == ("v", False)


def test_the_judge_s_words_default_to_empty():
    d = two_fighters()
    d.do(Strike(damage=3), attack=[15])
    assert d.do(DeclineVictory()) == [ev.Pf2eVictoryDeclined("")]
    d.do(EndTurn())
    [disqualified, *_] = d.do(Disqualify(side="b"))
    assert disqualified.reason == ""
    assert d.do(EscalateToCombat()) == [ev.Pf2eDuelEscalated("", "")]


def test_npcs_go_before_pcs_on_equal_totals():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b", rank="villano")])
    d.do(RollInitiative("v", "perception"), roll=[10])
    [rolled, ordered] = d.do(RollInitiative("k", "perception"), roll=[10])
    assert ordered.tiers == (("k",), ("v",)) and d.state["turn"] == "k"
    assert order_tiers(d.state) == (("k",), ("v",))


def test_a_broken_tie_and_acting_second_record_the_round():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")])
    d.do(RollInitiative("v", "perception"), roll=[10])
    d.do(RollInitiative("k", "deception"), roll=[11])
    assert d.do(BreakTie("v")) == [ev.Pf2eTieBroken(round=1, first="v")]
    assert d.do(ActSecond()) == [ev.Pf2eActedSecond(round=1, duelist="v")]
    assert d.state["turn"] == "k"


@pytest.mark.parametrize("modifier, shown", [(3, "+3"), (0, "+0"), (-2, "−2"), (1, "+1"), (-1, "−1")])
def test_the_log_writes_a_modifier_with_its_sign(modifier, shown):
    from tracker.rules.pf2e.describe import _signed
    assert _signed(modifier) == shown


def test_blood_in_a_custom_duel_proposes_nothing_the_judge_decides():
    d = two_fighters(victory="custom", victory_text="the judge's word")
    events = d.do(Strike(damage=40), attack=[15])  # even a knockout waits for the judge
    assert [type(e).__name__ for e in events] == ["Pf2eStrikeRolled", "Pf2eDamageDealt"]
    assert d.state["proposal"] is None


def test_the_log_line_of_an_ending_names_the_winner():
    from tracker.rules.duel import Yield
    d = two_fighters()
    [yielded] = d.do(Yield(side="b"))
    assert pf2e.describe(d.state, yielded) == "Duel ended: Valeros won by yield (Kyra yielded)."


def test_slots_skip_empty_parts_and_read_every_one_after():
    from tracker.rules.pf2e.sheet import parse_slots
    assert parse_slots("1:3,,2:2; ;3:1") == {"1": 3, "2": 2, "3": 1}
    assert parse_slots("") == {}


def test_a_spell_s_effect_halves_its_damage_and_a_declined_counter_rolls_the_dice():
    s = spell_duel()
    [cast, damage] = s.do(CastSpell("Fireball", 2, "arcane", damage=7, effect="half"))
    assert (cast.effect, damage.multiplier, damage.amount) == ("half", "half", 3)
    s = spell_duel()
    s.do(CastSpell("Force Barrage", 1, "occult", damage_expr="2d4"))
    [_, damage] = s.do(DeclineCounter(), damage=[1, 4])
    assert (damage.dice, damage.amount, damage.hp_after) == ((1, 4), 5, 27)


def test_an_initiative_roll_records_its_die():
    d = fresh()
    assert d.do(RollInitiative("v", "intimidation"), roll=[7]) == [
        ev.Pf2eInitiativeRolled(round=1, duelist="v", skill="intimidation", die=7, modifier=9, total=16)]
