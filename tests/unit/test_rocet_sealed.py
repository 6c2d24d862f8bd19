"""Rocèt with sealed choices: each side chooses its card in secret, both are turned over at once."""
from __future__ import annotations

from tests import plain_json as json

import pytest

from tracker import rules
from tracker.rules import rocet
from tracker.rules.duel import DuelWon
from tracker.rules.base import ImpossibleHistory
from tracker.rules.rocet.commands import ChooseCard, DeclineDamage, Discard, PlayTurn, RevealCards
from tracker.rules.rocet.events import RocetCardChosen, RocetCardsPlayed

from tests.unit.test_rocet_duels import EA, EP, FINTA, INSULTO, TC, TRETA, Table, play, resolved

# Inés (side A, a player character) holds EA, Finta, Insulto; Lope (side B, a Villano) Treta, TC, EP.
PILE = [EA, FINTA, INSULTO, TRETA, TC, EP, EP, INSULTO, TC, EA, TRETA, FINTA, EP]
AUDIENCES = ("gm", "seat:b", "display", "recap", "api")


def sealed(**setup) -> Table:
    return Table({"kind": "relojes", "choices": "sealed", **setup}, piles=[PILE])


def shown(state: dict, audience: str) -> str:
    return json.dumps(rocet.seen_by(state, audience))


def test_a_sealed_choice_is_one_event_that_no_other_reader_sees():
    t = sealed()
    new = t.do(ChooseCard(side="a", card=INSULTO, turn=1))
    assert new == [RocetCardChosen(turn=1, side="a", card=INSULTO)]
    assert t.state["history"][-1]["text"] == "Inés has chosen a card for turn 1."
    for audience in AUDIENCES:
        view = rocet.seen_by(t.state, audience)
        assert view["chosen"] == ["a"] and view["sealed"] == {"a": {}}
        # Insulto is only in Inés's hand, which only her own seat is shown.
        assert INSULTO not in shown(t.state, audience), audience
    own = rocet.seen_by(t.state, "seat:a")
    assert own["sealed"]["a"]["card"] == INSULTO
    assert own["sides"]["a"]["hand"] == [EA, FINTA, INSULTO] and "hand" not in own["sides"]["b"]


def test_the_gm_sees_the_npc_hand_but_not_the_players():
    view = rocet.seen_by(sealed().state, "gm")
    assert "hand" not in view["sides"]["a"] and view["sides"]["b"]["hand"] == [TRETA, TC, EP]
    assert "pile" not in view["decks"]["shared"]
    unsealed = Table({"kind": "relojes"}, piles=[PILE])
    assert rocet.seen_by(unsealed.state, "gm")["sides"]["a"]["hand"] == [EA, FINTA, INSULTO]


def test_a_players_hand_is_hidden_from_the_gm_only_while_a_live_seat_plays_the_side():
    """The reader that knows the seats says which sides a live seat plays (``seated``): a player
    character without one is the GM's to play, hand and choice; a reader that does not know the
    seats (the log, time travel) keeps a player character's hand hidden."""
    state = sealed().state
    assert rocet.played_on_a_seat(state, "a") and not rocet.played_on_a_seat(state, "b")  # no reader's word
    nobody = dict(state, seated=[])
    assert not rocet.played_on_a_seat(nobody, "a")
    assert rocet.seen_by(nobody, "gm")["sides"]["a"]["hand"] == [EA, FINTA, INSULTO]
    chooser = next(a for a in rocet.legal_actions(rocet.seen_by(nobody, "gm"), "gm") if a["type"] == "ChooseCard")
    assert chooser["fields"]["side"]["choices"] == ["a", "b"]
    seated = dict(state, seated=["a"])
    assert rocet.played_on_a_seat(seated, "a")
    assert "hand" not in rocet.seen_by(seated, "gm")["sides"]["a"]
    chooser = next(a for a in rocet.legal_actions(rocet.seen_by(seated, "gm"), "gm") if a["type"] == "ChooseCard")
    assert chooser["fields"]["side"]["choices"] == ["b"] and chooser["fields"]["card"]["choices"] == [EP, TC, TRETA]
    taken = dict(seated, taken_over=["a"])
    assert not rocet.played_on_a_seat(taken, "a") and "hand" in rocet.seen_by(taken, "gm")["sides"]["a"]
    assert not rocet.played_on_a_seat(dict(Table({"kind": "relojes"}, piles=[PILE]).state, seated=["a"]), "a")


def test_a_player_may_change_their_choice_until_the_reveal():
    t = sealed()
    t.do(ChooseCard(side="a", card=INSULTO))
    t.do(ChooseCard(side="a", card=FINTA))
    assert t.state["sealed"] == {"a": {"card": FINTA, "dice": []}}
    assert t.state["history"][-1]["text"] == "Inés has changed their card for turn 1."
    events = t.do(ChooseCard(side="b", card=TRETA), a=[3, 2], b=[4, 4])
    turn = resolved(events)
    assert (turn.card_a, turn.card_b, turn.advantage, turn.winner) == (FINTA, TRETA, "a", "a")


def test_the_second_choice_reveals_both_and_resolves_the_turn_in_one_command():
    t = sealed()
    assert t.do(ChooseCard(side="b", card=TRETA)) == [RocetCardChosen(turn=1, side="b", card=TRETA)]
    events = t.do(ChooseCard(side="a", card=FINTA), a=[3, 2], b=[4, 4])
    kinds = [type(ev).__name__ for ev in events]
    assert kinds == ["RocetCardChosen", "RocetCardsPlayed", "RocetCardsDrawn", "RocetCardsDrawn", "RocetTurnResolved"]
    assert events[1] == RocetCardsPlayed(turn=1, card_a=FINTA, card_b=TRETA)
    assert t.state["sealed"] == {} and t.state["turn"] == 1 and t.state["pending_discard"] == "b"
    assert rocet.seat_actions(t.state, "b") == ["Discard"] and rocet.seat_actions(t.state, "a") == []
    assert "Lope must first discard" in t.refused(ChooseCard(side="a", card=EA))
    t.do(Discard(side="b", card=TC))
    assert rocet.seat_actions(t.state, "a") == ["ChooseCard"]


def test_a_reveal_on_the_gms_press_waits_for_both_and_for_the_press():
    t = sealed(reveal="gm")
    assert t.refused(RevealCards()) == "waiting for Inés and Lope to choose"
    t.do(ChooseCard(side="a", card=EA))
    assert t.refused(RevealCards()) == "waiting for Lope to choose"
    assert t.do(ChooseCard(side="b", card=EP)) == [RocetCardChosen(turn=1, side="b", card=EP)]
    assert rocet.actions(t.state)[:2] == ["RevealCards", "ChooseCard"]  # both chosen: the reveal first
    turn = resolved(t.do(RevealCards(), a=[2, 2], b=[5, 5]))
    assert (turn.card_a, turn.card_b, turn.advantage, turn.winner) == (EA, EP, "b", "b")


def test_the_table_dice_are_typed_by_the_gm_at_the_reveal():
    t = sealed(dice_by="table")
    t.do(ChooseCard(side="a", card=EA))
    assert len(t.do(ChooseCard(side="b", card=EP))) == 1  # no reveal without the table's dice
    assert "type another d8" in t.refused(RevealCards())
    assert resolved(t.do(RevealCards(dice_a=(6, 6), dice_b=(1, 2)), a=[6, 6], b=[1, 2])).winner == "a"


def test_each_seat_types_its_own_dice_sealed_with_its_card():
    t = sealed(dice_by="seats")
    assert "type what your DES and INT dice showed" in t.refused(ChooseCard(side="a", card=EA))
    t.do(ChooseCard(side="a", card=EA, dice=(6, 5)))
    assert "6" not in json.dumps(rocet.seen_by(t.state, "gm")["sealed"])
    turn = resolved(t.do(ChooseCard(side="b", card=EP, dice=(2, 1))))
    assert turn.rolls == ((6, 5, 2, 1),) and turn.winner == "a"


def test_a_seat_s_typed_die_is_checked_against_its_own_die_when_it_is_typed():
    t = sealed(dice_by="seats")
    des, int_ = t.state["sides"]["a"]["des"], t.state["sides"]["a"]["int"]
    assert t.refused(ChooseCard(side="a", card=EA, dice=(100, 99))) == \
        f"your DES die is a d{des}: it cannot show 100"
    assert t.refused(ChooseCard(side="a", card=EA, dice=(1, 0))) == f"your INT die is a d{int_}: it cannot show 0"
    assert t.state["sealed"] == {}  # nothing chosen, so the rival's tap cannot be the one refused
    t.do(ChooseCard(side="a", card=EA, dice=(des, int_)))
    assert resolved(t.do(ChooseCard(side="b", card=EP, dice=(1, 1)))).winner in ("a", "b")


def test_what_a_sealed_duel_refuses():
    t = sealed()
    assert "chooses its card in secret" in t.refused(PlayTurn(card_a=EA, card_b=EP))
    assert "that card is not in Inés's hand" == t.refused(ChooseCard(side="a", card=TRETA))
    assert "for turn 2" in t.refused(ChooseCard(side="a", card=EA, turn=2))
    plain = Table({"kind": "relojes"}, piles=[PILE])
    assert "the GM records both cards" in plain.refused(ChooseCard(side="a", card=EA))
    assert rocet.seat_actions(plain.state, "a") == []


def test_a_late_tap_for_a_turn_already_revealed_is_refused_not_moved_to_the_next_turn():
    t = sealed()
    t.do(ChooseCard(side="a", card=INSULTO, turn=1))
    t.do(ChooseCard(side="b", card=EP, turn=1), a=[5, 5], b=[1, 2])  # Insulto wins: no discard owed
    assert t.state["turn"] == 1
    assert "for turn 1, and the duel is now at turn 2" in t.refused(ChooseCard(side="a", card=EA, turn=1))


def test_retracting_a_sealed_choice_folds_the_duel_as_if_it_was_never_made():
    t = sealed()
    t.do(ChooseCard(side="a", card=INSULTO))
    t.do(ChooseCard(side="a", card=FINTA))
    without_change = play(t.events[:-1])
    assert without_change["sealed"] == {"a": {"card": INSULTO, "dice": []}}
    assert play(t.events[:-2])["sealed"] == {}


def test_the_fold_refuses_a_turn_that_lays_other_cards_than_the_sealed_ones():
    t = sealed()
    t.do(ChooseCard(side="a", card=EA))
    t.do(ChooseCard(side="b", card=EP), a=[2, 2], b=[5, 5])
    laid = t.events.index(next(ev for ev in t.events if isinstance(ev, RocetCardsPlayed)))
    forged = t.events[:laid] + [RocetCardsPlayed(turn=1, card_a=FINTA, card_b=EP)]
    with pytest.raises(ImpossibleHistory):
        play(forged)


def test_a_winning_attack_offers_the_damage_to_the_winners_seat():
    t = sealed(kind="primera_sangre")
    t.do(ChooseCard(side="a", card=EA))
    turn = resolved(t.do(ChooseCard(side="b", card=EP), a=[6, 6], b=[1, 2]))
    assert turn.winner == "a" and turn.offers == ("attack",)
    assert rocet.seat_actions(t.state, "a") == ["DealDamage", "DeclineDamage"]
    assert rocet.seat_actions(t.state, "b") == []
    events = t.do(DeclineDamage())
    assert isinstance(events[-1], DuelWon)
    assert rocet.seat_actions(t.state, "a") == []


def test_sealed_event_fields_are_masked_for_every_reader():
    data = {"turn": 1, "side": "a", "card": EA, "dice": [6, 5]}
    assert rules.sealed_view("RocetCardChosen", data) == {"turn": 1, "side": "a", "card": "sealed", "dice": "sealed"}
    assert rules.sealed_view("RocetTurnResolved", {"card_a": EA}) == {"card_a": EA}  # the reveal is open
