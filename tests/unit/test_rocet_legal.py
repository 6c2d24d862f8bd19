"""Rocèt's legal next actions, whole, at each kind of step and for either side: the sealed card the
GM chooses only for an NPC, the reroll of a tie with each side's dice, the damage to deal or decline,
a fall to confirm."""
from __future__ import annotations

from tests import plain_json as json

import pytest

from tests import legal_summary
from tests.unit.test_rocet_duels import EA, Table, duelists
from tests.unit.test_rocet_sealed import PILE
from tests.unit.test_rocet_ties import tied
from tracker.rules import legal, rocet
from tracker.rules.rocet.terms import CARDS

ALWAYS = legal_summary.ENDINGS


def summary(state) -> dict:
    return legal_summary.summary(rocet, state)


def people(rank_a: str, rank_b: str) -> list:
    return [dict(d, rank=rank) for d, rank in zip(duelists(), (rank_a, rank_b))]


def sealed(rank_a: str, rank_b: str, cards: str = "virtual") -> Table:
    return Table({"kind": "relojes", "choices": "sealed", "cards": cards}, piles=[PILE], people=people(rank_a, rank_b))


def in_order(hand) -> list:
    return [card for card in CARDS if card in hand]


@pytest.mark.parametrize("npc", ["a", "b"])
def test_the_gm_chooses_a_sealed_card_only_for_the_npc_from_its_own_hand(npc):
    t = sealed("villano" if npc == "a" else "pj", "villano" if npc == "b" else "pj")
    hand = in_order(t.state["sides"][npc]["hand"])
    assert len(hand) == 3
    assert summary(t.state) == {"ChooseCard": (npc, {"side": [npc], "card": hand, "turn": [1]}), **ALWAYS}


def test_with_two_players_the_gm_chooses_for_nobody_and_with_two_npcs_for_either():
    assert summary(sealed("pj", "pj").state)["ChooseCard"] == (None, {"side": [], "card": [], "turn": [1]})
    npcs = sealed("villano", "villano").state
    # The cards are the first side's (they depend on the side: b's hand is b's).
    assert summary(npcs)["ChooseCard"] == \
        (None, {"side": ["a", "b"], "card": in_order(npcs["sides"]["a"]["hand"]), "turn": [1]})


@pytest.mark.parametrize("npc", ["a", "b"])
def test_physical_cards_let_the_gm_name_any_card_for_the_npc(npc):
    t = sealed("villano" if npc == "a" else "pj", "villano" if npc == "b" else "pj", cards="physical")
    assert summary(t.state)["ChooseCard"] == (npc, {"side": [npc], "card": list(CARDS), "turn": [1]})


def test_a_hand_this_reader_may_not_see_offers_any_card():
    t = Table({"cards": "virtual"}, piles=[PILE])
    hidden = json.loads(json.dumps(t.state))
    del hidden["sides"]["a"]["hand"]
    assert rocet.legal._held(hidden, "a") == list(CARDS)
    assert rocet.legal._held(hidden, "b") == in_order(t.state["sides"]["b"]["hand"])


def test_a_tie_is_rerolled_with_each_side_s_des_and_int_dice():
    t = Table({"cards": "physical"})
    tied(t)
    sides = t.state["sides"]
    dice = {f"dice_{s}:dice": [sides[s]["des"], sides[s]["int"]] for s in "ab"}
    assert summary(t.state)["RerollTie"] == (None, dice)


@pytest.mark.parametrize("winner", ["a", "b"])
def test_the_winner_of_an_attack_deals_or_declines_its_damage(winner):
    t = Table({"cards": "physical"})
    t.turn(EA, EA, a=[8, 7] if winner == "a" else [1, 2], b=[1, 2] if winner == "a" else [8, 7])
    offered = summary(t.state)
    assert offered["DealDamage"] == (winner, {"source": ["attack"]})
    assert offered["DeclineDamage"] == (winner, {})


@pytest.mark.parametrize("down", ["a", "b"])
def test_a_fall_is_confirmed_for_the_side_that_fell(down):
    t = Table({"cards": "physical"})
    t.state = json.loads(json.dumps(t.state))
    t.state["sides"][down]["pg"] = 0
    t.state["pending_down"] = down
    offered = summary(t.state)
    assert (offered["ConfirmUnconscious"], offered["ConfirmDeath"]) == ((down, {}), (down, {}))


# --- what a sealed choice refuses, at which field ------------------------------------------------

def refusal(t: Table, command) -> tuple[str, str | None]:
    from tracker.rules.base import Refused
    from tracker.rules.dice import Dice
    with pytest.raises(Refused) as refused:
        rocet.decide(t.state, command, Dice())
    return refused.value.reason, refused.value.field


@pytest.mark.parametrize("side", ["a", "b"])
def test_each_sealed_choice_refusal_says_why_at_its_field(side):
    from tracker.rules.rocet.commands import ChooseCard, PlayTurn, RevealCards
    plain = Table({"cards": "virtual"}, piles=[PILE])
    recorded = "in this duel the GM records both cards as they are revealed (Play a turn)"
    assert refusal(plain, ChooseCard(side=side, card=EA)) == (recorded, "card")
    assert refusal(plain, RevealCards()) == (recorded, None)
    t = sealed("pj", "villano")
    assert refusal(t, PlayTurn(card_a=EA, card_b=EA)) == (
        "in this duel each side chooses its card in secret (on a seat, or the NPC's on this page): "
        "choose, then reveal", "card_a")
    assert refusal(t, ChooseCard(side=side, card=EA, turn=2)) == \
        ("that choice was for turn 2, and the duel is now at turn 1: choose again", "card")
    held = t.state["sides"][side]
    missing = next(card for card in CARDS if card not in held["hand"])
    assert refusal(t, ChooseCard(side=side, card=missing)) == \
        (f"that card is not in {held['name']}'s hand", "card")
    seats = Table({"kind": "relojes", "choices": "sealed", "dice_by": "seats"}, piles=[PILE])
    assert refusal(seats, ChooseCard(side=side, card=seats.state["sides"][side]["hand"][0], dice=(5,))) == \
        ("type what your DES and INT dice showed, e.g. “5 3” (ties are rerolled by the server)", "dice")


def test_a_sealed_choice_waits_for_the_discard_owed():
    from tests.unit.test_rocet_duels import FINTA, TRETA
    from tests.unit.test_rocet_sealed import sealed as sealed_duel
    from tracker.rules.rocet.commands import ChooseCard, RevealCards
    t = sealed_duel()
    t.do(ChooseCard(side="b", card=TRETA))
    t.do(ChooseCard(side="a", card=FINTA), a=[3, 2], b=[4, 4])  # Finta beats Treta: Lope owes a discard
    owed = "Lope must first discard a card of their choice"
    assert refusal(t, ChooseCard(side="a", card=t.state["sides"]["a"]["hand"][0])) == (owed, "card")
    assert refusal(t, RevealCards()) == (owed, None)


# --- who a seat speaks for, and what the API and each seat see -----------------------------------

@pytest.mark.parametrize("fields, side", [({"side": "a"}, "a"), ({"side": "b"}, "b"), ({"side": ["a"]}, None),
                                          ({}, None)])
def test_a_seat_choosing_or_discarding_speaks_for_the_side_it_names(fields, side):
    for command in ("ChooseCard", "Discard"):
        assert rocet.SEAT_COMMANDS[command]({}, fields) == side


@pytest.mark.parametrize("pending, side", [({"side": "a"}, "a"), ({"side": "b"}, "b"), (None, None)])
def test_the_damage_on_offer_is_dealt_or_declined_by_its_winner_s_seat(pending, side):
    for command in ("DealDamage", "DeclineDamage"):
        assert rocet.SEAT_COMMANDS[command]({"pending_damage": pending}, {"side": "a"}) == side


def test_the_api_sees_what_the_gm_sees():
    plain = Table({"cards": "virtual"}, piles=[PILE])
    assert rocet.seen_by(plain.state, "api") == rocet.seen_by(plain.state, "gm")
    assert "pile" in rocet.seen_by(plain.state, "api")["decks"]["shared"]
    assert "pile" not in rocet.seen_by(plain.state, "seat:a")["decks"]["shared"]
    t = sealed("pj", "villano")
    api = rocet.seen_by(t.state, "api")
    assert "hand" not in api["sides"]["a"] and api["sides"]["b"]["hand"] == t.state["sides"]["b"]["hand"]
    assert api == rocet.seen_by(t.state, "gm")


@pytest.mark.parametrize("side", ["a", "b"])
def test_a_seat_sees_its_own_sealed_card_and_dice(side):
    from tracker.rules.rocet.commands import ChooseCard
    t = Table({"kind": "relojes", "choices": "sealed", "dice_by": "seats"}, piles=[PILE])
    card = t.state["sides"][side]["hand"][0]
    t.do(ChooseCard(side=side, card=card, dice=(5, 3)))
    other = {"a": "b", "b": "a"}[side]
    assert rocet.seen_by(t.state, f"seat:{side}")["sealed"] == {side: {"card": card, "dice": [5, 3]}}
    assert rocet.seen_by(t.state, f"seat:{other}")["sealed"] == {side: {}}
