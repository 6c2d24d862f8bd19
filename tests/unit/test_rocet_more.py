"""Rocèt, more edges: damage refusals by their field, falls for either side, progress words,
a hand at 0 cards, the meter one step out, broken decks and reshuffles named."""
from __future__ import annotations

from tests import plain_json as json

import pytest

from tracker.rules import rocet
from tracker.rules.base import ImpossibleHistory, Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import DuelWon, Yield, other
from tracker.rules.rocet.commands import ConfirmDeath, ConfirmUnconscious, DealDamage, DeclineDamage
from tracker.rules.rocet.events import RocetDamageDeclined, RocetDeckShuffled, RocetDuelistFell
from tracker.rules.rocet.invariants import invariants

from tests.unit.test_rocet_duels import EA, EP, FINTA, INSULTO, TC, TRETA, Table

SIDES = ("a", "b")
NAMES = {"a": "Inés", "b": "Lope"}


def physical(**setup):
    return Table(dict({"cards": "physical"}, **setup))


def refusal(t, cmd):
    with pytest.raises(Refused) as refused:
        rocet.decide(t.state, cmd, Dice())
    return refused.value.reason, refused.value.field


def won_with(winner, card=EP, **setup):
    """``winner`` wins turn 1 with ``card`` (which beats the loser's Estocada Alta when it is EP)."""
    t = physical(**setup)
    cards = {winner: card, other(winner): EA}
    dice = {winner: [3, 3], other(winner): [1, 2]}
    t.turn(cards["a"], cards["b"], a=dice["a"], b=dice["b"])
    return t


@pytest.mark.parametrize("winner", SIDES)
def test_damage_refusals_point_at_the_source_for_either_side(winner):
    t = physical()
    assert refusal(t, DealDamage()) == ("no damage to deal: no turn has been won yet", "source")
    t = won_with(winner)
    assert refusal(t, DealDamage(source="clock")) == ("no clock damage on offer (on offer: attack)", "source")
    t.do(DealDamage())
    assert refusal(t, DealDamage()) == ("no damage to deal: the damage of turn 1 was already dealt or declined", "source")
    t = won_with(winner, card=FINTA)
    assert refusal(t, DealDamage()) == ("no damage to deal: the winner's card was not an attack (Finta)", "source")


def test_a_completed_a_muerte_clock_offers_both_damages_and_names_them():
    t = physical(kind="a_muerte")
    for _ in range(2):
        t.turn(EP, EA, a=[3, 3], b=[1, 2])
        if t.state["pending_damage"] and len(t.state["pending_damage"]["offers"]) == 1:
            t.do(DeclineDamage())
    offers = [o["source"] for o in t.state["pending_damage"]["offers"]]
    assert offers == ["attack", "clock"]
    assert refusal(t, DealDamage(source="insult")) == ("no insult damage on offer (on offer: attack, clock)", "source")
    assert t.do(DeclineDamage()) == [RocetDamageDeclined(side="a", sources=("attack", "clock"))]


@pytest.mark.parametrize("down", SIDES)
def test_a_fall_wins_the_duel_for_the_other_side(down):
    for command, condition, ending, words in ((ConfirmUnconscious, "unconscious", "unconscious", "fell unconscious"),
                                              (ConfirmDeath, "dead", "death", "died")):
        t = physical()
        t.state = json.loads(json.dumps(t.state))
        t.state["sides"][down]["pg"] = 0
        t.state["pending_down"] = down
        assert t.do(command()) == [RocetDuelistFell(side=down, condition=condition),
                                   DuelWon(side=other(down), ending=ending)]
        assert t.state["outcome"]["detail"] == f"{NAMES[down]} {words}"


def test_a_duel_to_the_death_refuses_unconsciousness_in_words():
    t = physical(kind="a_muerte")
    t.state = json.loads(json.dumps(t.state))
    t.state["sides"]["b"]["pg"] = 0
    t.state["pending_down"] = "b"
    assert refusal(t, ConfirmUnconscious())[0] == (
        "a duel to the death ends only by death, yield or disqualification: confirm the death, or record a yield")


def test_progress_before_during_and_after():
    t = physical()
    assert rocet.progress(t.state) == "Before the first turn"
    t.do(Yield(side="a"))
    assert rocet.progress(t.state) == "Over"
    t = won_with("a", card=FINTA)
    assert rocet.progress(t.state) == "Turn 1"
    t.do(Yield(side="b"))
    assert rocet.progress(t.state) == "Over after turn 1"


@pytest.mark.parametrize("size, problems", [(0, []), (3, []), (-1, ["side a holds -1 cards"]), (4, ["side a holds 4 cards"])])
def test_a_hand_may_hold_0_to_3_cards(size, problems):
    t = physical()
    state = json.loads(json.dumps(t.state))
    state["sides"]["a"]["hand_size"] = size
    state["decks"]["shared"]["pile_size"] -= size - 3  # the deck still counts its 36 cards
    assert invariants(state) == problems


def test_the_meter_one_step_toward_ines():
    t = physical(kind="superioridad", meter_steps=4)
    assert rocet.meter_text(t.state, 1) == "1/4 toward Inés"


def test_a_virtual_deck_s_lists_must_match_its_counts():
    t = Table({"cards": "virtual"}, piles=[[EA, FINTA, INSULTO, TRETA, TC, EP]])
    assert invariants(t.state) == []
    broken = json.loads(json.dumps(t.state))
    broken["decks"]["shared"]["discard_size"] += 1
    broken["decks"]["shared"]["pile_size"] -= 1
    assert invariants(broken) == ["deck shared: the pile or discards miscount their cards"]
    broken = json.loads(json.dumps(t.state))
    deck = broken["decks"]["shared"]
    deck["pile"][0] = deck["pile"][1] if deck["pile"][0] != deck["pile"][1] else deck["pile"][2]
    assert any("deck shared" in p for p in invariants(broken))


def test_a_reshuffle_must_take_exactly_the_discards():
    t = physical()
    deck = t.state["decks"]["shared"]
    with pytest.raises(ImpossibleHistory) as broken:
        rocet.evolve(t.state, RocetDeckShuffled(deck="shared", count=0, reason="reshuffle"), 99)
    assert str(broken.value) == f"a reshuffle of 0 cards with {deck['pile_size']} still in the pile and 0 discarded"


def test_a_muerte_assumptions_word_for_word():
    assert rocet.assumptions(physical(kind="a_muerte").state) == [
        "Where Rocèt is silent, Fabula Ultima's rules apply: a roll is the DES die plus the INT die (+4 with "
        "Ventaja); a tie is rerolled; a double of 6 or more is a critical and beats any roll but another critical; "
        "double 1s are a fumble and lose to any roll but another fumble; TA is the higher die of the winner's roll.",
        "The Ventaja cycle's sixth card, printed as a second Estocada Profunda, is read as Insulto (Insulto beats "
        "Finta).",
        "PG damage dealt “the usual way” is TA + the weapon's fixed damage.",
        "When a pile runs out, its discards are shuffled into a new pile.",
        "A forced discard from an empty hand does nothing.",
        "The cards played in a turn go to the discards once the turn is resolved, after both duelists drew back up "
        "to three.",
        "A clock never goes below 0.",
        "A completed clock starts again from 0.",
        "A duelist at 0 PG in a duel to the death is confirmed dead (or yields): an unconscious duelist cannot go on.",
        "PG and PM never go below 0: damage beyond what is left is not recorded."]


def test_a_virtual_deck_with_a_card_of_the_wrong_kind_counts_them_by_kind():
    t = Table({"cards": "virtual"}, piles=[[EA, FINTA, INSULTO, TRETA, TC, EP]])
    broken = json.loads(json.dumps(t.state))
    pile = broken["decks"]["shared"]["pile"]
    pile[pile.index(EA)] = FINTA
    assert invariants(broken) == [
        "deck shared holds 36 cards ({'Estocada Alta': 5, 'Estocada Profunda': 6, 'Finta': 7, 'Insulto': 6, "
        "'Tajo Circular': 6, 'Treta': 6}) instead of 36, by kind"]


def test_a_card_on_the_table_is_counted_once():
    from tracker.rules.rocet.invariants import _cards
    t = Table({"cards": "virtual"}, piles=[[EA, FINTA, INSULTO, TRETA, TC, EP]])
    state = json.loads(json.dumps(t.state))
    state["sides"]["a"]["hand"].remove(EA)
    state["sides"]["a"]["hand_size"] -= 1
    assert _cards(dict(state, table={"a": EA})) == []
    p = physical()
    state = json.loads(json.dumps(p.state))
    state["sides"]["b"]["hand_size"] -= 1
    assert _cards(dict(state, table={"b": EA})) == []
    assert _cards(dict(state, table={})) == ["deck shared holds 35 cards instead of 36"]


def test_clocks_and_meter_outside_their_variant_and_a_meter_at_its_end_with_a_win():
    from tracker.rules.rocet.invariants import _clocks
    t = physical(kind="superioridad", meter_steps=3)
    state = json.loads(json.dumps(t.state))
    state["sides"]["b"]["clock"] = 1
    assert _clocks(state) == ["a clock moved in a duel without clocks"]
    state["sides"]["b"]["clock"] = 0
    assert _clocks(dict(state, meter=-3, pending_damage={"win": "superiority"})) == []
    assert _clocks(dict(state, meter=-3)) == ["the meter stands at -3 of 3"]
    assert _clocks(dict(state, meter=4, pending_damage={"win": "superiority"})) == ["the meter stands at 4 of 3"]
    m = physical(kind="a_muerte", clock_size=4)
    state = json.loads(json.dumps(m.state))
    state["sides"]["a"]["clock"] = 4  # a completed ¡a muerte! clock has already started again
    assert _clocks(state) == ["side a's clock stands at 4/4"]


def test_a_virtual_reshuffle_must_be_of_the_discards():
    t = Table({"cards": "virtual"}, piles=[[EA, FINTA, INSULTO, TRETA, TC, EP]])
    state = json.loads(json.dumps(t.state))
    deck = state["decks"]["shared"]
    moved, deck["pile"], deck["pile_size"] = deck["pile"], [], 0
    deck["discard"], deck["discard_size"] = moved, len(moved)
    wrong = tuple([FINTA] * len(moved))
    with pytest.raises(ImpossibleHistory) as broken:
        rocet.evolve(state, RocetDeckShuffled(deck="shared", count=len(moved), reason="reshuffle", cards=wrong), 99)
    assert str(broken.value) == "a reshuffle of cards that were not the discards"
    after = rocet.evolve(state, RocetDeckShuffled(deck="shared", count=len(moved), reason="reshuffle",
                                                  cards=tuple(reversed(moved))), 99)
    assert after["decks"]["shared"]["pile_size"] == len(moved)
    with pytest.raises(ImpossibleHistory) as broken:
        rocet.evolve(state, RocetDeckShuffled(deck="shared", count=len(moved) - 1, reason="reshuffle"), 99)
    assert str(broken.value) == f"a reshuffle of {len(moved) - 1} cards with 0 still in the pile and {len(moved)} discarded"


def log(t) -> list[str]:
    state, lines = None, []
    for at, event in enumerate(t.events, 1):
        lines.append(rocet.describe(state, event))
        state = rocet.evolve(state, event, at)
    return lines


def test_an_a_muerte_log_word_for_word_with_two_ties_side_b_winning_and_a_discard():
    from tracker.rules.rocet.commands import Discard
    t = physical(kind="a_muerte")
    t.turn(EA, EP, a=[5, 4, 3, 5, 1, 2], b=[2, 3, 1, 3, 3, 3])
    t.do(DealDamage())
    t.turn(FINTA, TRETA, a=[3, 3], b=[1, 2])
    t.do(Discard(side="b", card=EA))
    assert log(t) == [
        "Rocèt duel (¡A muerte!): Inés (Ropera, Espada 3) vs Lope (Sable, Espada 2); one 36-card deck shared, "
        "physical cards.",
        "The shared deck (36 cards) is shuffled.",
        "Inés draws 3 cards.",
        "Lope draws 3 cards.",
        "Turn 1: both duelists lay a card face down and draw back up to three.",
        "Inés draws 1 card.",
        "Lope draws 1 card.",
        "Turn 1: Inés plays Estocada Alta, Lope plays Estocada Profunda (Ventaja +4 vs Estocada Alta); 3 (1+2) vs "
        "10 (3+3 +4) (after ties rerolled: 9 (5+4) vs 9 (2+3 +4); 8 (3+5) vs 8 (1+3 +4)); Lope wins with Estocada "
        "Profunda (TA 3): Lope's clock 2/4; Lope may deal 5 PG damage (TA 3 + 2).",
        "Lope deals 5 PG damage to Inés (TA 3 + Sable 2): 25/30 PG.",
        "Turn 2: both duelists lay a card face down and draw back up to three.",
        "Inés draws 1 card.",
        "Lope draws 1 card.",
        "Turn 2: Inés plays Finta (Ventaja +4 vs Treta), Lope plays Treta; 10 (3+3 +4) vs 3 (1+2); Inés wins with "
        "Finta (TA 3): Inés's clock 1/4; Lope must discard a card.",
        "Lope discards Estocada Alta (shown): 2 cards in hand."]


def test_an_insult_in_a_superiority_duel_reads_the_meter():
    t = physical(kind="superioridad", meter_steps=4)
    t.turn(INSULTO, FINTA, a=[5, 5], b=[1, 2])
    assert log(t)[-1] == ("Turn 1: Inés plays Insulto (Ventaja +4 vs Finta), Lope plays Finta; 14 (5+5 +4) vs 3 (1+2); "
                          "Inés wins with Insulto (TA 5): meter at the middle; Lope takes 5 PM damage.")


@pytest.mark.parametrize("loser", SIDES)
def test_discard_refusals_point_at_their_field_for_either_loser(loser):
    from tracker.rules.rocet.commands import Discard
    t = physical()
    assert refusal(t, Discard(side=loser, card=EA)) == \
        ("no discard is owed: only the loser of a Treta or Finta turn discards", None)
    t = won_with(other(loser), card=FINTA)
    assert refusal(t, Discard(side=other(loser), card=EA)) == \
        (f"{NAMES[other(loser)]} owes no discard: it is {NAMES[loser]}'s to make", "side")
    assert refusal(t, Discard(side=loser)) == \
        (f"say which card {NAMES[loser]} discards (it is shown to all)", "card")


def test_a_virtual_discard_must_be_in_hand_and_an_empty_hand_discards_nothing():
    from tracker.rules.rocet.commands import Discard
    from tracker.rules.rocet.events import RocetCardDiscarded
    t = Table({"cards": "virtual"}, piles=[[EA, FINTA, INSULTO, TRETA, TC, EP, EA, TRETA]])
    hand = t.state["sides"]["a"]["hand"]
    t.turn(FINTA, TRETA, a=[3, 3], b=[1, 2])
    held = t.state["sides"]["b"]["hand"]
    missing = next(c for c in (EA, EP, TC, FINTA, TRETA, INSULTO) if c not in held)
    assert refusal(t, Discard(side="b", card=missing)) == \
        ("that card is not in Lope's hand", "card")
    empty = json.loads(json.dumps(t.state))
    empty["sides"]["b"].update(hand=[], hand_size=0)  # and the discards to shuffle when its pile runs out
    assert rocet.decide(empty, Discard(side="b"), Dice())[0] == RocetCardDiscarded(side="b", card="")
    assert hand


def test_a_clock_filled_by_an_attack_after_one_tie_waits_for_the_damage_then_wins():
    t = physical(kind="relojes", clock_size=2)
    t.turn(EP, EA, a=[1, 4, 3, 3], b=[5, 4, 1, 2])
    assert log(t)[-1] == (
        "Turn 1: Inés plays Estocada Profunda (Ventaja +4 vs Estocada Alta), Lope plays Estocada Alta; 10 (3+3 +4) "
        "vs 3 (1+2) (after ties rerolled: 9 (1+4 +4) vs 9 (5+4)); Inés wins with Estocada Profunda (TA 3): Inés's "
        "clock 2/2; Inés may deal 6 PG damage (TA 3 + 3); Inés wins the duel (clock) once the damage is dealt or "
        "declined.")
    t = physical(kind="relojes", clock_size=1)
    t.turn(FINTA, TRETA, a=[3, 3], b=[1, 2])
    assert log(t)[-2:] == [
        "Turn 1: Inés plays Finta (Ventaja +4 vs Treta), Lope plays Treta; 10 (3+3 +4) vs 3 (1+2); Inés wins with "
        "Finta (TA 3): Inés's clock 1/1; Inés wins the duel (clock).",
        "Duel ended: Inés won by clock (Inés completed their clock)."]


@pytest.mark.parametrize("winner", SIDES)
def test_a_dead_loser_is_also_past_unconscious_for_either_winner(winner):
    from tracker.rules.rocet.invariants import ENDINGS
    state = {"fallen": {other(winner): "dead"}}
    assert (ENDINGS["unconscious"](state, winner), ENDINGS["death"](state, winner)) == ("", "")
    state = {"fallen": {other(winner): "unconscious"}}
    assert (ENDINGS["unconscious"](state, winner), ENDINGS["death"](state, winner)) == ("", "the loser is not dead")


def test_a_virtual_pile_miscounted_alone_is_named():
    t = Table({"cards": "virtual"}, piles=[[EA, FINTA, INSULTO, TRETA, TC, EP]])
    broken = json.loads(json.dumps(t.state))
    broken["decks"]["shared"]["pile_size"] -= 1
    assert invariants(broken) == ["deck shared: the pile or discards miscount their cards"]


# --- set-up: each refusal word for word by its field, and the header -----------------------------

def start_refused(setup, people=None, header=None):
    from tests.unit.test_rocet_duels import HEADER, duelists
    with pytest.raises(Refused) as refused:
        rocet.start(header or HEADER, setup, people or duelists(), Dice(shuffle=lambda n: list(range(n))))
    return refused.value.reason, refused.value.field


INES_WEAPONS = "Ropera (Espada), Daga de mano (Daga), Pistola (Pistola)"


def test_each_set_up_refusal_reads_and_names_its_field():
    from tests.unit.test_rocet_duels import HEADER, duelists
    ines, lope = duelists()
    pick = "picks the weapon type for both (Espada or Daga), unless both agree to pick their own"
    assert start_refused({}) == (f"the challenged side (side A) {pick}", "weapon_type")  # HEADER: b challenges
    assert start_refused({}, header=dict(HEADER, challenger="a")) == (f"the challenged side (side B) {pick}",
                                                                      "weapon_type")
    assert start_refused({}, header=dict(HEADER, challenger="")) == (f"the challenged side {pick}", "weapon_type")
    assert start_refused({"weapon_type": "Espada", "weapon_a": "Florete"}) == \
        (f"Inés's sheet has no weapon called “Florete” (weapons: {INES_WEAPONS})", "weapon_a")
    assert start_refused({"own_weapons": True}) == \
        (f"choose Inés's weapon: the sheet has 2 of type Espada or Daga (weapons: {INES_WEAPONS})", "weapon_a")
    assert start_refused({"own_weapons": True, "weapon_a": "Pistola"}) == \
        ("Inés's Pistola is a Pistola: only an Espada or a Daga may be used in a duel", "weapon_a")
    assert start_refused({"weapon_type": "Daga", "weapon_b": "Sable"}) == \
        ("Lope's Sable is a Espada, but the challenged side picked Daga for both (unless both agree to pick their "
         "own)", "weapon_b")
    assert start_refused({"weapon_type": "Espada"}, [ines]) == \
        ("a Rocèt duel is fought by exactly two duelists, one on each side", None)
    assert start_refused({"weapon_type": "Espada"}, [ines, dict(lope, id="ines")]) == \
        ("Inés cannot duel themselves: pick two different characters", "duelist_b")
    assert start_refused({"weapon_type": "Espada"}, [ines, dict(lope, rank="soldado")]) == \
        ("Lope may not duel: only player characters and Villano, Élite or Campeón NPCs fight Rocèt duels "
         "(rank: soldado)", "duelist_b")
    assert start_refused({"weapon_type": "Espada"}, [dict(ines, stats=None), lope]) == \
        ("Inés has no Rocèt stats block on their sheet (DES, INT, PG, PM, weapons)", "duelist_a")


def test_the_header_goes_into_the_first_event_with_empty_defaults():
    from tests.unit.test_rocet_duels import HEADER, duelists
    [started, *_] = rocet.start(HEADER, {"weapon_type": "Espada", "cards": "physical"}, duelists(), Dice())
    assert (started.duel_id, started.campaign_id, started.session_id, started.ruleset) == ("d1", "c1", "s1", "rocet")
    assert (started.challenger, started.stakes, started.judge) == ("b", "the ship", "")
    [bare, *_] = rocet.start({"duel_id": "d2", "campaign_id": "c2", "session_id": "s2", "judge": "Don Diego"},
                             {"weapon_type": "Daga", "cards": "physical"}, duelists(), Dice())
    assert (bare.challenger, bare.stakes, bare.judge) == ("", "", "Don Diego")
    assert [d["weapon"]["name"] for d in bare.duelists] == ["Daga de mano", "Puñal"]


def test_more_log_lines_word_for_word():
    from tests.unit.test_rocet_duels import duelists
    assert log(physical(kind="superioridad", meter_steps=3, deck="own"))[0] == (
        "Rocèt duel (Superioridad, 3 steps to each end): Inés (Ropera, Espada 3) vs Lope (Sable, Espada 2); "
        "an 18-card deck each, physical cards.")
    t = Table({"cards": "physical"}, people=duelists(pg_b=5))
    t.turn(EP, EA, a=[3, 3], b=[1, 2])
    t.do(DealDamage())
    assert log(t)[-1] == ("Inés deals 6 PG damage to Lope (TA 3 + Ropera 3): 0/25 PG — at 0 PG: the GM must say "
                          "whether unconscious or dead.")


def test_each_die_of_the_roll_off_names_whose_roll_or_the_tie_reroll():
    from tracker.rules.rocet.commands import PlayTurn
    t = physical()
    assert t.refused(PlayTurn(card_a=EA, card_b=EA), a=[9, 1], b=[1, 2]) == "a d8 cannot show 9 (DES, Inés's roll)"
    assert t.refused(PlayTurn(card_a=EA, card_b=EA), a=[1, 9], b=[1, 2]) == "a d8 cannot show 9 (INT, Inés's roll)"
    assert t.refused(PlayTurn(card_a=EA, card_b=EA), a=[3, 4, 9, 1], b=[3, 4]) == \
        "a d8 cannot show 9 (DES, a tie reroll)"
