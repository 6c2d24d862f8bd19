"""Pathfinder 2e: the attacker's player readies Bullying Press or Sense Weakness on their seat, on
their own turn; their next melee Strike declares it, the player may withdraw it before, and the GM's
log alone tells it."""
from __future__ import annotations

from tests.unit.test_pf2e_support import Duel, fighter
from tracker.rules import pf2e
from tracker.rules.pf2e.board import choices
from tracker.rules.pf2e.commands import EndTurn, ReadyReaction, RollInitiative, Strike, WithdrawReaction
from tracker.rules.pf2e.events import Pf2eReactionReadied, Pf2eReactionWithdrawn


def duel(v_skill: str, k_skill: str = "intimidation", **setup) -> Duel:
    """Valeros (side a) rolls 15 + his skill, Kyra (side b) 10 + hers: Valeros acts first."""
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], kind="combat", victory="knockout",
             **setup)
    d.do(RollInitiative("v", v_skill), roll=[15])
    d.do(RollInitiative("k", k_skill), roll=[10])
    assert d.state["turn"] == "v"
    return d


def test_a_readied_bullying_press_is_declared_by_the_next_strike_without_the_gm_choosing_it():
    d = duel("intimidation")
    assert d.do(ReadyReaction("v", "bullying_press")) == [Pf2eReactionReadied(1, "v", "bullying_press")]
    assert d.state["readied"] == {"v": "bullying_press"}
    assert d.state["history"][-1]["text"] == "Valeros readies Bullying Press for their next melee Strike."
    assert choices(d.state)["readied"] == "Bullying Press"  # the GM's Strike form shows it, asks nothing
    events = d.do(Strike(), attack=[12], damage=[5])  # 12 + 10 = 22 vs AC 20: a hit, frightened 1
    assert events[0].reaction == "bullying_press"
    assert d.types(events) == ["Pf2eStrikeRolled", "Pf2eDamageDealt", "Pf2eFrightened"]
    assert (d.hp("k"), d.frightened("k"), d.state["reacted"], d.state["readied"]) == (31, 1, {"v": True}, {})
    events = d.do(Strike(), attack=[3])  # the next Strike declares nothing: it is spent (a miss)
    assert events[0].reaction == "" and d.frightened("k") == 1
    assert d.replays()


def test_a_readied_sense_weakness_lowers_the_ac_of_the_next_strike_by_2():
    d = duel("perception", "deception")
    d.do(ReadyReaction("v", "sense_weakness"))
    events = d.do(Strike(), attack=[9])  # 19 vs AC 20 − 2: a hit (held for her Sidestep), a deceiver off-guard
    assert (events[0].reaction, events[0].ac, events[0].degree) == ("sense_weakness", 18, "success")
    assert d.types(events) == ["Pf2eStrikeRolled", "Pf2eOffGuard"] and d.state["off_guard"] == ["k"]
    assert d.replays()


def test_the_player_withdraws_it_before_the_strike_and_may_ready_it_again():
    d = duel("intimidation")
    d.do(ReadyReaction("v", "bullying_press"))
    assert d.do(WithdrawReaction("v")) == [Pf2eReactionWithdrawn(1, "v", "bullying_press")]
    assert d.state["readied"] == {} and choices(d.state)["readied"] == ""
    assert d.state["history"][-1]["text"] == "Valeros no longer readies Bullying Press."
    events = d.do(Strike(), attack=[12], damage=[5])
    assert events[0].reaction == "" and d.frightened("k") == 0 and not d.state["reacted"].get("v")
    d.do(ReadyReaction("v", "bullying_press"))  # still unused: it can be readied again this turn
    assert d.refused(WithdrawReaction("k")).startswith("Kyra cannot withdraw a reaction out of turn")
    assert d.replays()


def test_a_ranged_strike_leaves_it_readied_and_the_end_of_the_turn_drops_it():
    d = duel("intimidation", melee_only=False)
    d.do(ReadyReaction("v", "bullying_press"))
    events = d.do(Strike(melee=False), attack=[12], damage=[5])
    assert events[0].reaction == "" and d.state["readied"] == {"v": "bullying_press"}
    d.do(EndTurn())
    assert d.state["readied"] == {}


def test_refused_out_of_turn_for_the_other_duelist_or_when_not_available():
    d = duel("intimidation", "intimidation")
    assert d.refused(ReadyReaction("k", "bullying_press")) == \
        "Kyra cannot ready a reaction out of turn: it is Valeros's turn"
    assert d.refused(ReadyReaction("v", "sense_weakness")) == "Valeros did not gain Sense Weakness this round"
    assert d.refused(WithdrawReaction("v")) == "Valeros has no reaction readied"
    d.do(ReadyReaction("v", "bullying_press"))
    assert d.refused(ReadyReaction("v", "bullying_press")) == "Valeros has already readied Bullying Press"
    d.do(Strike(), attack=[12], damage=[5])  # used
    assert d.refused(ReadyReaction("v", "bullying_press")) == "Valeros has already used a reaction this round"
    d2 = duel("deception", "perception")  # Deceptive Sidestep is the defender's: nothing to ready before a Strike
    assert d2.refused(ReadyReaction("v", "bullying_press")) == "Valeros did not gain Bullying Press this round"


def test_only_the_gm_and_the_attackers_own_seat_see_it_readied():
    d = duel("intimidation")
    d.do(ReadyReaction("v", "bullying_press"))
    assert pf2e.seen_by(d.state, "seat:a")["readied"] == {"v": "bullying_press"}
    assert pf2e.seat_actions(pf2e.seen_by(d.state, "seat:a"), "a") == []  # not sealed: the GM's table
    for reader in ("seat:b", "display", "recap"):
        view = pf2e.seen_by(d.state, reader)
        assert not view.get("readied"), reader
        assert all("Bullying Press" not in line["text"] for line in view["history"]), reader
    assert "Pf2eReactionReadied" in pf2e.HIDDEN_FROM_PLAYERS
