"""Rocèt at its edges: every rule for both sides, every comparison at exact equality, every setting both ways."""
from __future__ import annotations

from tests import plain_json as json

import pytest

from tracker.rules import rocet
from tracker.rules.duel import DuelWon, other
from tracker.rules.rocet.effects import turn_effect
from tracker.rules.rocet.terms import ATTACKS, CARDS, advantage, compare, critical, effect, fumble, label

from tests.unit.test_rocet_duels import EA, EP, FINTA, INSULTO, TC, TRETA, Table, resolved

SIDES = ("a", "b")
MIRROR = {"a": "b", "b": "a", "tie": "tie"}


# --- the opposed roll, mirrored: what side A's dice do, side B's dice do too ---------------

ROLLS = [  # (pair_a, pair_b, bonus_a, bonus_b, result)
    ((6, 6), (8, 7), 0, 0, "a"),  # a critical beats 15
    ((6, 6), (5, 5), 0, 4, "a"),  # 6+6 is the smallest critical; 5+5+4 = 14 does not matter
    ((5, 5), (4, 5), 0, 0, "a"),  # 5+5 is no critical: plain totals
    ((5, 5), (6, 6), 4, 0, "b"),  # ... so it loses to 6+6 even with Ventaja
    ((8, 8), (6, 6), 0, 0, "tie"),  # two criticals tie whatever the totals
    ((1, 1), (1, 2), 4, 0, "b"),  # a fumble loses even with Ventaja
    ((1, 1), (1, 1), 0, 0, "tie"),  # two fumbles tie
    ((1, 1), (2, 2), 0, 0, "b"),  # 2+2 is no fumble
    ((6, 6), (1, 1), 0, 0, "a"),
    ((3, 4), (5, 6), 4, 0, "tie"),  # 7+4 = 11: equal totals tie
    ((3, 4), (5, 6), 5, 0, "a"),  # one more is a win
    ((3, 4), (5, 6), 3, 0, "b"),  # one less is a loss
    ((2, 3), (2, 3), 0, 0, "tie"),
]


@pytest.mark.parametrize("winner_side", SIDES)
@pytest.mark.parametrize("pair_a, pair_b, bonus_a, bonus_b, result", ROLLS)
def test_the_opposed_roll_is_the_same_from_either_side(pair_a, pair_b, bonus_a, bonus_b, result, winner_side):
    if winner_side == "a":
        assert compare(pair_a, pair_b, bonus_a, bonus_b) == result
    else:
        assert compare(pair_b, pair_a, bonus_b, bonus_a) == MIRROR[result]


@pytest.mark.parametrize("pair, is_critical, is_fumble, text", [
    ((6, 6), True, False, "6+6 critical"), ((7, 7), True, False, "7+7 critical"),
    ((5, 5), False, False, "5+5"), ((6, 5), False, False, "6+5"), ((5, 6), False, False, "5+6"),
    ((1, 1), False, True, "1+1 fumble"), ((1, 2), False, False, "1+2"), ((2, 1), False, False, "2+1"),
    ((2, 2), False, False, "2+2"),
])
def test_criticals_and_fumbles_at_their_edges(pair, is_critical, is_fumble, text):
    assert (critical(pair), fumble(pair), label(pair)) == (is_critical, is_fumble, text)


@pytest.mark.parametrize("card", CARDS)
def test_ventaja_is_mirrored_for_every_card(card):
    beaten = next(c for c in CARDS if advantage(card, c) == "a")
    assert advantage(beaten, card) == "b"
    assert advantage(card, card) == ""
    assert effect(card) == ("attack" if card in ATTACKS else "discard" if card in (FINTA, TRETA) else "insult")


# --- what a won turn does, from the winner's side, for both winners --------------------------

def board(variant, mine, theirs, winner, meter=0, clock_size=4, meter_steps=4, **settings):
    """A state where ``winner`` has ``mine`` intervals and the meter stands ``meter`` toward them."""
    toward = 1 if winner == "a" else -1
    return {"sides": {winner: {"clock": mine}, other(winner): {"clock": theirs}},
            "meter": meter * toward, "variant": variant, "clock_size": clock_size, "meter_steps": meter_steps,
            "settings": dict({"clock_floor": True, "restart": "zero"}, **settings)}


EFFECTS = [  # (variant, card, mine, theirs, meter, settings) -> (mine, theirs, meter, win, completed, offers)
    # Clocks: an exactly full clock wins, whatever card fills it; one short does not.
    ("relojes", FINTA, 3, 0, 0, {}, (4, 0, 0, "clock", False, [])),
    ("relojes", TRETA, 2, 0, 0, {}, (3, 0, 0, "", False, [])),
    ("relojes", EA, 2, 0, 0, {}, (4, 0, 0, "clock", False, ["attack"])),
    ("relojes", TC, 1, 0, 0, {}, (3, 0, 0, "", False, ["attack"])),
    ("relojes", EP, 3, 0, 0, {}, (4, 0, 0, "clock", False, ["attack"])),  # 5 of 4 stands at 4
    # Insulto: the loser's clock loses exactly 3, the winner's stays; floor at 0 or debt.
    ("relojes", INSULTO, 1, 3, 0, {}, (1, 0, 0, "", False, [])),
    ("relojes", INSULTO, 1, 2, 0, {}, (1, 0, 0, "", False, [])),
    ("relojes", INSULTO, 1, 4, 0, {"clock_floor": False}, (1, 1, 0, "", False, [])),
    ("relojes", INSULTO, 1, 2, 0, {"clock_floor": False}, (1, -1, 0, "", False, [])),
    ("relojes", INSULTO, 3, 3, 0, {}, (3, 0, 0, "", False, [])),  # Insulto never fills a clock
    # ¡A muerte!: a completed clock offers its damage and restarts from 0, or carries the excess.
    ("a_muerte", EA, 2, 1, 0, {}, (0, 1, 0, "", True, ["attack", "clock"])),
    ("a_muerte", EA, 3, 1, 0, {}, (0, 1, 0, "", True, ["attack", "clock"])),
    ("a_muerte", EA, 3, 1, 0, {"restart": "carry"}, (1, 1, 0, "", True, ["attack", "clock"])),
    ("a_muerte", EA, 2, 1, 0, {"restart": "carry"}, (0, 1, 0, "", True, ["attack", "clock"])),
    ("a_muerte", FINTA, 3, 1, 0, {}, (0, 1, 0, "", True, ["clock"])),
    ("a_muerte", FINTA, 2, 1, 0, {}, (3, 1, 0, "", False, [])),
    ("a_muerte", INSULTO, 1, 3, 0, {}, (1, 0, 0, "", False, [])),
    # Superioridad: attacks move 2, Treta and Finta 1; the end of the meter exactly wins.
    ("superioridad", EA, 0, 0, 2, {}, (0, 0, 4, "superiority", False, ["attack"])),
    ("superioridad", EA, 0, 0, 3, {}, (0, 0, 4, "superiority", False, ["attack"])),  # never past the end
    ("superioridad", EA, 0, 0, 1, {}, (0, 0, 3, "", False, ["attack"])),
    ("superioridad", FINTA, 0, 0, 3, {}, (0, 0, 4, "superiority", False, [])),
    ("superioridad", TRETA, 0, 0, -4, {}, (0, 0, -3, "", False, [])),
    # Insulto takes back at most 3 of the loser's superiority and never crosses the middle.
    ("superioridad", INSULTO, 0, 0, -4, {}, (0, 0, -1, "", False, [])),
    ("superioridad", INSULTO, 0, 0, -3, {}, (0, 0, 0, "", False, [])),
    ("superioridad", INSULTO, 0, 0, -1, {}, (0, 0, 0, "", False, [])),
    ("superioridad", INSULTO, 0, 0, 0, {}, (0, 0, 0, "", False, [])),
    ("superioridad", INSULTO, 0, 0, 2, {}, (0, 0, 2, "", False, [])),
    # Primera sangre: only an attack won ends it.
    ("primera_sangre", TC, 0, 0, 0, {}, (0, 0, 0, "first_blood", False, ["attack"])),
    ("primera_sangre", TRETA, 0, 0, 0, {}, (0, 0, 0, "", False, [])),
    ("primera_sangre", INSULTO, 0, 0, 0, {}, (0, 0, 0, "", False, [])),
]


@pytest.mark.parametrize("winner", SIDES)
@pytest.mark.parametrize("variant, card, mine, theirs, meter, settings, expected", EFFECTS)
def test_a_won_turn_does_the_same_for_either_winner(variant, card, mine, theirs, meter, settings, expected, winner):
    state = board(variant, mine, theirs, winner, meter, **settings)
    cards = {winner: card, other(winner): TC if card != TC else EA}
    moved = turn_effect(state, cards["a"], cards["b"], winner)
    toward = 1 if winner == "a" else -1
    got = (moved["clocks"][winner], moved["clocks"][other(winner)], moved["meter"] * toward,
           moved["win"], moved["completed"], moved["offers"])
    assert got == expected


def test_the_meter_end_is_the_setting_not_a_constant():
    moved = turn_effect(board("superioridad", 0, 0, "a", 5, meter_steps=6), FINTA, TRETA, "a")
    assert (moved["meter"], moved["win"]) == (6, "superiority")
    moved = turn_effect(board("superioridad", 0, 0, "a", 4, meter_steps=6), FINTA, TRETA, "a")
    assert (moved["meter"], moved["win"]) == (5, "")


# --- a duel won by a card that is not an attack records its win at once, for either side ----

def physical(**setup):
    return Table(dict({"cards": "physical"}, **setup))


@pytest.mark.parametrize("winner", SIDES)
@pytest.mark.parametrize("setup, ending, detail", [
    ({"kind": "relojes", "clock_size": 1}, "clock", "completed their clock"),
    ({"kind": "superioridad", "meter_steps": 1}, "superiority", "reached their end of the superiority meter"),
])
def test_a_treta_or_finta_that_fills_the_clock_or_meter_wins_the_duel(setup, ending, detail, winner):
    t = physical(**setup)
    rolls = {winner: [4, 4], other(winner): [1, 2]}
    cards = {winner: FINTA, other(winner): TRETA}  # Finta beats Treta: the winner also has Ventaja
    events = t.turn(cards["a"], cards["b"], a=rolls["a"], b=rolls["b"])
    ev = resolved(events)
    assert (ev.winner, ev.win, ev.discard_owed, ev.offers) == (winner, ending, False, ())
    name = t.state["sides"][winner]["name"]
    assert events[-1] == DuelWon(side=winner, ending=ending)
    assert t.state["outcome"]["detail"] == f"{name} {detail}"
    assert t.state["outcome"]["winner"] == winner
    assert t.state["pending_discard"] is None


@pytest.mark.parametrize("winner", SIDES)
def test_first_blood_for_either_side_waits_for_the_damage_then_wins(winner):
    t = physical(kind="primera_sangre")
    cards = {winner: EP, other(winner): EA}  # Estocada Profunda beats Estocada Alta
    ev = resolved(t.turn(cards["a"], cards["b"], a={winner: [3, 3]}.get("a", [1, 2]),
                         b={winner: [3, 3]}.get("b", [1, 2])))
    assert (ev.winner, ev.win, ev.advantage) == (winner, "first_blood", winner)
    assert t.state["outcome"] is None
    won = t.do(rocet.commands.DealDamage())
    assert won[-1].side == winner and won[-1].ending == "first_blood"


@pytest.mark.parametrize("winner", SIDES)
def test_a_critical_or_a_fumble_decides_the_turn_for_either_side(winner):
    t = physical()
    loser = other(winner)
    # The loser has Ventaja (Estocada Profunda beats Estocada Alta) and a higher total, but the winner's 6+6 is a critical.
    cards = {winner: EA, loser: EP}
    ev = resolved(t.turn(cards["a"], cards["b"], a={winner: [6, 6], loser: [7, 8]}["a"],
                         b={winner: [6, 6], loser: [7, 8]}["b"]))
    assert (ev.advantage, ev.winner) == (loser, winner)
    t2 = physical()
    cards = {winner: EA, loser: EP}
    ev = resolved(t2.turn(cards["a"], cards["b"], a={winner: [1, 2], loser: [1, 1]}["a"],
                          b={winner: [1, 2], loser: [1, 1]}["b"]))
    assert (ev.advantage, ev.winner, ev.ta) == (loser, winner, 2)


@pytest.mark.parametrize("side", SIDES)
def test_either_side_may_yield(side):
    from tracker.rules.duel import DuelYielded, Yield
    t = physical()
    events = t.do(Yield(side=side))
    assert any(isinstance(e, DuelYielded) and e.side == side for e in events)
    assert t.state["outcome"]["winner"] == other(side)


# --- what the page shows of a turn, for either winner --------------------------------------

@pytest.mark.parametrize("winner", SIDES)
def test_the_last_rolls_read_the_same_for_either_side(winner):
    t = physical()
    loser = other(winner)
    cards = {winner: EP, loser: EA}  # the winner has Ventaja
    dice = {winner: [3, 3, 6, 6], loser: [5, 5, 1, 2]}  # 3+3+4 ties 5+5, then a critical beats 1+2
    t.turn(cards["a"], cards["b"], a=dice["a"], b=dice["b"])
    rows = rocet.last_rolls(t.state)
    assert [row["result"] for row in rows] == ["tie", winner]
    assert rows[0][winner] == {"dice": [3, 3], "bonus": 4, "total": 10, "mark": ""}
    assert rows[0][loser] == {"dice": [5, 5], "bonus": 0, "total": 10, "mark": ""}
    assert rows[1][winner] == {"dice": [6, 6], "bonus": 4, "total": 16, "mark": "critical"}
    assert rows[1][loser] == {"dice": [1, 2], "bonus": 0, "total": 3, "mark": ""}
    assert rocet.beats(EP) == EA


def test_no_turn_no_rolls_and_a_fumble_is_marked():
    t = physical()
    assert rocet.last_rolls(t.state) == []
    t.turn(EA, EA, a=[1, 1], b=[2, 1])
    assert rocet.last_rolls(t.state)[0]["a"]["mark"] == "fumble"


def test_only_virtual_hands_are_secrets():
    assert rocet.secrets(physical().state) == []
    t = Table({"cards": "virtual"}, piles=[[EA, FINTA, INSULTO, TRETA, TC, EP]])
    assert rocet.secrets(t.state) == ["Inés's hand: Estocada Alta, Finta, Insulto",
                                      "Lope's hand: Treta, Tajo Circular, Estocada Profunda"]
    emptied = dict(t.state, sides={s: dict(v, hand=[]) for s, v in t.state["sides"].items()})
    assert rocet.secrets(emptied) == ["Inés's hand: empty", "Lope's hand: empty"]


# --- the endings the fold accepts, checked at their edges for either winner -------------------

from tracker.rules.rocet.invariants import ENDINGS, invariants  # noqa: E402


def ending_state(winner, **changes):
    loser = other(winner)
    state = {"sides": {winner: {"clock": 4}, loser: {"clock": 0}}, "clock_size": 4, "meter_steps": 3,
             "meter": 3 if winner == "a" else -3, "last_turn": {"winner": winner, "card": EA}, "fallen": {}}
    state.update(changes)
    return state


@pytest.mark.parametrize("winner", SIDES)
def test_each_ending_holds_exactly_at_its_edge_for_either_winner(winner):
    loser = other(winner)
    assert ENDINGS["clock"](ending_state(winner), winner) == ""
    short = ending_state(winner, sides={winner: {"clock": 3}, loser: {"clock": 4}})
    assert ENDINGS["clock"](short, winner) == "the clock stands at 3/4"
    assert ENDINGS["superiority"](ending_state(winner), winner) == ""
    toward = 1 if winner == "a" else -1
    assert ENDINGS["superiority"](ending_state(winner, meter=2 * toward), winner) == \
        f"the meter stands at {2 * toward} of 3"
    assert ENDINGS["superiority"](ending_state(winner, meter=-3 * toward), winner) == \
        f"the meter stands at {-3 * toward} of 3"
    assert ENDINGS["first_blood"](ending_state(winner), winner) == ""
    for last in ({"winner": loser, "card": EA}, {"winner": winner, "card": FINTA}, None):
        assert ENDINGS["first_blood"](ending_state(winner, last_turn=last), winner) == \
            "the last turn was not won with an attack"
    for fallen, unconscious, dead in (({loser: "unconscious"}, "", "the loser is not dead"),
                                      ({loser: "dead"}, "", ""),
                                      ({winner: "dead"}, "the loser is not unconscious", "the loser is not dead"),
                                      ({}, "the loser is not unconscious", "the loser is not dead")):
        state = ending_state(winner, fallen=fallen)
        assert (ENDINGS["unconscious"](state, winner), ENDINGS["death"](state, winner)) == (unconscious, dead)


def test_a_reachable_state_has_no_invariant_problems_and_a_broken_one_says_what_broke():
    t = Table({"kind": "relojes", "clock_size": 4, "cards": "virtual"}, piles=[[EA, FINTA, INSULTO, TRETA, TC, EP]])
    assert invariants(t.state) == []
    broken = json.loads(json.dumps(t.state))
    broken["sides"]["a"]["hand_size"] = 4
    broken["sides"]["b"]["pg"] = -1
    broken["sides"]["b"]["clock"] = 4  # a full clock with no win
    problems = invariants(broken)
    assert "side a holds 4 cards" in problems
    assert "side a's hand lists 3 cards but counts 4" in problems
    assert "side b's PG is -1" in problems
    assert "side b's clock stands at 4/4" in problems
    broken = json.loads(json.dumps(t.state))
    broken["sides"]["a"]["clock"] = 3
    assert invariants(broken) == []  # one short of full is fine
    broken["sides"]["a"]["clock"] = -1
    assert invariants(broken) == ["side a's clock stands at -1/4"]
    broken["meter"] = 1
    assert "the superiority meter moved in a duel without one" in invariants(broken)


@pytest.mark.parametrize("steps, meter, ok", [(3, 2, True), (3, -2, True), (3, 3, False), (3, -3, False)])
def test_the_meter_may_not_reach_an_end_without_a_win(steps, meter, ok):
    t = physical(kind="superioridad", meter_steps=steps)
    state = dict(t.state, meter=meter)
    assert (invariants(state) == []) is ok


def test_a_physical_deck_counts_its_cards():
    t = physical()
    assert invariants(t.state) == []
    broken = json.loads(json.dumps(t.state))
    broken["decks"]["shared"]["pile_size"] -= 1
    assert invariants(broken) == ["deck shared holds 35 cards instead of 36"]


@pytest.mark.parametrize("meter, text", [(0, "at the middle"), (2, "2/4 toward Inés"), (-1, "1/4 toward Lope"),
                                         (-4, "4/4 toward Lope")])
def test_the_meter_reads_toward_either_side(meter, text):
    t = physical(kind="superioridad", meter_steps=4)
    assert rocet.meter_text(t.state, meter) == text


def test_the_history_keeps_every_card_laid_and_who_won_it():
    t = physical()
    t.turn(EA, EP, a=[1, 2], b=[4, 4])
    t.do(rocet.commands.DeclineDamage())
    events = [e for e in t.events if type(e).__name__ == "RocetTurnResolved"]
    facts = rocet.history_facts(t.state, events)
    assert facts.turns == 1
    assert [(f.kind, f.character, f.subject, f.round, f.won) for f in facts.facts] == [
        ("cards", "ines", EA, 1, False), ("cards", "lope", EP, 1, True)]


@pytest.mark.parametrize("setup, present, absent", [
    ({"reshuffle": True}, "When a pile runs out, its discards are shuffled into a new pile.",
     "When a pile runs out, nobody draws from it again (no reshuffle)."),
    ({"reshuffle": False}, "When a pile runs out, nobody draws from it again (no reshuffle).",
     "When a pile runs out, its discards are shuffled into a new pile."),
    ({"clock_floor": True}, "A clock never goes below 0.", "A clock may go below 0 (Insulto can leave it in debt)."),
    ({"clock_floor": False}, "A clock may go below 0 (Insulto can leave it in debt).", "A clock never goes below 0."),
    ({"kind": "a_muerte", "restart": "zero"}, "A completed clock starts again from 0.",
     "A completed clock keeps the intervals past its end."),
    ({"kind": "a_muerte", "restart": "carry"}, "A completed clock keeps the intervals past its end.",
     "A completed clock starts again from 0."),
    ({"kind": "superioridad", "meter_steps": 5},
     "The superiority meter starts in the middle; a duelist wins on reaching their end, 5 steps out.",
     "A clock never goes below 0."),
    ({"kind": "primera_sangre"}, "PG and PM never go below 0: damage beyond what is left is not recorded.",
     "A clock never goes below 0."),
])
def test_the_assumptions_follow_each_setting(setup, present, absent):
    notes = rocet.assumptions(physical(**setup).state)
    assert present in notes and absent not in notes
    assert notes[1] == ("The Ventaja cycle's sixth card, printed as a second Estocada Profunda, is read as Insulto "
                        "(Insulto beats Finta).")
    assert notes[2] == "PG damage dealt “the usual way” is TA + the weapon's fixed damage."
    assert notes[0].startswith("Where Rocèt is silent, Fabula Ultima's rules apply: a roll is the DES die plus the INT die "
                               "(+4 with Ventaja); a tie is rerolled; a double of 6 or more is a critical")
    assert "A forced discard from an empty hand does nothing." in notes
    assert ("The cards played in a turn go to the discards once the turn is resolved, "
            "after both duelists drew back up to three.") in notes
    death = ("A duelist at 0 PG in a duel to the death is confirmed dead (or yields): "
             "an unconscious duelist cannot go on.")
    assert (death in notes) is (setup.get("kind") == "a_muerte")


def test_the_roll_has_no_bonus_unless_given():
    assert compare((3, 4), (4, 3)) == "tie"
    assert compare((3, 4), (4, 3), 1) == "a"
    assert compare((3, 4), (4, 3), 0, 1) == "b"
