"""PF2e steps seen from each side: what each seat's view shows of its own and the other side, the
numbers a held Strike or spell keeps beside its line, initiative refusals with their fields, and a
turn ended in the same step as a Strike that waits on Deceptive Sidestep."""
from __future__ import annotations

import pytest

from tests.unit.test_pf2e_actions import duel
from tests.unit.test_pf2e_edges import spell_duel
from tests.unit.test_pf2e_maneuver_edges import OTHER, refusal, turn_of
from tests.unit.test_pf2e_sealed import sealed
from tracker.rules import pf2e
from tracker.rules.pf2e.board import board
from tracker.rules.pf2e.commands import (CastSpell, DeceptiveSidestep, DeclineSidestep, EndTurn, OtherAction,
                                         RollInitiative, Strike)
from tracker.rules.pf2e.results import result

SIDE = {"v": "a", "k": "b", "e": "a", "s": "b"}
OTHER = {**OTHER, "e": "s", "s": "e"}


def held_strike(attacker: str, end_turn: bool = False):
    """``attacker`` hits with Intimidation behind them; the target rolled Deception: the hit waits."""
    d = duel()
    d.do(RollInitiative("v", "intimidation" if attacker == "v" else "deception"), roll=[15 if attacker == "v" else 2])
    d.do(RollInitiative("k", "intimidation" if attacker == "k" else "deception"), roll=[15 if attacker == "k" else 2])
    d.do(Strike(end_turn=end_turn), attack=[12])
    assert d.state["pending"]["target"] == OTHER[attacker]
    return d


@pytest.mark.parametrize("attacker", ["v", "k"])
@pytest.mark.parametrize("answer, typed", [(DeceptiveSidestep, {"attack": [3]}), (DeclineSidestep, {"damage": [5]})])
def test_a_strike_ending_the_turn_ends_it_once_the_target_answers_either_way(attacker, answer, typed):
    d = held_strike(attacker, end_turn=True)
    assert d.types(d.do(answer(), **typed))[-1] == "Pf2eTurnEnded" and d.state["turn"] == OTHER[attacker]
    d = held_strike(attacker, end_turn=False)
    assert d.types(d.do(answer(), **typed))[-1] != "Pf2eTurnEnded" and d.state["turn"] == attacker


@pytest.mark.parametrize("attacker", ["v", "k"])
def test_a_held_strike_keeps_its_numbers_and_says_it_waits_never_the_pending_flag(attacker):
    d = held_strike(attacker)
    numbers = d.state["history"][-1]["result"]
    assert numbers["waiting_for_reaction"] is True and "pending" not in numbers
    assert (numbers["event"], numbers["attacker"], numbers["total"]) == ("Pf2eStrikeRolled", attacker, 22)
    held = d.events[-1]
    assert dict(result(d.state, held), event="Pf2eStrikeRolled") == numbers


@pytest.mark.parametrize("caster", ["e", "s"])
def test_a_held_spell_keeps_its_numbers_and_says_it_waits(caster):
    d = spell_duel()
    if caster == "s":
        d.do(EndTurn())
    d.do(CastSpell("Force Barrage", 1, {"e": "occult", "s": "arcane"}[caster], damage=1))
    numbers = d.state["history"][-1]["result"]
    assert numbers["waiting_for_reaction"] is True and "pending" not in numbers and numbers["caster"] == caster


# --- what each seat sees -----------------------------------------------------------------------

@pytest.mark.parametrize("attacker", ["v", "k"])
def test_each_seat_sees_its_own_reaction_and_whether_it_reacted_never_the_other_s(attacker):
    d = held_strike(attacker)
    target = OTHER[attacker]
    d.do(DeceptiveSidestep(), attack=[3])
    for who in (attacker, target):
        view = pf2e.seen_by(d.state, f"seat:{SIDE[who]}")
        assert view["reaction"] == {who: d.state["reaction"][who]}
        assert view["reacted"] == ({who: True} if who == target else {})
    for reader in ("gm", "api"):
        seen = pf2e.seen_by(d.state, reader)
        whole = {k: v for k, v in d.state.items() if k not in ("sealed", "sealed_dice")}
        assert {k: v for k, v in seen.items() if k not in ("sealed", "chosen")} == whole


@pytest.mark.parametrize("caster", ["e", "s"])
def test_each_seat_sees_only_its_own_focus_and_the_other_seat_is_asked_to_counter(caster):
    d = spell_duel()
    if caster == "s":
        d.do(EndTurn())
    d.do(CastSpell("Force Barrage", 1, {"e": "occult", "s": "arcane"}[caster], damage=1))
    mine, theirs = pf2e.seen_by(d.state, f"seat:{SIDE[caster]}"), pf2e.seen_by(d.state, f"seat:{SIDE[OTHER[caster]]}")
    own = lambda track, who: {k: v for k, v in d.state[track].items() if k == who}  # noqa: E731
    assert d.state["focus"] and d.state["refocus"]
    assert (mine["focus"], mine["refocus"]) == (own("focus", caster), own("refocus", caster))
    assert (theirs["focus"], theirs["refocus"]) == (own("focus", OTHER[caster]), own("refocus", OTHER[caster]))
    assert mine["pending"] is None and theirs["pending"] == d.state["pending"]


def test_a_sealed_skill_shows_its_die_as_0_when_none_was_typed():
    d = sealed()
    d.do(pf2e.COMMANDS["ChooseSkill"]("v", "deception"))
    d.state = dict(d.state, sealed_dice={})
    assert pf2e.seen_by(d.state, "seat:a")["sealed"] == {"v": {"skill": "deception", "die": 0}}


# --- initiative refusals ------------------------------------------------------------------------

def test_initiative_refusals_say_why_at_their_field():
    assert refusal(sealed(), RollInitiative("v", "deception"), roll=[10]) == (
        "in this duel each duelist chooses their skill in secret (on a seat, or the NPC's on this page): "
        "choose, then roll", "skill")
    assert refusal(duel(), RollInitiative(skill="deception"), roll=[10]) == (
        "a skill is one duelist's choice: name the duelist, or leave the skill empty to roll everyone's usual one",
        "skill")


@pytest.mark.parametrize("who", ["v", "k"])
def test_a_duelist_named_without_a_skill_rolls_their_usual_one(who):
    d = duel()
    [rolled] = d.do(RollInitiative(who), roll=[10])[:1]
    assert (rolled.duelist, rolled.skill, rolled.total) == (who, "intimidation", 19)


@pytest.mark.parametrize("who", ["v", "k"])
def test_the_board_counts_the_actions_left_in_the_turn(who):
    d = turn_of(who)
    assert board(d.state)["actions_left"] == 3
    d.do(OtherAction(action="Stride", cost="2"))
    assert board(d.state)["actions_left"] == 1
    assert board(duel().state)["actions_left"] == 0


# --- a condition set by hand, and reactions readied on one's turn -------------------------------

@pytest.mark.parametrize("who, name", [("v", "Valeros"), ("k", "Kyra")])
@pytest.mark.parametrize("condition, before, value, outcome", [
    ("frightened", 0, 0, "is already not frightened"),
    ("frightened", 2, 2, "is already frightened 2"),
    ("frightened", 2, 4, 4),
    ("frightened", 2, 0, 0),
    ("off_guard", 0, 0, "is already not off-guard"),
    ("off_guard", 1, 1, "is already off-guard"),
    ("off_guard", 1, 4, "is already off-guard"),  # any value above 0 means on
    ("off_guard", 0, 3, 1),
    ("off_guard", 1, 0, 0),
])
def test_a_condition_set_by_hand_must_change_something(who, name, condition, before, value, outcome):
    d = turn_of("v")
    if condition == "frightened":
        d.state = dict(d.state, frightened=dict(d.state["frightened"], **{who: before}))
    else:
        d.state = dict(d.state, off_guard=[who] if before else [])
    command = pf2e.COMMANDS["SetCondition"](duelist=who, condition=condition, value=value)
    if isinstance(outcome, str):
        assert refusal(d, command) == (f"{name} {outcome}", "value")
    else:
        [e] = d.do(command)
        assert (e.duelist, e.condition, e.value, e.reason) == (who, condition, outcome, "")


def test_a_condition_for_someone_outside_the_duel_is_refused_at_the_duelist():
    command = pf2e.COMMANDS["SetCondition"](duelist="x", condition="frightened", value=1)
    assert refusal(turn_of("k"), command) == ("choose a duelist of this duel", "duelist")


@pytest.mark.parametrize("who", ["v", "k"])
def test_what_readying_a_reaction_refuses(who):
    from tracker.rules.pf2e.commands import ReadyReaction, WithdrawReaction
    names = {"v": "Valeros", "k": "Kyra"}
    d = turn_of(who)  # Valeros rolled Intimidation (Bullying Press), Kyra Perception (Sense Weakness)
    mine = {"v": "bullying_press", "k": "sense_weakness"}[who]
    assert refusal(d, WithdrawReaction(who)) == (f"{names[who]} has no reaction readied", None)
    reacted = dict(d.state, reacted={who: True})
    d.state, before = reacted, d.state
    assert refusal(d, ReadyReaction(who, mine)) == (f"{names[who]} has already used a reaction this round", "reaction")
    d.state = dict(before, hp=dict(before["hp"], **{who: 0}))  # knocked out on their own turn
    assert refusal(d, ReadyReaction(who, mine)) == (f"{names[who]} cannot react now", "reaction")
    d = turn_of(who)
    d.do(ReadyReaction(who, mine))
    label = {"bullying_press": "Bullying Press", "sense_weakness": "Sense Weakness"}[mine]
    assert refusal(d, ReadyReaction(who, mine)) == (f"{names[who]} has already readied {label}", "reaction")
    spells = spell_duel()
    assert refusal(spells, ReadyReaction("e", "bullying_press")) == \
        ("this is a spellcasting duel: no Strikes, so no reaction to ready before one", None)


# --- histories the fold refuses, the sheet's folded skills, the campaign settings ----------------

def test_the_fold_refuses_a_second_readied_reaction_and_a_roll_that_is_not_the_sealed_skill():
    from tracker.rules.base import ImpossibleHistory
    from tracker.rules.pf2e import events as ev
    from tracker.rules.pf2e.commands import ReadyReaction
    for who in ("v", "k"):
        d = turn_of(who)
        mine = {"v": "bullying_press", "k": "sense_weakness"}[who]
        d.do(ReadyReaction(who, mine))
        with pytest.raises(ImpossibleHistory, match=f"^{who} readied a second reaction$"):
            pf2e.evolve(d.state, ev.Pf2eReactionReadied(1, who, mine), 99)
    d = sealed()
    d.do(pf2e.COMMANDS["ChooseSkill"]("k", "deception"))
    with pytest.raises(ImpossibleHistory, match="^k rolled perception, not the skill chosen in secret$"):
        pf2e.evolve(d.state, ev.Pf2eInitiativeRolled(1, "k", "perception", 10, 8, 18), 99)
    with pytest.raises(ImpossibleHistory, match="^an initiative skill chosen in the middle of a round$"):
        pf2e.evolve(d.state, ev.Pf2eSkillChosen(2, "v", "deception"), 99)  # a round not yet begun
    d.do(pf2e.COMMANDS["ChooseSkill"]("v", "deception"), roll=[10, 10])
    with pytest.raises(ImpossibleHistory, match="^an initiative skill chosen in the middle of a round$"):
        pf2e.evolve(d.state, ev.Pf2eSkillChosen(1, "v", "deception"), 99)


def test_the_sheet_folds_away_exactly_the_untrained_skills():
    from tests.unit.test_pf2e_support import caster, sheet
    assert pf2e.folded_stats(sheet()) == ("arcana", "arcana_rank", "nature", "nature_rank", "occultism",
                                          "occultism_rank", "religion", "religion_rank")
    assert pf2e.folded_stats(caster()) == ("nature", "nature_rank", "religion", "religion_rank")


def test_the_campaign_settings_parse_the_rest_setting():
    seating = {"choices": "gm", "reveal": "auto", "dice_by": "server"}  # the seats' defaults
    assert pf2e.validate_campaign_settings({"rest_full_hp": "on"}) == {"rest_full_hp": True,
                                                                   "treat_wounds_ignore_hour": False, **seating}
    assert pf2e.validate_campaign_settings({}) == {"rest_full_hp": False, "treat_wounds_ignore_hour": False, **seating}


@pytest.mark.parametrize("who", ["v", "k"])
def test_changing_focus_costs_an_action_and_says_so(who):
    from tracker.rules.pf2e.commands import ChangeTraditionFocus
    d = spell_duel()
    names = {"v": "Ezren", "k": "Seoni"}
    caster = {"v": "e", "k": "s"}[who]
    if caster == "s":
        d.do(EndTurn())
    d.do(OtherAction(action="Stride", cost="3"))
    new = {"e": "occult", "s": "arcane"}[caster]
    assert refusal(d, ChangeTraditionFocus(duelist=caster, tradition=new)) == \
        (f"{names[who]} has no action left this turn: Change Tradition Focus costs 1", None)
