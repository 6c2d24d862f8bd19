"""Pathfinder 2e with sealed initiative skills: each duelist chooses in secret, everyone rolls at once,
and the reaction prompt goes to the defender's seat."""
from __future__ import annotations

from tests import plain_json as json

from tests.unit.test_pf2e_support import Duel, fighter, play
from tracker import rules
from tracker.rules import pf2e
from tracker.rules.pf2e.commands import ChooseSkill, DeceptiveSidestep, RevealSkills, RollInitiative, Strike
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
    assert pf2e.actions(d.state)[:2] == ["ChooseSkill", "RevealSkills"]
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
