"""Pathfinder 2e with sealed initiative skills: each duelist chooses in secret, everyone rolls at once,
and the reaction prompt goes to the defender's seat."""
from __future__ import annotations

from tests import plain_json as json

import pytest

from tests.unit.test_pf2e_refusals import four
from tests.unit.test_pf2e_spells import ezren, seoni
from tests.unit.test_pf2e_support import Duel, fighter, play
from tracker import rules
from tracker.rules import pf2e
from tracker.rules.pf2e.commands import (CastSpell, ChooseSkill, DeceptiveSidestep, EndTurn, ReadyReaction,
                                         RevealSkills, RollInitiative, Strike)
from tracker.rules.base import Refused
from tracker.rules.dice import fixed_dice
from tracker.rules.pf2e.events import Pf2eSkillChosen

READERS = ("gm", "api", "display", "recap", "seat:b")


def sealed(**setup) -> Duel:
    setup.setdefault("victory", "knockout")
    return Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b", rank="villano")], kind="combat",
                choices="sealed", **setup)


def test_a_sealed_skill_is_one_event_nobody_else_sees():
    d = sealed()
    assert d.do(ChooseSkill("v", "intimidation", round=1)) == [Pf2eSkillChosen(1, "v", "intimidation")]
    assert d.state["history"][-1]["text"] == "Round 1: Valeros has chosen a skill for initiative."
    for reader in READERS:
        view = pf2e.seen_by(d.state, reader)
        assert view["chosen"] == ["v"] and view["sealed"] == {"v": {}}, reader
        assert "intimidation" not in json.dumps({k: v for k, v in view.items() if k != "duelists"}), reader
    assert pf2e.seen_by(d.state, "seat:a")["sealed"] == {"v": {"skill": "intimidation", "die": 0}}
    assert rules.sealed_view("Pf2eSkillChosen", {"round": 1, "duelist": "v", "skill": "deception"})["skill"] == "sealed"


def test_the_last_choice_rolls_everyone_with_the_skills_kept():
    d = sealed()
    d.do(ChooseSkill("v", "deception"))
    d.do(ChooseSkill("v", "intimidation"))  # changed their mind
    assert d.state["history"][-1]["text"] == "Round 1: Valeros has changed their skill for initiative."
    events = d.do(ChooseSkill("k", "perception"), roll=[15, 9])
    assert d.types(events) == ["Pf2eSkillChosen", "Pf2eInitiativeRolled", "Pf2eInitiativeRolled", "Pf2eRoundOrdered"]
    assert [(e.duelist, e.skill, e.total) for e in events[1:3]] == [("v", "intimidation", 24), ("k", "perception", 17)]
    assert d.state["sealed"] == {} and d.state["turn"] == "v" and d.replays()
    # The opponent's seat never learns the skill, even after the roll; its own seat does.
    rival = pf2e.seen_by(d.state, "seat:b")
    assert rival["rolls"]["v"] == {"total": 24} and "v" not in rival["reaction"]
    assert pf2e.seen_by(d.state, "seat:a")["rolls"]["v"]["skill"] == "intimidation"


def test_the_gm_rolls_on_their_press_with_the_tables_d20s():
    d = sealed(reveal="gm")
    assert d.refused(RevealSkills()) == "waiting for Valeros and Kyra to choose"
    d.do(ChooseSkill("v", "intimidation"))
    assert len(d.do(ChooseSkill("k", "deception"))) == 1
    assert pf2e.actions(d.state)[:2] == ["RevealSkills", "ChooseSkill"]  # all chosen: the reveal first
    events = d.do(RevealSkills(dice_roll=(15, 10)), roll=[15, 10])
    assert [e.total for e in events if type(e).__name__ == "Pf2eInitiativeRolled"] == [24, 17]


def test_each_seat_types_its_own_d20_sealed_with_its_skill():
    d = sealed(dice_by="seats")
    assert "type the d20 you rolled" in d.refused(ChooseSkill("v", "intimidation"))
    d.do(ChooseSkill("v", "intimidation", dice_roll=(15,)))
    for reader in READERS:
        assert "sealed_dice" not in pf2e.seen_by(d.state, reader) and pf2e.seen_by(d.state, reader)["sealed"] == {"v": {}}
    assert pf2e.seen_by(d.state, "seat:a")["sealed"]["v"]["die"] == 15
    events = d.do(ChooseSkill("k", "perception", dice_roll=(9,)))  # no server die: both typed on the seats
    assert [(e.duelist, e.die, e.total) for e in events[1:3]] == [("v", 15, 24), ("k", 9, 17)]


def test_the_tables_d20s_wait_for_the_gms_press():
    d = sealed(dice_by="table")
    d.do(ChooseSkill("v", "intimidation"))
    assert len(d.do(ChooseSkill("k", "perception"))) == 1
    assert "type another d20" in d.refused(RevealSkills())
    assert len(d.do(RevealSkills(dice_roll=(15, 9)), roll=[15, 9])) == 3


def test_what_a_sealed_duel_refuses():
    d = sealed()
    assert "chooses their skill in secret" in d.refused(RollInitiative("v", "deception"), roll=[10])
    assert "for round 2" in d.refused(ChooseSkill("v", "deception", round=2))
    assert "uses Deception, Intimidation, Perception" in d.refused(ChooseSkill("v", "arcana"))
    plain = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], kind="combat", victory="knockout")
    assert "the GM records each initiative roll" in plain.refused(ChooseSkill("v", "deception"))


def test_retracting_a_sealed_skill_folds_the_duel_as_if_it_was_never_chosen():
    d = sealed()
    d.do(ChooseSkill("v", "deception"))
    d.do(ChooseSkill("v", "perception"))
    assert play(d.events[:-1])["sealed"] == {"v": "deception"}
    assert play(d.events[:-2])["sealed"] == {}


def test_the_sidestep_prompt_goes_to_the_defenders_seat_only():
    d = sealed()
    d.do(ChooseSkill("v", "intimidation"))
    d.do(ChooseSkill("k", "deception"), roll=[15, 10])
    assert pf2e.seat_actions(pf2e.seen_by(d.state, "seat:a"), "a") == ["ReadyReaction"]  # Bullying Press
    assert pf2e.seat_actions(pf2e.seen_by(d.state, "seat:b"), "b") == []
    d.do(Strike(), attack=[12])  # a hit, held for Kyra's Deceptive Sidestep
    assert pf2e.seat_actions(pf2e.seen_by(d.state, "seat:b"), "b") == ["DeceptiveSidestep", "DeclineSidestep"]
    assert pf2e.seat_actions(pf2e.seen_by(d.state, "seat:a"), "a") == []
    assert pf2e.seen_by(d.state, "seat:a")["pending"] is None  # the attacker's seat learns nothing
    assert pf2e.SEAT_COMMANDS["DeceptiveSidestep"](d.state, {}) == "b"
    d.do(DeceptiveSidestep(), attack=[11])
    assert d.state["pending"] is None


SEATED = {"duelists": [{"id": "v", "side": "a"}, {"id": "k", "side": "b"}]}


@pytest.mark.parametrize("pending, sidestep, counter", [
    ({"kind": "strike", "target": "v"}, "a", None),  # the Strike's target may sidestep it
    ({"kind": "strike", "target": "k"}, "b", None),
    ({"kind": "spell", "caster": "v", "target": "k"}, None, "b"),  # the caster's opponent may decline to counter
    ({"kind": "spell", "caster": "k", "target": "v"}, None, "a"),
    ({"kind": "spell", "caster": "x"}, None, None),  # nobody's seat speaks for a stranger
    ({}, None, None), (None, None, None),
])
def test_the_seat_that_answers_a_pending_strike_or_spell(pending, sidestep, counter):
    state = dict(SEATED, pending=pending)
    for command in ("DeceptiveSidestep", "DeclineSidestep"):
        assert pf2e.SEAT_COMMANDS[command](state, {}) == sidestep
    assert pf2e.SEAT_COMMANDS["DeclineCounter"](state, {}) == counter


@pytest.mark.parametrize("command", ["ChooseSkill", "DuelingCounter", "ReadyReaction", "WithdrawReaction"])
def test_a_seat_speaks_for_the_duelist_it_names(command):
    seat = pf2e.SEAT_COMMANDS[command]
    assert [seat(SEATED, {"duelist": who}) for who in ("v", "k", "x")] == ["a", "b", None]
    assert seat(SEATED, {}) is None


def sealed_turn(first: str, skill: str = "intimidation") -> Duel:
    """A sealed combat duel after initiative: ``first`` won it with ``skill``, the other with Deception."""
    d = sealed()
    other = {"v": "k", "k": "v"}[first]
    d.do(ChooseSkill(first, skill))
    d.do(ChooseSkill(other, "deception"), roll=[15, 5] if first == "v" else [5, 15])
    assert d.state["turn"] == first
    return d


def seat_actions(d: Duel) -> dict:
    """What each seat may do, read from its own view (and the same from the whole state)."""
    found = {side: pf2e.seat_actions(pf2e.seen_by(d.state, f"seat:{side}"), side) for side in "ab"}
    assert found == {side: pf2e.seat_actions(d.state, side) for side in "ab"}
    return found


def test_every_seat_chooses_its_skill_until_all_have_and_a_seat_for_nobody_chooses_nothing():
    d = sealed()
    assert seat_actions(d) == {"a": ["ChooseSkill"], "b": ["ChooseSkill"]}
    d.do(ChooseSkill("v", "intimidation"))
    assert seat_actions(d) == {"a": ["ChooseSkill"], "b": ["ChooseSkill"]}  # Valeros may still change his mind
    assert pf2e.seat_actions(d.state, "c") == []
    assert pf2e.seat_actions(dict(d.state, outcome={"winner": "a"}), "a") == []


@pytest.mark.parametrize("first, side", [("v", "a"), ("k", "b")])
def test_the_turn_holder_s_seat_readies_its_attacking_reaction_then_may_withdraw_it(first, side):
    d = sealed_turn(first)
    other = {"a": "b", "b": "a"}[side]
    assert seat_actions(d) == {side: ["ReadyReaction"], other: []}
    d.do(ReadyReaction(first, "bullying_press"))
    assert seat_actions(d) == {side: ["WithdrawReaction"], other: []}
    d.do(Strike(), attack=[12])  # a hit, held for the target's Deceptive Sidestep
    assert seat_actions(d) == {side: [], other: ["DeceptiveSidestep", "DeclineSidestep"]}


@pytest.mark.parametrize("first", ["v", "k"])
def test_a_defensive_reaction_is_never_readied_on_one_s_own_turn(first):
    assert seat_actions(sealed_turn(first, "deception")) == {"a": [], "b": []}


@pytest.mark.parametrize("caster, side", [("e", "a"), ("s", "b")])
def test_a_pending_spell_asks_the_other_seat_to_counter_or_let_it_be(caster, side):
    d = Duel([ezren(), seoni()], kind="spellcasting", victory="knockout", choices="sealed")
    d.do(ChooseSkill("e", "arcana"))
    d.do(ChooseSkill("s", "occultism"), roll=[12, 11])
    if caster == "s":
        d.do(EndTurn())
    assert seat_actions(d) == {"a": [], "b": []}
    d.do(CastSpell("Force Barrage", 1, {"e": "occult", "s": "arcane"}[caster], damage=1))
    other = {"a": "b", "b": "a"}[side]
    assert seat_actions(d) == {side: [], other: ["DuelingCounter", "DeclineCounter"]}


def refusal(d: Duel, command, **typed) -> tuple[str, str | None]:
    with pytest.raises(Refused) as refused:
        pf2e.decide(d.state, command, fixed_dice(**typed))
    return refused.value.reason, refused.value.field


def test_each_sealed_choice_refusal_says_why_at_its_field():
    plain = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], kind="combat", victory="knockout")
    assert refusal(plain, ChooseSkill("v", "deception")) == \
        ("in this duel the GM records each initiative roll and its skill", "skill")
    assert refusal(plain, RevealSkills()) == ("in this duel the GM records each initiative roll and its skill", None)
    d = sealed()
    assert refusal(d, ChooseSkill("v", "deception", round=2)) == \
        ("that choice was for round 2, and the duel is now at round 1: choose again", "skill")
    assert refusal(d, ChooseSkill("v", "arcana")) == \
        ("a combat duel's initiative uses Deception, Intimidation, Perception", "skill")
    tag = four("tag", choices="sealed")  # Merisiel and Harsk wait off the floor
    for benched, name in (("m", "Merisiel"), ("h", "Harsk")):
        assert refusal(tag, ChooseSkill(benched, "deception")) == (f"{name} is not fighting this round", "duelist")
    d.do(ChooseSkill("v", "intimidation", round=1))
    d.do(ChooseSkill("k", "deception"), roll=[15, 9])
    assert refusal(d, ChooseSkill("k", "deception")) == ("initiative for round 1 is already rolled", "skill")
    assert refusal(d, RevealSkills()) == ("initiative for round 1 is already rolled", None)


@pytest.mark.parametrize("die, refused", [(None, True), (0, True), (1, False), (20, False), (21, True)])
def test_a_seat_types_one_d20_from_1_to_20(die, refused):
    d = sealed(dice_by="seats")
    command = ChooseSkill("k", "perception", dice_roll=None if die is None else (die,))
    if refused:
        assert refusal(d, command) == ("type the d20 you rolled, e.g. 14", "dice_roll")
    else:
        assert d.do(command)[0].die == die
    assert refusal(d, ChooseSkill("k", "perception", dice_roll=(5, 6))) == ("type the d20 you rolled, e.g. 14", "dice_roll")
