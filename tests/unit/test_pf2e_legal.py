"""PF2e's legal next actions, whole: at each kind of step, for either side, every action offered with
the side it acts for, each field's choices and each dice field's dice (what the API and the forms read)."""
from __future__ import annotations

import pytest

from tests import legal_summary
from tests.unit.test_pf2e_combat import duel, initiative
from tests.unit.test_pf2e_edges import spell_duel
from tests.unit.test_pf2e_refusals import tag_team
from tracker.rules import legal, pf2e
from tracker.rules.pf2e.board import choices
from tracker.rules.pf2e.commands import CastSpell, EndTurn, Strike

# Offered at every step, never narrowed to a side: the endings and the GM's own corrections.
ALWAYS = {**legal_summary.ENDINGS,
          "SetCondition": (None, {"condition": ["frightened", "off_guard"]})}
OTHER = {"v": "k", "k": "v", "e": "s", "s": "e"}
SIDE = {"v": "a", "e": "a", "k": "b", "s": "b"}


def skill_action(who: str) -> tuple:
    """Demoralize or Feint on ``who``'s turn: theirs to send, against the opponent, with a d20."""
    return SIDE[who], {"duelist": [who], "target": [OTHER[who]], "dice_check:dice": [20]}


def other_action(who: str) -> tuple:
    return SIDE[who], {"duelist": [who], "cost": ["1", "2", "3", "0"]}


def turn_actions(who: str) -> dict:
    """The actions of any turn, narrowed to the duelist whose turn it is."""
    return {"Demoralize": skill_action(who), "Feint": skill_action(who), "OtherAction": other_action(who)}


def summary(state) -> dict:
    """The summary, SetCondition's duelist and value set aside once checked: every duelist, and
    the values that change the first one's frightened (the contract test tries them all)."""
    out = legal_summary.summary(pf2e, state)
    if "SetCondition" in out:
        fields = out["SetCondition"][1]
        assert fields.pop("duelist") == [d["id"] for d in state["duelists"]]
        first = state["frightened"][state["duelists"][0]["id"]]
        assert fields.pop("value") == [v for v in (1, 2, 3, 4, 0) if v != first]
    return out


def combat_turn(first: str):
    """A combat duel after initiative, ``first`` having won it with Intimidation (Bullying Press)."""
    d = duel()
    if first == "v":
        initiative(d, "intimidation", 15, "deception", 10)
    else:
        initiative(d, "deception", 10, "intimidation", 15)
    return d


def test_initiative_offers_who_has_not_rolled_the_skills_they_may_roll_and_one_d20():
    assert summary(duel().state) == {
        "RollInitiative": (None, {"duelist": ["v", "k"], "skill": ["deception", "intimidation", "perception"],
                                  "dice_roll:dice": [20]}), **ALWAYS}


def test_a_tie_offers_the_tied_to_act_first():
    d = duel()
    initiative(d, "intimidation", 10, "intimidation", 10)
    assert summary(d.state) == {"BreakTie": (None, {"first": ["v", "k"]}), **ALWAYS}


@pytest.mark.parametrize("first", ["v", "k"])
def test_the_turn_s_holder_is_offered_the_strike_the_turn_s_end_and_acting_second(first):
    d = combat_turn(first)
    side = SIDE[first]
    assert summary(d.state) == {
        "ActSecond": (side, {}), "EndTurn": (side, {"duelist": [first]}),
        "Strike": (side, {"attacker": [first], "target": [OTHER[first]], "reaction": ["", "bullying_press"],
                          "dice_attack:dice": [20]}),
        **turn_actions(first), **ALWAYS}


@pytest.mark.parametrize("first", ["v", "k"])
def test_a_pending_hit_is_offered_to_its_target_s_side_to_sidestep_or_let_stand(first):
    d = combat_turn(first)
    d.do(Strike(), attack=[15])
    target_side = SIDE[OTHER[first]]
    assert summary(d.state) == {"DeceptiveSidestep": (target_side, {}), "DeclineSidestep": (target_side, {}),
                                **ALWAYS}


SPELL_FIELDS = {"effect": ["full", "half", "double", "none"], "tradition": ["arcane", "primal", "occult", "divine"]}


@pytest.mark.parametrize("caster", ["e", "s"])
def test_a_spell_turn_offers_the_caster_its_spells_its_new_focus_and_the_turn_s_end(caster):
    d = spell_duel()
    if caster == "s":
        d.do(EndTurn())
    side, focus = SIDE[caster], {"e": ["occult"], "s": ["arcane"]}[caster]
    assert summary(d.state) == {
        # The ranks with a slot left, and never more actions than the turn has left (3 at its start).
        "CastSpell": (side, {"caster": [caster], "target": [OTHER[caster]], **SPELL_FIELDS,
                             "rank": [int(r) for r in choices(d.state)["slots"]], "cantrip": [False, True],
                             "actions": [2, 1, 3]}),
        "ChangeTraditionFocus": (side, {"duelist": [caster], "tradition": focus}),
        "EndTurn": (side, {"duelist": [caster]}),
        "Demoralize": skill_action(caster), "OtherAction": other_action(caster), **ALWAYS}


@pytest.mark.parametrize("caster, ranks", [("e", [1, 2, 3]), ("s", [1, 2])])
def test_a_pending_spell_offers_the_counter_to_the_opponent_with_the_ranks_of_its_slots(caster, ranks):
    d = spell_duel()
    if caster == "s":
        d.do(EndTurn())
    d.do(CastSpell("Force Barrage", 1, {"e": "occult", "s": "arcane"}[caster], damage=1))
    counter = OTHER[caster]
    assert summary(d.state) == {"DuelingCounter": (SIDE[counter], {"duelist": [counter], "slot_rank": ranks}),
                                "DeclineCounter": (SIDE[counter], {}), **ALWAYS}


def test_slot_ranks_are_offered_as_numbers_in_order_and_no_counter_speaks_for_no_side():
    d = spell_duel()
    offered = dict(choices(d.state), counters=[{"id": "s", "slots": ["10", "2", "2"]}])
    action = pf2e.legal._offer(d.state, offered, "DuelingCounter")
    assert (action["side"], action["fields"]["slot_rank"]["choices"]) == ("b", [2, 10])
    nobody = pf2e.legal._offer(d.state, dict(offered, counters=[]), "DuelingCounter")
    assert (nobody["side"], nobody["fields"]["duelist"]["choices"], nobody["fields"]["slot_rank"]["choices"]) \
        == (None, [], [])


@pytest.mark.parametrize("ended, side", [(0, "a"), (1, "b")])
def test_a_tag_team_offers_the_tag_to_the_side_whose_turn_it_is(ended, side):
    d = tag_team()
    for _ in range(ended):
        d.do(EndTurn())
    fighter = {"a": "v", "b": "k"}[side]
    offered = summary(d.state)
    assert offered["Tag"] == (None, {"side": [side]})
    assert offered["Strike"] == (side, {"attacker": [fighter], "target": [OTHER[fighter]],
                                        "reaction": ["", "bullying_press"], "dice_attack:dice": [20]})


@pytest.mark.parametrize("audience", [legal.TABLE, "seat:a", "seat:b", "display"])
def test_nobody_but_the_gm_is_offered_anything(audience):
    assert pf2e.legal_actions(combat_turn("v").state, audience) == []
