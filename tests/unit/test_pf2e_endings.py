"""How Pathfinder 2e duels end: first blood, knockout, a custom condition, yield, cheating, escalation;
and tag teams."""
from __future__ import annotations

import pytest

from tests.unit.test_pf2e_support import Duel, fighter
from tracker.rules import pf2e
from tracker.rules.base import Refused
from tracker.rules.pf2e.commands import (ConfirmVictory, DeclineVictory, EndTurn, EscalateToCombat, RollInitiative,
                                         Strike, Tag)
from tracker.rules.duel import Disqualify, Yield


def duel(kyra_hp: int | None = None, **setup) -> Duel:
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b", hp=kyra_hp)], kind="combat", **setup)
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "intimidation"), roll=[10])
    return d


def test_first_blood_is_proposed_and_the_judge_confirms_it():
    d = duel(victory="first_blood")
    events = d.do(Strike(), attack=[12], damage=[5])
    assert d.types(events) == ["Pf2eStrikeRolled", "Pf2eDamageDealt", "Pf2eVictoryProposed"]
    assert d.state["proposal"]["side"] == "a"
    assert d.refused(EndTurn()) == \
        "Valeros drew first blood from Kyra: the judge must first confirm or decline the victory"
    assert pf2e.actions(d.state) == ["ConfirmVictory", "DeclineVictory", "Yield", "Disqualify", "Abandon", "SetCondition"]
    assert "decline it first" in d.refused(ConfirmVictory(side="b"))
    events = d.do(ConfirmVictory())
    assert d.types(events) == ["DuelWon"]
    assert d.state["outcome"]["summary"] == "Valeros won by first blood (Valeros drew first blood from Kyra)"
    assert d.state["outcome"]["results"] == {"v": "win", "k": "loss"}
    assert (d.hp("k"), d.state["wounds"][0]["amount"]) == (31, 9)
    assert d.refused(EndTurn()).startswith("this duel is over: Valeros won by first blood")


def test_the_judge_may_decline_a_proposed_victory_and_the_duel_goes_on():
    d = duel(victory="first_blood")
    d.do(Strike(), attack=[12], damage=[1])
    d.do(DeclineVictory("a scratch through the sleeve"))
    assert d.state["proposal"] is None
    assert d.refused(DeclineVictory()) == "no victory is waiting for the judge"
    events = d.do(Strike(), attack=[18], damage=[2])  # 18 + 10 − 5 = 23
    assert (d.types(events)[-1], d.hp("k")) == ("Pf2eVictoryProposed", 29)


def test_knockout_at_0_hp():
    d = duel(kyra_hp=12, victory="knockout")
    d.do(Strike(), attack=[12], damage=[5])
    assert (d.hp("k"), d.state["proposal"]) == (3, None)
    assert d.refused(ConfirmVictory(side="a")) == "the victory condition is not met yet: no side is knocked out"
    events = d.do(Strike(), attack=[16], damage=[8])  # 21: 12 damage, 3 HP left to lose
    assert d.types(events)[-1] == "Pf2eVictoryProposed"
    assert (d.hp("k"), [w["amount"] for w in d.state["wounds"]]) == (0, [9, 3])
    d.do(ConfirmVictory(detail="Kyra falls unconscious"))
    assert d.state["outcome"]["ending"] == "knockout"
    assert d.state["outcome"]["detail"] == "Kyra falls unconscious"


def test_a_custom_victory_the_judge_confirms():
    d = duel(victory="custom", victory_text="disarm the opponent")
    assert "ConfirmVictory" in pf2e.actions(d.state)
    assert d.refused(ConfirmVictory()) == "name the side that met the victory condition"
    d.do(ConfirmVictory(side="a"))
    assert d.state["outcome"]["summary"] == \
        "Valeros won by custom (Magistrate Ilse confirmed: disarm the opponent)"


def test_a_custom_victory_needs_its_text():
    with pytest.raises(Refused) as refusal:
        Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], victory="custom")
    assert refusal.value.field == "victory_text"


def test_yield_then_fighting_on_escalates_to_combat():
    d = duel()
    assert d.refused(EscalateToCombat()) == "the duel has not ended: there is nothing to escalate yet"
    d.do(Yield(side="b", detail="Enough!"))
    assert (d.state["outcome"]["winner"], d.state["outcome"]["ending"]) == ("a", "yield")
    assert pf2e.actions(d.state) == ["EscalateToCombat"]
    events = d.do(EscalateToCombat(side="b", detail="Kyra stabbed at Valeros's back"))
    assert d.types(events) == ["Pf2eDuelEscalated"]
    assert d.state["escalated"]["side"] == "b"
    assert (pf2e.actions(d.state), pf2e.progress(d.state)) == ([], "Over, escalated to combat")
    assert d.refused(EscalateToCombat()) == "this duel has already escalated to normal combat"
    assert d.replays()


def test_a_cheat_caught_loses_and_incurs_the_agreed_penalty():
    d = duel(penalty="forfeits the family sword")
    events = d.do(Disqualify(side="a", reason="poisoned blade"))
    assert d.types(events) == ["DuelDisqualified", "Pf2ePenaltyImposed"]
    assert d.state["outcome"]["results"] == {"v": "loss", "k": "win"}
    assert d.state["penalty"]["text"] == "forfeits the family sword"
    assert d.state["history"][-1]["text"] == "The agreed penalty falls on Valeros: forfeits the family sword."


def test_a_tag_team_duel():
    d = Duel([fighter("v", "Valeros", "a"), fighter("m", "Merisiel", "a"),
              fighter("k", "Kyra", "b"), fighter("h", "Harsk", "b")], kind="combat", teams="tag",
             victory="knockout")
    assert d.state["active"] == {"a": "v", "b": "k"}
    assert d.refused(RollInitiative("m", "deception"), roll=[10]) == "Merisiel is not fighting this round"
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "intimidation"), roll=[10])
    assert d.refused(Strike(target="h"), attack=[10]) == "Harsk is tagged out"
    d.do(Strike(), attack=[12], damage=[5])
    assert d.hp("k") == 31
    assert "only on their own turn" in d.refused(Tag(side="b"))

    events = d.do(Tag(side="a"))
    assert d.types(events) == ["Pf2eTagged", "Pf2eTurnEnded"]
    assert (d.state["active"], d.state["turn"]) == ({"a": "m", "b": "k"}, "k")
    d.do(Strike(), attack=[15], damage=[3])  # at Merisiel, the only opponent on the floor
    assert (d.hp("m"), d.hp("v")) == (33, 40)
    d.do(EndTurn())
    assert d.refused(RollInitiative("v", "perception"), roll=[10]) == "Valeros is not fighting this round"
    events = d.do(RollInitiative("m", "deception"), roll=[10])
    assert d.types(events) == ["Pf2eInitiativeRolled"]
    d.do(RollInitiative("k", "perception"), roll=[10])
    assert d.state["order"] == ["k", "m"]
    assert d.replays()


def test_pairs_fighting_together_name_their_target():
    d = Duel([fighter("v", "Valeros", "a"), fighter("m", "Merisiel", "a"),
              fighter("k", "Kyra", "b"), fighter("h", "Harsk", "b", rank="villano")], kind="combat",
             teams="together", victory="knockout")
    for who, die in (("v", 15), ("m", 12), ("k", 10), ("h", 5)):
        d.do(RollInitiative(who, "intimidation"), roll=[die])
    assert d.state["order"] == ["v", "m", "k", "h"]
    assert d.refused(Strike(), attack=[10]) == "choose a target: there is more than one opponent"
    assert d.refused(Strike(target="m"), attack=[10]) == "Merisiel is on Valeros's own side"
    d.do(Strike(target="h"), attack=[12], damage=[5])
    assert (d.hp("h"), d.hp("k")) == (31, 40)


def test_a_declined_knockout_may_still_be_confirmed_while_the_side_stays_at_0_hp():
    """[assumed] (issue 28): after the judge declines a knockout nothing brings the side lower, so
    without this only a yield or an abandon ended the duel; a setting keeps the old way."""
    from tracker.rules.legal import GM

    d = duel(kyra_hp=5, victory="knockout")
    d.do(Strike(), attack=[16], damage=[8])
    assert d.hp("k") == 0 and d.state["proposal"]["ending"] == "knockout"
    d.do(DeclineVictory("she is still moving"))
    assert pf2e.actions(d.state)[0] == "ConfirmVictory"
    offered = next(a for a in pf2e.legal_actions(d.state, GM) if a["type"] == "ConfirmVictory")
    assert offered["fields"]["side"]["choices"] == ["a"]
    assert "decline it first" in d.refused(ConfirmVictory(side="b"))
    d.do(ConfirmVictory(detail="she stays down"))
    assert (d.state["outcome"]["winner"], d.state["outcome"]["ending"]) == ("a", "knockout")
    assert any("[assumed] A knockout the judge declined may still be confirmed" in str(note)
               for note in pf2e.assumptions(d.state))

    fight_on = duel(kyra_hp=5, victory="knockout", declined_knockout="fight_on")
    fight_on.do(Strike(), attack=[16], damage=[8])
    fight_on.do(DeclineVictory())
    assert "ConfirmVictory" not in pf2e.actions(fight_on.state)
    assert fight_on.refused(ConfirmVictory(side="a")) == \
        "the victory condition is not met yet: no side is knocked out"
    assert any("only a yield, a disqualification or abandoning" in str(note)
               for note in pf2e.assumptions(fight_on.state))
