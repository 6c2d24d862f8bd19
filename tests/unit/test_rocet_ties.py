"""A Rocèt tie sent alone: the turn is recorded as tied and the reroll is the next legal step."""
from __future__ import annotations

import pytest

from tracker.domain import events as registry
from tracker.rules import rocet
from tracker.rules.base import ImpossibleHistory
from tracker.rules.duel import DuelYielded, Yield
from tracker.rules.rocet.commands import DealDamage, Discard, PlayTurn, RerollTie
from tracker.rules.rocet.events import RocetTurnResolved, RocetTurnTied

from tests.unit.test_rocet_duels import EA, EP, FINTA, Table, play


def physical():
    return Table({"cards": "physical"})


def tied(t: Table) -> list:
    """Turn 1, Estocada Alta on both sides, each typed 3+3: a tie with nothing left to reroll it."""
    return t.turn(EA, EA, a=[3, 3], b=[3, 3])


def test_the_tied_pair_alone_records_the_tie_and_asks_for_the_reroll():
    t = physical()
    new = tied(t)
    assert [type(e).__name__ for e in new][-1] == "RocetTurnTied"
    assert new[-1] == RocetTurnTied(turn=1, rolls=((3, 3, 3, 3),))
    assert t.state["tie"] == {"turn": 1, "rolls": [[3, 3, 3, 3]]}
    assert t.state["table"] == {"a": EA, "b": EA}  # the cards stay on the table until the reroll
    assert rocet.actions(t.state)[0] == "RerollTie"
    assert "PlayTurn" not in rocet.actions(t.state)
    assert rocet.describe(play(t.events[:-1]), new[-1]) == (
        "Turn 1: the opposed roll ties (6 (3+3) against 6 (3+3)): reroll it.")


def test_the_reroll_resolves_the_turn_with_every_roll_kept():
    t = physical()
    tied(t)
    new = t.do(RerollTie(), a=[5, 4], b=[2, 3])
    resolved = new[0]
    assert isinstance(resolved, RocetTurnResolved)
    assert resolved.rolls == ((3, 3, 3, 3), (5, 4, 2, 3))
    assert (resolved.turn, resolved.winner, resolved.ta) == (1, "a", 5)
    assert t.state["tie"] is None and t.state["table"] is None
    assert t.state["sides"]["a"]["clock"] == 2  # Estocada Alta is an attack: clock +2
    assert t.state["last_turn"]["rolls"] == [[3, 3, 3, 3], [5, 4, 2, 3]]
    assert "DealDamage" in rocet.actions(t.state) and "PlayTurn" in rocet.actions(t.state)


def test_a_reroll_that_ties_again_waits_again():
    t = physical()
    tied(t)
    again = t.do(RerollTie(), a=[6, 6], b=[8, 8])  # two criticals tie
    assert again == [RocetTurnTied(turn=1, rolls=((6, 6, 8, 8),))]
    assert t.state["tie"]["rolls"] == [[3, 3, 3, 3], [6, 6, 8, 8]]
    resolved = t.do(RerollTie(), a=[1, 1], b=[2, 1])[0]  # a fumble loses
    assert resolved.rolls == ((3, 3, 3, 3), (6, 6, 8, 8), (1, 1, 2, 1)) and resolved.winner == "b"


def test_the_old_flat_list_of_rerolls_still_resolves_in_one_command():
    t = physical()
    new = t.turn(EA, EA, a=[3, 3, 5, 4], b=[3, 3, 2, 3])
    assert new[-1].rolls == ((3, 3, 3, 3), (5, 4, 2, 3)) and t.state["tie"] is None


def test_a_server_roll_never_leaves_a_tie_waiting():
    t = physical()
    dice = rocet_dice(source=iter([3, 3, 3, 3, 5, 4, 2, 3]))
    new = rocet.decide(t.state, PlayTurn(card_a=EA, card_b=EA, server_roll=True), dice)
    assert new[-1].rolls == ((3, 3, 3, 3), (5, 4, 2, 3))


def rocet_dice(source):
    from tracker.rules.dice import Dice

    return Dice(source=lambda sides: next(source))


def test_while_a_tie_waits_nothing_else_is_played_but_an_ending():
    t = physical()
    tied(t)
    assert "reroll it first" in t.refused(PlayTurn(card_a=EP, card_b=FINTA), a=[2, 3], b=[4, 4])
    assert "no discard is owed" in t.refused(Discard(side="a", card=EA))
    assert "no damage to deal" in t.refused(DealDamage())
    assert isinstance(t.do(Yield(side="b"))[0], DuelYielded)


def test_a_reroll_needs_a_tie_and_its_dice():
    t = physical()
    assert "no tie to reroll" in t.refused(RerollTie(), a=[1, 2], b=[3, 4])
    tied(t)
    assert "type another d8" in t.refused(RerollTie())


def test_the_fold_refuses_a_tie_that_is_not_one():
    t = physical()
    tied(t)
    history = t.events[:-1]
    with pytest.raises(ImpossibleHistory):
        play(history + [RocetTurnTied(turn=1, rolls=((3, 3, 2, 2),))])
    resolved = t.do(RerollTie(), a=[5, 4], b=[2, 3])[0]
    skipped = type(resolved)(**dict(registry.to_data(resolved), rolls=((5, 4, 2, 3),)))
    with pytest.raises(ImpossibleHistory):
        play(t.events[:-1] + [skipped])


def test_a_state_stored_while_damage_was_on_offer_under_the_old_key_plays_on():
    from tracker.rules.rocet.legal import legal_actions

    t = physical()
    t.turn(EA, FINTA, a=[5, 4], b=[1, 2])  # Estocada Alta wins: attack damage on offer
    stored = dict(t.state, pending_damage=dict(t.state["pending_damage"], offers=[
        {"kind": o["source"], "amount": o["amount"]} for o in t.state["pending_damage"]["offers"]]))
    deal = next(a for a in legal_actions(stored, "gm") if a["type"] == "DealDamage")
    assert deal["fields"]["source"]["choices"] == ["attack"]
    assert rocet.decide(stored, DealDamage(), None)[0].source == "attack"
