"""Rocèt's legal next actions, whole, at each kind of step and for either side: the sealed card the
GM chooses only for an NPC, the reroll of a tie with each side's dice, the damage to deal or decline,
a fall to confirm."""
from __future__ import annotations

import json

import pytest

from tests.unit.test_rocet_duels import EA, Table, duelists
from tests.unit.test_rocet_sealed import PILE
from tests.unit.test_rocet_ties import tied
from tracker.rules import legal, rocet
from tracker.rules.rocet.terms import CARDS

ALWAYS = {"Abandon": (None, {}), "Disqualify": (None, {"side": ["a", "b"]}), "Yield": (None, {"side": ["a", "b"]})}


def summary(state) -> dict:
    out = {}
    for action in rocet.legal_actions(state, legal.GM):
        fields = {name: spec["choices"] for name, spec in action["fields"].items() if "choices" in spec}
        fields.update({f"{name}:dice": spec["dice"] for name, spec in action["fields"].items() if "dice" in spec})
        out[action["type"]] = (action["side"], fields)
    assert list(out) == rocet.actions(state)
    return out


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
    assert summary(t.state) == {"ChooseCard": (npc, {"side": [npc], "card": hand}), **ALWAYS}


def test_with_two_players_the_gm_chooses_for_nobody_and_with_two_npcs_for_either():
    assert summary(sealed("pj", "pj").state)["ChooseCard"] == (None, {"side": [], "card": []})
    assert summary(sealed("villano", "villano").state)["ChooseCard"] == \
        (None, {"side": ["a", "b"], "card": list(CARDS)})


@pytest.mark.parametrize("npc", ["a", "b"])
def test_physical_cards_let_the_gm_name_any_card_for_the_npc(npc):
    t = sealed("villano" if npc == "a" else "pj", "villano" if npc == "b" else "pj", cards="physical")
    assert summary(t.state)["ChooseCard"] == (npc, {"side": [npc], "card": list(CARDS)})


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
