"""Rocèt rules one at a time: who may duel, the Ventaja cycle, the roll, the deck, refusals."""
from __future__ import annotations

from tests import plain_json as json

import pytest

from tracker.domain import events as registry
from tracker.rules import rocet
from tracker.rules.base import Invalid, Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import Abandon, Disqualify, DuelDrawn, DuelWon, DuelYielded, Yield
from tracker.rules.rocet.commands import ConfirmUnconscious, DealDamage, DeclineDamage, Discard, PlayTurn
from tracker.rules.rocet.events import RocetCardDiscarded, RocetCardsDrawn, RocetDeckShuffled
from tracker.rules.rocet.terms import BEATS, CARDS, compare

from tests.unit.test_rocet_duels import (  # noqa: E402 (shared table helpers)
    EA, EP, FINTA, HEADER, INSULTO, TC, TRETA, Table, duelists, play, resolved, sheet,
)

# The cycle as the seed prints it (its sixth card, a second "Estocada Profunda", is Insulto).
SEED_CYCLE = [(EA, INSULTO), (EP, EA), (TC, EP), (TRETA, TC), (FINTA, TRETA), (INSULTO, FINTA)]


def physical(people=None, **setup):
    return Table(dict({"cards": "physical"}, **setup), people=people)


def short_pile(cards, mode="virtual", reshuffle=True, people=None):
    """A duel whose shared pile holds only ``cards`` (the first six are the opening hands)."""
    started = rocet.start(HEADER, {"weapon_type": "Espada", "cards": "physical", "reshuffle": reshuffle},
                          people or duelists(), Dice())[0]
    started = type(started)(**dict(registry.to_data(started), settings=dict(started.settings, cards=mode)))
    known = tuple(cards) if mode == "virtual" else ()
    return Table.given([
        started, RocetDeckShuffled(deck="shared", count=len(cards), cards=known),
        RocetCardsDrawn(side="a", count=3, cards=known[:3]),
        RocetCardsDrawn(side="b", count=3, cards=known[3:6]),
    ])


# --- the Ventaja cycle -------------------------------------------------------------------

@pytest.mark.parametrize("card_a", CARDS)
@pytest.mark.parametrize("card_b", CARDS)
def test_every_card_pairing_gives_ventaja_to_the_card_that_beats_the_other(card_a, card_b):
    expected = "a" if (card_a, card_b) in SEED_CYCLE else "b" if (card_b, card_a) in SEED_CYCLE else ""
    t = physical()
    # Both roll 2+3: the +4 decides; with no Ventaja it is a tie, rerolled 5+4 against 2+3.
    reroll = ([5, 4], [2, 3]) if not expected else ([], [])
    ev = resolved(t.turn(card_a, card_b, a=[2, 3] + reroll[0], b=[3, 2] + reroll[1]))
    assert ev.advantage == expected
    assert ev.winner == (expected or "a")
    assert len(ev.rolls) == (1 if expected else 2)


def test_the_cycle_has_one_victim_per_card():
    assert sorted(BEATS.values()) == sorted(CARDS)
    assert set(BEATS.items()) == set(SEED_CYCLE)


# --- the opposed roll ---------------------------------------------------------------------

@pytest.mark.parametrize("pair_a, pair_b, bonus_a, result", [
    ((6, 6), (8, 7), 0, "a"),  # a critical beats 15
    ((5, 5), (4, 5), 0, "a"),  # 5+5 is no critical: plain totals
    ((8, 8), (6, 6), 0, "tie"),  # two criticals tie
    ((1, 1), (1, 2), 4, "b"),  # a fumble loses even with Ventaja
    ((1, 1), (1, 1), 0, "tie"),  # two fumbles tie
    ((6, 6), (1, 1), 0, "a"),
    ((3, 4), (5, 6), 4, "tie"),  # 7+4 = 11
])
def test_criticals_fumbles_and_totals(pair_a, pair_b, bonus_a, result):
    assert compare(pair_a, pair_b, bonus_a) == result


def test_ties_are_rerolled_and_every_roll_is_kept():
    t = physical()
    ev = resolved(t.turn(EA, EA, a=[4, 4, 2, 2, 3, 3], b=[4, 4, 1, 3, 2, 3]))
    assert ev.rolls == ((4, 4, 4, 4), (2, 2, 1, 3), (3, 3, 2, 3))
    assert (ev.winner, ev.ta) == ("a", 3)
    assert "ties rerolled" in rocet.describe(play(t.events[:-1]), ev)


def test_a_tie_with_dice_for_one_side_only_asks_for_the_other_sides():
    t = physical()
    assert "type another d8" in t.refused(PlayTurn(card_a=EA, card_b=EA), a=[3, 3, 4, 4], b=[3, 3])


def test_server_rolls_what_was_not_typed():
    t = physical()
    dice = Dice({"a": [7, 7]}, source=lambda sides: 2)
    ev = resolved(rocet.decide(t.state, PlayTurn(card_a=EA, card_b=EP, server_roll=True), dice))
    assert ev.rolls == ((7, 7, 2, 2),)


# --- the deck ----------------------------------------------------------------------------

def test_virtual_start_stores_the_shuffle_and_deals_three_each():
    order = list(reversed(range(36)))
    events = rocet.start(HEADER, {"weapon_type": "Espada"}, duelists(), Dice(shuffle=lambda n: order))
    shuffled, dealt_a, dealt_b = events[1:]
    assert shuffled.order == tuple(order) and len(shuffled.cards) == 36
    assert dealt_a.cards == shuffled.cards[:3] and dealt_b.cards == shuffled.cards[3:6]
    state = play(events)
    assert state["sides"]["a"]["hand"] == list(shuffled.cards[:3])


def test_own_decks_are_shuffled_one_each():
    events = rocet.start(HEADER, {"weapon_type": "Espada", "deck": "own"}, duelists(),
                         Dice(shuffle=lambda n: list(range(n))))
    assert [(e.deck, e.count) for e in events if isinstance(e, RocetDeckShuffled)] == [("a", 18), ("b", 18)]


@pytest.mark.parametrize("mode", ["virtual", "physical"])
def test_when_the_pile_runs_out_the_discards_become_a_new_pile(mode):
    t = short_pile([EA, FINTA, TC, EP, INSULTO, TRETA, INSULTO, EA], mode)
    t.turn(EA, EP, a=[1, 2], b=[3, 3])  # each draws the last two cards
    assert t.state["decks"]["shared"]["pile_size"] == 0
    events = t.do(PlayTurn(card_a=FINTA, card_b=INSULTO), a=[5, 5], b=[1, 2], shuffle=lambda n: [1, 0])
    reshuffle = next(e for e in events if isinstance(e, RocetDeckShuffled))
    assert (reshuffle.reason, reshuffle.count) == ("reshuffle", 2)
    if mode == "virtual":
        assert reshuffle.cards == (EP, EA) and reshuffle.order == (1, 0)
        assert t.hands()[0][-1] == EP and t.hands()[1][-1] == EA
    assert [type(e).__name__ for e in events] == [  # the first turn's attack damage was left on offer
        "RocetDamageDeclined", "RocetCardsPlayed", "RocetDeckShuffled", "RocetCardsDrawn", "RocetCardsDrawn", "RocetTurnResolved"]
    assert t.state["decks"]["shared"] | {"pile": [], "discard": []} == {
        "pile": [], "pile_size": 0, "discard": [], "discard_size": 2}
    assert t.snapshot()["hands"] == (3, 3)


def test_without_reshuffle_an_empty_pile_leaves_short_hands():
    t = short_pile([EA, FINTA, TC, EP, INSULTO, TRETA], reshuffle=False)
    t.turn(EA, EP, a=[1, 2], b=[3, 3])
    assert t.snapshot()["hands"] == (2, 2)


def test_a_forced_discard_from_a_two_card_hand_leaves_one():
    t = short_pile([FINTA, EA, TC, EP, INSULTO, TRETA], reshuffle=False)
    ev = resolved(t.turn(FINTA, TRETA, a=[2, 2], b=[3, 3]))  # Lope now holds two: Estocada Profunda, Insulto
    assert ev.discard_owed and t.snapshot()["hands"] == (2, 2)
    assert t.do(Discard(side="b", card=INSULTO)) == [RocetCardDiscarded(side="b", card=INSULTO)]
    assert t.hands() == ([EA, TC], [EP])


def test_a_forced_discard_from_an_empty_hand_does_nothing():
    t = short_pile([FINTA, EA, TC, EP, INSULTO, TRETA], reshuffle=False)
    for card_a, card_b in ((EA, EP), (TC, INSULTO)):
        t.turn(card_a, card_b, a=[8, 8], b=[1, 2])
    t.turn(FINTA, TRETA, a=[8, 8], b=[1, 2])
    assert t.snapshot()["hands"] == (0, 0)
    # Nothing to discard, and no card to play nor to draw: the duel ends there, a draw [assumed].
    assert t.do(Discard(side="b")) == [RocetCardDiscarded(side="b", card=""), DuelDrawn(ending="cards_out")]
    assert t.state["pending_discard"] is None
    assert t.state["outcome"]["ending"] == "cards_out" and t.state["outcome"]["winner"] is None


def test_physical_cards_accept_any_card_and_keep_counts():
    t = physical()
    t.turn(INSULTO, INSULTO, a=[8, 7], b=[1, 2])
    t.turn(INSULTO, INSULTO, a=[8, 7], b=[1, 2])
    assert t.state["decks"]["shared"] | {"discard": None} == {
        "pile": [], "pile_size": 26, "discard": None, "discard_size": 4}
    assert t.state["sides"]["a"]["hand"] == []


# --- refusals ----------------------------------------------------------------------------

def test_a_card_not_in_hand_is_refused():
    t = Table(piles=[[EA, EA, EA, TC, TC, TC]])
    with pytest.raises(Refused) as refusal:
        rocet.decide(t.state, PlayTurn(card_a=FINTA, card_b=TC), Dice({"a": [1, 2], "b": [3, 4]}))
    assert refusal.value.reason == "that card is not in Inés's hand"
    assert refusal.value.field == "card_a"


def test_damage_and_discards_only_when_owed():
    t = physical()
    assert t.refused(DealDamage()) == "no damage to deal: no turn has been won yet"
    assert t.refused(Discard(side="a", card=EA)).startswith("no discard is owed")
    assert t.refused(DeclineDamage()).startswith("no damage to decline")
    t.turn(EA, EA, a=[8, 7], b=[1, 2])
    t.do(DeclineDamage())
    assert t.refused(DealDamage()) == "no damage to deal: the damage of turn 1 was already dealt or declined"
    t.turn(TRETA, TRETA, a=[8, 7], b=[1, 2])
    assert t.refused(DealDamage()) == "no damage to deal: the winner's card was not an attack (Treta)"
    assert t.refused(ConfirmUnconscious()) == "nobody is at 0 PG"


def test_only_the_offered_damage_can_be_dealt():
    t = physical()
    t.turn(EA, EA, a=[8, 7], b=[1, 2])
    assert "no clock damage on offer" in t.refused(DealDamage(source="clock"))


# --- endings -----------------------------------------------------------------------------

def test_a_knocked_out_duelist_loses_once_the_gm_confirms_it():
    t = physical(people=duelists(pg_b=5))
    t.turn(EA, EA, a=[8, 7], b=[1, 2])
    t.do(DealDamage())
    assert rocet.actions(t.state) == ["ConfirmUnconscious", "ConfirmDeath", "Yield", "Disqualify", "Abandon"]
    events = t.do(ConfirmUnconscious())
    assert events[-1] == DuelWon(side="a", ending="unconscious")
    assert t.state["outcome"]["detail"] == "Lope fell unconscious"


def test_poison_disqualifies_even_a_winner_whose_victim_died():
    t = physical(people=duelists(pg_b=5))
    t.turn(EA, EA, a=[8, 7], b=[1, 2])
    t.do(DealDamage())
    t.do(Disqualify(side="a", reason="poisoned blade"))
    assert t.state["outcome"]["winner"] == "b"
    assert t.state["outcome"]["ending"] == "disqualification"


def test_yield_and_abandon():
    t = physical()
    assert t.do(Yield(side="b", detail="¡Me rindo!")) == [DuelYielded(side="b", detail="¡Me rindo!")]
    assert t.state["outcome"]["winner"] == "a"
    assert t.refused(Abandon()).startswith("this duel is over")
    t = physical()
    t.do(Abandon(reason="the guard arrives"))
    assert t.state["outcome"]["winner"] is None
    assert rocet.progress(t.state) == "Over"


def test_turns_after_the_end_are_refused():
    t = physical()
    t.do(Disqualify(side="b"))
    assert t.refused(PlayTurn(card_a=EA, card_b=EA)) == "this duel is over: Inés won by disqualification (Lope disqualified)"
    assert rocet.actions(t.state) == []


# --- setting up ------------------------------------------------------------------------

def refused_start(setup=None, people=None):
    with pytest.raises(Refused) as refusal:
        rocet.start(HEADER, dict({"weapon_type": "Espada"}, **(setup or {})), people or duelists(),
                    Dice(shuffle=lambda n: list(range(n))))
    return refusal.value


def test_only_pj_villano_elite_and_campeon_may_duel():
    refusal = refused_start(people=duelists(rank_b="minor"))
    assert refusal.reason.startswith("Lope may not duel: only player characters and Villano")
    assert refusal.field == "duelist_b"


def test_a_duelist_needs_a_rocet_stats_block():
    people = duelists()
    people[1]["stats"] = None
    assert refused_start(people=people).reason.startswith("Lope has no Rocèt stats block")


def test_a_character_cannot_duel_themselves():
    people = duelists()
    people[1] = dict(people[0], side="b")
    assert "cannot duel themselves" in refused_start(people=people).reason


def test_weapons_follow_the_challenged_sides_pick():
    assert refused_start({"weapon_type": ""}).field == "weapon_type"
    refusal = refused_start({"weapon_type": "Daga", "weapon_a": "Daga de mano", "weapon_b": "Sable"})
    assert refusal.reason == ("Lope's Sable is a Espada, but the challenged side picked Daga for both "
                              "(unless both agree to pick their own)")
    assert "Pistola is a Pistola" in refused_start({"own_weapons": True, "weapon_a": "Pistola"}).reason
    assert "no weapon called" in refused_start({"weapon_a": "Florete"}).reason
    started = rocet.start(HEADER, {"own_weapons": True, "weapon_a": "daga de mano", "weapon_b": "Sable"},
                          duelists(), Dice(shuffle=lambda n: list(range(n))))[0]
    assert [d["weapon"]["name"] for d in started.duelists] == ["Daga de mano", "Sable"]
    assert started.settings["weapon_a"] == "Daga de mano"


def test_stats_are_validated_for_the_gm():
    assert sheet()["weapons"][0] == {"name": "Ropera", "type": "Espada", "damage": 3}
    with pytest.raises(Invalid) as bad:
        rocet.validate_stats({"des": "d7", "int": "d8", "pg_max": 0, "pm_max": 5,
                              "weapons": "Ropera, Espada, 3"})
    assert set(bad.value.errors) == {"des", "pg_max"}
    with pytest.raises(Invalid) as bad:
        rocet.validate_stats({"des": "d8", "int": "d8", "pg_max": 5, "pm_max": 5, "weapons": "Ropera, Espada, 3"})
    assert bad.value.errors["weapons"].startswith("line 1: write name | type | fixed damage")
    listed = rocet.validate_stats({"des": 6, "int": "d12", "pg_max": 5, "pm_max": 5,
                                   "weapons": [{"name": "Daga", "type": "daga", "damage": 1}]})
    assert listed["weapons"] == [{"name": "Daga", "type": "Daga", "damage": 1}]


# --- the module's face -----------------------------------------------------------------

def scripted():
    t = Table(piles=[[FINTA, EA, TC, TRETA, EP, INSULTO]])
    t.turn(FINTA, TRETA, a=[2, 2], b=[3, 3])
    t.do(Discard(side="b", card=EP))
    t.turn(EA, INSULTO, a=[5, 5], b=[3, 3])
    t.do(DealDamage())
    return t


def test_replay_gives_the_same_json_and_state_is_json():
    t = scripted()
    once, twice = play(t.events), play(t.events)
    assert json.dumps(once, sort_keys=True) == json.dumps(twice, sort_keys=True)
    assert json.dumps(once, sort_keys=True) == json.dumps(t.state, sort_keys=True)
    assert json.loads(json.dumps(once)) == once


def test_every_event_round_trips_through_storage():
    t = scripted()
    t.turn(TC, EP, a=[1, 1], b=[8, 8])  # Lope's critical beats Inés's fumble
    t.do(DeclineDamage())
    t.do(Yield(side="a"))
    kinds = set()
    for ev in t.events:
        name = registry.type_name(ev)
        kinds.add(name)
        stored = json.loads(json.dumps(registry.to_data(ev)))
        assert registry.from_data(name, stored) == ev
    assert {"DuelStarted", "RocetDeckShuffled", "RocetCardsDrawn", "RocetCardsPlayed", "RocetTurnResolved",
            "RocetCardDiscarded", "RocetDamageDealt", "RocetDamageDeclined"} <= kinds


def test_public_view_hides_hands_and_pile_order_in_virtual_mode():
    t = scripted()
    shown = rocet.public(t.state)
    assert "hand" not in shown["sides"]["a"] and shown["sides"]["a"]["hand_size"] == 3
    assert "pile" not in shown["decks"]["shared"]
    assert "hand" in t.state["sides"]["a"]
    assert not any("draws" in entry["text"] for entry in shown["history"])  # what was drawn stays secret


def test_history_assumptions_and_progress_read_plainly():
    t = scripted()
    texts = [entry["text"] for entry in t.state["history"]]
    assert texts[0].startswith("Rocèt duel (Clocks, 6 intervals): Inés (Ropera, Espada 3) vs Lope (Sable")
    assert any(text.startswith("Turn 1: Inés plays Finta (Ventaja +4 vs Treta), Lope plays Treta; 8 (2+2 +4) vs 6 (3+3); "
                               "Inés wins with Finta (TA 2): Inés's clock 1/6; Lope must discard a card")
               for text in texts)
    assert "Lope discards Estocada Profunda (shown): 2 cards in hand." in texts
    assert "Inés deals 8 PG damage to Lope (TA 5 + Ropera 3): 17/25 PG." in texts
    assert rocet.progress(t.state) == "Turn 2"
    assert "A clock never goes below 0." in rocet.assumptions(t.state)
    assert all(isinstance(cmd.FIELDS, tuple) for cmd in rocet.COMMANDS.values())


# --- nothing lapses silently ------------------------------------------------------------

def test_damage_left_on_offer_is_recorded_as_declined_when_the_next_turn_is_played():
    t = physical()
    t.turn(EA, EA, a=[8, 7], b=[1, 2])
    assert t.state["pending_damage"]["offers"] == [{"source": "attack", "amount": 8 + 3}]
    events = t.do(PlayTurn(card_a=TRETA, card_b=TRETA), a=[8, 7], b=[1, 2])
    declined = events[0]
    assert type(declined).__name__ == "RocetDamageDeclined"
    assert (declined.side, declined.sources, declined.lapsed) == ("a", ("attack",), True)
    assert type(events[1]).__name__ == "RocetCardsPlayed"
    assert t.state["pending_damage"] is None
    assert t.state["sides"]["b"]["pg"] == t.state["sides"]["b"]["pg_max"]
    lines = [h["text"] for h in t.state["history"]]
    assert any("did not deal the damage on offer: the next turn was played" in line for line in lines)


def test_a_turn_played_with_no_damage_on_offer_records_no_decline():
    t = physical()
    t.turn(TRETA, TRETA, a=[8, 7], b=[1, 2])
    t.do(Discard(side="b", card=TRETA))
    events = t.do(PlayTurn(card_a=EA, card_b=EA), a=[8, 7], b=[1, 2])
    assert "RocetDamageDeclined" not in [type(e).__name__ for e in events]
