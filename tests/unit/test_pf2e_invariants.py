"""PF2e invariants on broken states, each named exactly; the history facts and the GM's secrets."""
from __future__ import annotations

import pytest

from tracker.rules import pf2e
from tracker.rules.contract import Fact
from tracker.rules.pf2e.commands import BreakTie, CastSpell, EndTurn, RollInitiative, Strike
from tracker.rules.pf2e.invariants import ENDINGS, invariants

from tests.unit.test_pf2e_edges import spell_duel, two_fighters
from tests.unit.test_pf2e_support import Duel, fighter


def wounded():
    """Valeros hit Kyra for 5; a wound on another track and one on Valeros's PM do not count as HP."""
    d = two_fighters(victory="knockout")
    d.do(Strike(damage=5), attack=[15])
    return d


def broken(d, **changes):
    return invariants(dict(d.state, **changes))


def test_a_played_duel_breaks_no_invariant_and_other_tracks_do_not_count_as_hp():
    d = wounded()
    assert d.hp("k") == 35 and invariants(d.state) == []
    extra = d.state["wounds"] + [{"character": "v", "track": "PM", "amount": 7, "at": 9, "note": ""}]
    assert broken(d, wounds=extra) == []


@pytest.mark.parametrize("hp, problems", [
    ({"v": 40, "k": 35}, []),
    ({"v": 39, "k": 35}, ["Valeros has 39 HP, not what the damage left"]),
    ({"v": 40, "k": 36}, ["Kyra has 36 HP, not what the damage left"]),
    ({"v": 41, "k": 35}, ["Valeros has 41 HP, not what the damage left"]),
    ({"v": 40, "k": -1}, ["Kyra has -1 HP, not what the damage left"]),
])
def test_hp_must_be_what_the_damage_left(hp, problems):
    assert broken(wounded(), hp=hp) == problems


def test_a_duelist_at_exactly_0_hp_with_the_damage_to_show_for_it_is_fine():
    d = wounded()
    wounds = d.state["wounds"] + [{"character": "k", "track": "HP", "amount": 35, "at": 9, "note": ""}]
    assert broken(d, wounds=wounds, hp={"v": 40, "k": 0}) == []


def test_hp_above_the_sheet_maximum_when_the_duel_started_lower():
    d = Duel([fighter("v", "Valeros", "a", hp=30), fighter("k", "Kyra", "b")])
    assert invariants(d.state) == []
    assert broken(d, hp={"v": 40, "k": 40}) == ["Valeros has 40 HP, not what the damage left"]


@pytest.mark.parametrize("frightened, problems", [
    ({"v": 0, "k": 3}, []), ({"v": -1, "k": 0}, ["Valeros is frightened -1"]), ({"v": 0, "k": -2}, ["Kyra is frightened -2"]),
])
def test_frightened_is_never_below_0(frightened, problems):
    assert broken(wounded(), frightened=frightened) == problems


@pytest.mark.parametrize("slots, expended, problems", [
    ({"e": {"1": 3, "2": 1}, "s": {"1": 2, "2": 2, "3": 1}}, {"e": {"2": 1}, "s": {}}, []),
    ({"e": {"1": 3, "2": 2}, "s": {"1": 2, "2": 2, "3": 1}}, {"e": {"2": 1}, "s": {}},
     ["Ezren's rank 2 slots: 2 left, 1 spent of 2"]),
    ({"e": {"1": 3, "2": 1}, "s": {"1": 2, "2": 2, "3": 1}}, {"e": {}, "s": {}},
     ["Ezren's rank 2 slots: 1 left, 0 spent of 2"]),
    ({"e": {"1": 3, "2": 1}, "s": {"1": 2, "2": 2}}, {"e": {"2": 1}, "s": {}},
     ["Seoni's rank 3 slots: 0 left, 0 spent of 1"]),
    ({"e": {"1": 3, "2": 1}, "s": {"1": 2, "2": 2, "3": 1}}, {"e": {"2": 1}, "s": {"4": 1}},
     ["Seoni's rank 4 slots: 0 left, 1 spent of 0"]),
    ({"e": {"1": 3, "2": 1, "5": 0}, "s": {"1": 2, "2": 2, "3": 1}}, {"e": {"2": 1}, "s": {}}, []),
    ({"e": {"1": 4, "2": -1}, "s": {"1": 2, "2": 2, "3": 1}}, {"e": {"2": 3, "1": -1}, "s": {}},
     ["Ezren's rank 2 slots: -1 left, 3 spent of 2"]),  # each rank adds up; a count below 0 still fails
])
def test_slots_left_and_spent_add_up_to_the_sheet(slots, expended, problems):
    d = spell_duel()
    d.do(CastSpell("Force Barrage", 2, "arcane", damage=1))
    assert sorted(broken(d, slots=slots, expended=expended)) == sorted(problems)


def test_a_reaction_used_needs_a_reaction_granted():
    d = two_fighters()
    assert broken(d, reacted={"v": True, "k": False}) == []
    assert broken(d, reacted={"v": True}, reaction={"v": None, "k": "sense_weakness"}) == \
        ["Valeros reacted without a reaction this round"]


def test_the_table_of_other_broken_states():
    d = wounded()
    assert broken(d, off_guard=["k"]) == []
    assert broken(d, off_guard=["k", "z"]) == ["someone off-guard is not in the duel"]
    pending = {"kind": "strike"}
    assert broken(d, pending=pending, phase="turns") == []
    assert broken(d, pending=pending, phase="initiative") == ["a strike or spell waits outside anyone's turn"]
    assert broken(d, turn=None) == [] and broken(d, turn="k") == []
    assert broken(d, turn="z") == ["the turn belongs to nobody in the duel"]


@pytest.mark.parametrize("winner", ["a", "b"])
def test_each_ending_checked_for_either_winner(winner):
    d = two_fighters(victory="knockout")
    loser_id, winner_id = ("k", "v") if winner == "a" else ("v", "k")
    loser = "Kyra" if winner == "a" else "Valeros"
    hp = {winner_id: 40, loser_id: 1}
    assert ENDINGS["knockout"](dict(d.state, hp=hp), winner) == f"{loser} still stand"
    assert ENDINGS["knockout"](dict(d.state, hp=dict(hp, **{loser_id: 0})), winner) == ""
    assert ENDINGS["first_blood"](d.state, winner) == "no blood was drawn"
    own = [{"character": winner_id, "track": "HP", "amount": 3, "at": 5, "note": ""}]
    assert ENDINGS["first_blood"](dict(d.state, wounds=own), winner) == "no blood was drawn"
    theirs = [{"character": loser_id, "track": "HP", "amount": 3, "at": 5, "note": ""}]
    assert ENDINGS["first_blood"](dict(d.state, wounds=theirs), winner) == ""
    assert ENDINGS["custom"](d.state, winner) == "the agreed victory is not a custom one"
    assert ENDINGS["custom"](dict(d.state, settings=dict(d.state["settings"], victory="custom")), winner) == ""


def test_a_knockout_names_everyone_still_standing_on_the_losing_side():
    d = Duel([fighter("v", "Valeros", "a"), fighter("m", "Merisiel", "a"),
              fighter("k", "Kyra", "b"), fighter("h", "Harsk", "b")], teams="together", victory="knockout")
    assert ENDINGS["knockout"](d.state, "a") == "Kyra, Harsk still stand"
    assert ENDINGS["knockout"](dict(d.state, hp=dict(d.state["hp"], k=0)), "a") == "Harsk still stand"


def test_an_ending_the_state_does_not_support_is_named():
    d = two_fighters(victory="knockout")
    outcome = {"winner": "a", "ending": "knockout", "detail": "", "results": {"v": "win", "k": "loss"}, "summary": ""}
    assert broken(d, outcome=outcome) == ["the duel ended by knockout but Kyra still stand"]


# --- the history facts and the GM's secrets ------------------------------------------------------

def initiative_facts(d):
    return pf2e.history_facts(d.state, d.events)


def test_history_counts_rounds_begun_and_who_won_each_initiative():
    d = two_fighters(victory="knockout")
    facts = initiative_facts(d)
    assert facts.turns == 1
    assert facts.facts == (Fact("skills", "k", "perception", round=1, won=False),
                           Fact("skills", "v", "perception", round=1, won=True))
    d.do(EndTurn())
    d.do(EndTurn())
    assert (d.state["round"], d.state["phase"]) == (2, "initiative")
    assert initiative_facts(d).turns == 1  # round 2 has not begun while it waits on initiative
    d.do(RollInitiative("v", "intimidation"), roll=[1])
    d.do(RollInitiative("k", "deception"), roll=[20])
    facts = initiative_facts(d)
    assert facts.turns == 2
    assert facts.facts[2:] == (Fact("skills", "k", "deception", round=2, won=True),
                               Fact("skills", "v", "intimidation", round=2, won=False))


def test_history_takes_a_broken_tie_s_first_and_no_winner_while_tied():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")])
    d.do(RollInitiative("v", "perception"), roll=[10])
    d.do(RollInitiative("k", "deception"), roll=[11])
    assert [f.won for f in initiative_facts(d).facts] == [False, False]
    d.do(BreakTie("k"))
    assert [(f.character, f.won) for f in initiative_facts(d).facts] == [("k", True), ("v", False)]


def test_history_starts_at_round_1_before_anyone_rolls():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")])
    assert initiative_facts(d).turns == 1 and initiative_facts(d).facts == ()


def test_the_gm_s_secrets_name_initiative_skills_and_focus():
    d = spell_duel()
    assert pf2e.secrets(d.state) == ["Ezren rolled arcana for initiative in the last round",
                                     "Seoni rolled occultism for initiative in the last round",
                                     "Ezren's tradition focus: arcane", "Seoni's tradition focus: occult"]
    d.state = dict(d.state, rolls={"e": {"total": 3}, "z": {"skill": "nature"}}, focus={"e": None, "z": "primal"})
    assert pf2e.secrets(d.state) == ["z rolled nature for initiative in the last round", "z's tradition focus: primal"]
    assert pf2e.secrets(dict(d.state, rolls=None, focus=None)) == []


def test_the_gm_narrative_adds_the_secret_skill():
    from tracker.rules.pf2e.secrecy import GM_DETAILS, HIDDEN_FROM_PLAYERS
    assert GM_DETAILS["Pf2eInitiativeRolled"]({"skill": "deception"}) == "rolled Deception"
    assert GM_DETAILS["Pf2eInitiativeRolled"]({}) == "rolled ?"
    assert HIDDEN_FROM_PLAYERS == ("Pf2eSidestepDeclined", "Pf2eCounterDeclined", "Pf2eReactionReadied",
                                   "Pf2eReactionWithdrawn")
