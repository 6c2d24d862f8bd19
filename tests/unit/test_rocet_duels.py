"""Rocèt duels played turn by turn with fixed dice, in every variant and both card modes."""
from __future__ import annotations

from tests import plain_json as json

import pytest

from tracker.rules import rocet
from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import DuelWon
from tracker.rules.rocet.commands import (
    ConfirmDeath, ConfirmUnconscious, DealDamage, DeclineDamage, Discard, PlayTurn,
)
from tracker.rules.rocet.events import RocetDamageDealt, RocetTurnResolved
from tracker.rules.rocet.terms import deck_cards

EA, EP, TC = "Estocada Alta", "Estocada Profunda", "Tajo Circular"
FINTA, TRETA, INSULTO = "Finta", "Treta", "Insulto"

HEADER = {"duel_id": "d1", "campaign_id": "c1", "session_id": "s1", "stakes": "the ship",
          "judge": "", "challenger": "b"}


def sheet(pg=30, pm=20, weapons="Ropera | Espada | 3\nDaga de mano | Daga | 1\nPistola | Pistola | 6"):
    return rocet.validate_stats({"des": "d8", "int": "d8", "pg_max": pg, "pm_max": pm, "weapons": weapons})


def duelists(pg_a=30, pg_b=25, rank_b="villano"):
    return [
        {"id": "ines", "name": "Inés", "side": "a", "rank": "pj", "stats": sheet(30, 20),
         "current": {"PG": pg_a, "PM": 20}},
        {"id": "lope", "name": "Lope", "side": "b", "rank": rank_b,
         "stats": sheet(25, 15, "Sable | Espada | 2\nPuñal | Daga | 1"), "current": {"PG": pg_b, "PM": 15}},
    ]


def stacked(top: list[str], size: int) -> list[int]:
    """A shuffle order that puts ``top`` on top of a fresh deck of ``size`` cards."""
    fresh = deck_cards(size)
    order = []
    for card in top:
        order.append(next(i for i, c in enumerate(fresh) if c == card and i not in order))
    return order + [i for i in range(size) if i not in order]


def play(events) -> dict:
    state = None
    for at, ev in enumerate(events, 1):
        state = rocet.evolve(state, ev, at)
    return state


class Table:
    """A duel at the table: send commands with typed dice, keep the events and the state."""

    def __init__(self, setup=None, piles=(), people=None):
        self.setup = dict({"weapon_type": "Espada"}, **(setup or {}))
        orders = iter(piles)
        size = 36 if self.setup.get("deck", "shared") == "shared" else 18
        self.events = rocet.start(HEADER, self.setup, people or duelists(),
                                  Dice(shuffle=lambda n: stacked(next(orders), size)))
        self.state = play(self.events)

    @classmethod
    def given(cls, events):
        table = cls.__new__(cls)
        table.events = list(events)
        table.state = play(table.events)
        return table

    def do(self, cmd, a=(), b=(), shuffle=None):
        before = json.dumps(self.state, sort_keys=True)
        dice = Dice({"a": list(a), "b": list(b)}, shuffle=shuffle)
        new = rocet.decide(self.state, cmd, dice)
        assert json.dumps(self.state, sort_keys=True) == before, "decide changed its input"
        assert dice.leftover() == {}, "typed dice left unused"
        for ev in new:
            self.events.append(ev)
            self.state = rocet.evolve(self.state, ev, len(self.events))
        return new

    def turn(self, card_a, card_b, a, b):
        return self.do(PlayTurn(card_a=card_a, card_b=card_b), a, b)

    def refused(self, cmd, a=(), b=()) -> str:
        with pytest.raises(Refused) as refusal:
            rocet.decide(self.state, cmd, Dice({"a": list(a), "b": list(b)}))
        return refusal.value.reason

    def sides(self, key):
        return self.state["sides"]["a"][key], self.state["sides"]["b"][key]

    def snapshot(self) -> dict:
        return {"clocks": self.sides("clock"), "meter": self.state["meter"],
                "hands": self.sides("hand_size"), "pg": self.sides("pg"), "pm": self.sides("pm")}

    def hands(self):
        return self.sides("hand")


def resolved(events) -> RocetTurnResolved:
    return next(ev for ev in events if isinstance(ev, RocetTurnResolved))


MODES = ["virtual", "physical"]


# --- Clocks ----------------------------------------------------------------------------

CLOCK_PILE = [EA, FINTA, INSULTO, TRETA, TC, EP,  # the hands: Inés, then Lope
              EP, INSULTO,  # turn 1 draws
              TC, EA, TRETA,  # turn 2: Lope held two cards after his forced discard
              FINTA, EP,  # turn 3
              INSULTO, FINTA,  # turn 4
              EA, TC, EP,  # turn 5
              TRETA, INSULTO]  # turn 6


@pytest.mark.parametrize("mode", MODES)
def test_clock_duel_first_to_complete_their_clock_wins(mode):
    t = Table({"kind": "relojes", "clock_size": 4, "cards": mode}, piles=[CLOCK_PILE])
    assert t.snapshot() == {"clocks": (0, 0), "meter": 0, "hands": (3, 3), "pg": (30, 25), "pm": (20, 15)}
    assert t.state["decks"]["shared"]["pile_size"] == 30

    # Turn 1: Finta beats Treta: Inés rolls with Ventaja (+4), 3+2+4=9 against 4+4=8.
    ev = resolved(t.turn(FINTA, TRETA, a=[3, 2], b=[4, 4]))
    assert (ev.advantage, ev.winner, ev.ta, ev.discard_owed) == ("a", "a", 3, True)
    assert t.snapshot() == {"clocks": (1, 0), "meter": 0, "hands": (3, 3), "pg": (30, 25), "pm": (20, 15)}
    assert t.state["pending_discard"] == "b"
    if mode == "virtual":
        assert t.hands() == ([EA, INSULTO, EP], [TC, EP, INSULTO])
        assert t.refused(Discard(side="b", card=FINTA)) == "that card is not in Lope's hand"
    assert t.refused(PlayTurn(card_a=EA, card_b=EP), a=[1, 1], b=[1, 1]) == \
        "Lope must first discard a card of their choice"
    assert "Inés owes no discard" in t.refused(Discard(side="a", card=EA))
    t.do(Discard(side="b", card=TC))
    assert t.snapshot()["hands"] == (3, 2)
    assert t.state["decks"]["shared"]["discard"] == [FINTA, TRETA, TC]

    # Turn 2: Lope plays from two cards and draws two. Insulto wins: Lope's clock stays at 0
    # (never below), and he takes Inés's TA (6) as PM damage.
    ev = resolved(t.turn(INSULTO, EP, a=[5, 6], b=[2, 3]))
    assert (ev.advantage, ev.winner, ev.ta, ev.pm_damage) == ("", "a", 6, 6)
    assert t.snapshot() == {"clocks": (1, 0), "meter": 0, "hands": (3, 3), "pg": (30, 25), "pm": (20, 9)}
    assert "no damage to deal: the winner's card was not an attack (Insulto)" == t.refused(DealDamage())

    # Turn 3: Estocada Alta beats Insulto; Inés wins, her clock 3/4, and deals TA 2 + Ropera 3.
    ev = resolved(t.turn(EA, INSULTO, a=[2, 1], b=[5, 1]))
    assert (ev.advantage, ev.winner, ev.ta, ev.offers) == ("a", "a", 2, ("attack",))
    assert t.snapshot()["clocks"] == (3, 0)
    dealt = t.do(DealDamage())
    assert dealt == [RocetDamageDealt(side="a", source="attack", amount=5, ta=2, weapon_damage=3)]
    assert t.snapshot() == {"clocks": (3, 0), "meter": 0, "hands": (3, 3), "pg": (30, 20), "pm": (20, 9)}
    assert "already dealt or declined" in t.refused(DealDamage())

    # Turn 4: Treta beats Tajo Circular: Lope wins (6+3+4=13 vs 7+5=12); Inés discards.
    ev = resolved(t.turn(TC, TRETA, a=[7, 5], b=[6, 3]))
    assert (ev.advantage, ev.winner) == ("b", "b")
    t.do(Discard(side="a", card=FINTA))
    assert t.snapshot() == {"clocks": (3, 1), "meter": 0, "hands": (2, 3), "pg": (30, 20), "pm": (20, 9)}

    # Turn 5: Inés has Ventaja but fumbles (1+1): any non-fumble beats her.
    ev = resolved(t.turn(EP, EA, a=[1, 1], b=[1, 2]))
    assert (ev.advantage, ev.winner, ev.ta) == ("a", "b", 2)
    assert t.snapshot() == {"clocks": (3, 3), "meter": 0, "hands": (3, 3), "pg": (30, 20), "pm": (20, 9)}
    assert t.state["pending_damage"]["offers"] == [{"source": "attack", "amount": 4}]

    # Turn 6 (Lope let his damage go by playing on): a tie, then two criticals (a tie), then
    # Inés wins; her clock completes, and the duel is hers once she deals or declines damage.
    events = t.turn(TC, EP, a=[2, 2, 6, 6, 3, 4], b=[5, 3, 7, 7, 2, 5])
    ev = resolved(events)
    assert ev.rolls == ((2, 2, 5, 3), (6, 6, 7, 7), (3, 4, 2, 5))
    assert (ev.advantage, ev.winner, ev.ta, ev.win) == ("a", "a", 4, "clock")
    assert not any(isinstance(e, DuelWon) for e in events)
    # 3 + 2 fills her 4-interval clock: it stands full at 4, never 5 of 4.
    assert t.snapshot() == {"clocks": (4, 3), "meter": 0, "hands": (3, 3), "pg": (30, 20), "pm": (20, 9)}
    assert rocet.actions(t.state) == ["DealDamage", "DeclineDamage", "Yield", "Disqualify", "Abandon"]
    assert "first settle the damage" in t.refused(PlayTurn(card_a=EA, card_b=EA))
    events = t.do(DealDamage(source="attack"))
    assert events[-1] == DuelWon(side="a", ending="clock")
    assert t.state["outcome"]["detail"] == "Inés completed their clock"
    assert t.snapshot()["pg"] == (30, 13)
    assert t.state["outcome"]["winner"] == "a"
    assert t.state["decks"]["shared"]["pile_size"] == 16
    assert t.state["decks"]["shared"]["discard_size"] == 14
    assert t.refused(PlayTurn(card_a=EA, card_b=EA)).startswith("this duel is over: Inés won by clock")
    assert rocet.actions(t.state) == []
    assert [w["amount"] for w in t.state["wounds"]] == [6, 5, 7]


# --- Primera sangre -------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_primera_sangre_first_attack_won_wins(mode):
    pile = [FINTA, INSULTO, EP, TRETA, EA, INSULTO, TC, FINTA, EA, TC, INSULTO]
    t = Table({"kind": "primera_sangre", "cards": mode}, piles=[pile])

    resolved(t.turn(FINTA, TRETA, a=[4, 4], b=[4, 4]))  # Finta > Treta: 12 vs 8
    t.do(Discard(side="b", card=FINTA))
    assert t.snapshot() == {"clocks": (0, 0), "meter": 0, "hands": (3, 2), "pg": (30, 25), "pm": (20, 15)}

    ev = resolved(t.turn(EP, INSULTO, a=[2, 3], b=[8, 1]))  # Insulto wins: TA 8 to Inés's PM
    assert (ev.winner, ev.pm_damage, ev.win) == ("b", 8, "")
    assert t.snapshot() == {"clocks": (0, 0), "meter": 0, "hands": (3, 3), "pg": (30, 25), "pm": (12, 15)}

    events = t.turn(INSULTO, EA, a=[3, 3], b=[5, 6])  # Estocada Alta > Insulto: first blood
    assert resolved(events).win == "first_blood"
    assert t.state["outcome"] is None
    events = t.do(DeclineDamage())
    assert events[-1] == DuelWon(side="b", ending="first_blood")
    assert t.state["outcome"]["detail"] == "Lope first blood"
    assert t.snapshot()["pg"] == (30, 25)  # first blood need not draw blood


# --- Superioridad -----------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_superioridad_meter_moves_toward_the_winner(mode):
    pile = [EA, INSULTO, FINTA, EP, TRETA, INSULTO,
            TRETA, EA, TC, EP, EA, INSULTO, EA, TRETA, TC, FINTA, TC]
    t = Table({"kind": "superioridad", "meter_steps": 4, "cards": mode}, piles=[pile])

    t.turn(EA, EP, a=[5, 3], b=[2, 3])  # EP > EA: 8 vs 9, Lope's attack: meter 2 toward him
    assert t.state["meter"] == -2
    t.do(DealDamage())  # TA 3 + Sable 2
    assert t.snapshot() == {"clocks": (0, 0), "meter": -2, "hands": (3, 3), "pg": (25, 25), "pm": (20, 15)}

    t.turn(INSULTO, TRETA, a=[6, 5], b=[3, 3])  # Insulto takes back Lope's superiority, to the middle
    assert t.snapshot() == {"clocks": (0, 0), "meter": 0, "hands": (3, 3), "pg": (25, 25), "pm": (20, 9)}

    ev = resolved(t.turn(FINTA, INSULTO, a=[2, 2], b=[4, 4]))  # Insulto never pushes past the middle
    assert (ev.winner, ev.meter, ev.pm_damage) == ("b", 0, 4)
    assert t.snapshot() == {"clocks": (0, 0), "meter": 0, "hands": (3, 3), "pg": (25, 25), "pm": (16, 9)}

    t.turn(TRETA, EA, a=[6, 5], b=[1, 2])  # Treta: meter 1 toward Inés, Lope discards
    t.do(Discard(side="b", card=TRETA))
    assert t.snapshot() == {"clocks": (0, 0), "meter": 1, "hands": (3, 2), "pg": (25, 25), "pm": (16, 9)}

    t.turn(TC, EP, a=[5, 5], b=[3, 4])  # Tajo Circular: meter 3 toward Inés
    assert t.snapshot() == {"clocks": (0, 0), "meter": 3, "hands": (3, 3), "pg": (25, 25), "pm": (16, 9)}

    ev = resolved(t.turn(EA, INSULTO, a=[1, 2], b=[3, 8]))  # Lope's Insulto takes back 3
    assert (ev.meter, ev.pm_damage) == (0, 8)

    t.turn(EA, FINTA, a=[8, 2], b=[1, 3])  # attack: 2 toward Inés
    t.turn(TC, TC, a=[4, 4], b=[3, 3])  # attack: 4 of 4 — her end
    assert t.state["meter"] == 4
    assert t.do(DealDamage())[-1] == DuelWon(side="a", ending="superiority")
    assert t.state["outcome"]["detail"] == "Inés reached their end of the superiority meter"
    assert t.snapshot() == {"clocks": (0, 0), "meter": 4, "hands": (3, 3), "pg": (25, 18), "pm": (8, 9)}


# --- ¡A muerte! --------------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_a_muerte_completed_clocks_offer_weapon_damage_and_only_death_ends_it(mode):
    pile_a = [EA, TC, EP, TRETA, EA, FINTA]
    pile_b = [INSULTO, EP, FINTA, TRETA, INSULTO, EP, TC]
    t = Table({"kind": "a_muerte", "deck": "own", "cards": mode}, piles=[pile_a, pile_b],
              people=duelists(pg_b=12))
    assert t.state["clock_size"] == 4
    assert {k: d["pile_size"] for k, d in t.state["decks"].items()} == {"a": 15, "b": 15}

    t.turn(EA, INSULTO, a=[3, 4], b=[2, 2])  # Estocada Alta > Insulto: clock 2/4
    assert t.snapshot() == {"clocks": (2, 0), "meter": 0, "hands": (3, 3), "pg": (30, 12), "pm": (20, 15)}

    ev = resolved(t.turn(TC, EP, a=[5, 1], b=[3, 4]))  # clock 4/4: complete, starts again at 0
    assert (ev.completed, ev.offers, ev.win) == (True, ("attack", "clock"), "")
    assert t.snapshot()["clocks"] == (0, 0)
    assert t.do(DealDamage(source="clock")) == [
        RocetDamageDealt(side="a", source="clock", amount=3, ta=0, weapon_damage=3)]  # Ropera 3, TA=0
    assert t.snapshot()["pg"] == (30, 9)
    # The damage on offer comes before the next turn (the first action ends a duel to the death).
    assert rocet.actions(t.state) == ["DealDamage", "DeclineDamage", "PlayTurn", "Yield", "Disqualify", "Abandon"]
    t.do(DealDamage(source="attack"))  # TA 5 + 3
    assert t.snapshot() == {"clocks": (0, 0), "meter": 0, "hands": (3, 3), "pg": (30, 1), "pm": (20, 15)}

    t.turn(EP, FINTA, a=[2, 2], b=[6, 1])  # Lope's Finta: his clock 1, Inés discards
    t.do(Discard(side="a", card=FINTA))
    assert t.snapshot() == {"clocks": (0, 1), "meter": 0, "hands": (2, 3), "pg": (30, 1), "pm": (20, 15)}

    t.turn(TRETA, TRETA, a=[8, 7], b=[1, 2])  # Inés's Treta: her clock 1, Lope discards
    t.do(Discard(side="b", card=TC))
    assert t.snapshot() == {"clocks": (1, 1), "meter": 0, "hands": (3, 2), "pg": (30, 1), "pm": (20, 15)}
    if mode == "virtual":
        assert t.hands() == ([EA] + t.hands()[0][1:], [INSULTO, EP])

    ev = resolved(t.turn(EA, EP, a=[6, 6], b=[5, 2]))  # Lope has Ventaja, but a critical beats 11
    assert (ev.advantage, ev.winner, ev.ta) == ("b", "a", 6)
    t.do(DealDamage())  # 9 damage, but Lope has 1 PG left
    assert t.snapshot() == {"clocks": (3, 1), "meter": 0, "hands": (3, 3), "pg": (30, 0), "pm": (20, 15)}
    assert [w["amount"] for w in t.state["wounds"]] == [3, 8, 1]
    assert t.state["pending_down"] == "b"
    assert rocet.actions(t.state) == ["ConfirmDeath", "Yield", "Disqualify", "Abandon"]
    assert "a duel to the death ends only by death" in t.refused(ConfirmUnconscious())
    assert "Lope is at 0 PG" in t.refused(PlayTurn(card_a=EA, card_b=EA))
    events = t.do(ConfirmDeath())
    assert events[-1] == DuelWon(side="a", ending="death")
    assert t.state["outcome"]["detail"] == "Lope died"
    assert t.state["fallen"] == {"b": "dead"}
    assert t.state["outcome"]["results"] == {"ines": "win", "lope": "loss"}


@pytest.mark.parametrize("asked", [6, 4, 12])
def test_a_muerte_records_the_four_interval_clocks_it_plays_with_whatever_size_was_asked(asked):
    """¡A muerte! clocks always have 4 intervals: the duel's settings say so, not the size typed."""
    t = Table({"kind": "a_muerte", "clock_size": asked, "cards": "physical"})
    assert t.events[0].settings["clock_size"] == 4 and t.state["clock_size"] == 4


def test_the_headline_names_the_turn_that_won_or_else_the_winners_last_turn():
    from tracker.rules import rocet
    from tracker.rules.rocet.events import RocetDamageDealt, RocetTurnResolved

    def turn(n, a, b, winner, rolls, win=""):
        return RocetTurnResolved(turn=n, card_a=a, card_b=b, advantage="", rolls=(rolls,), winner=winner, ta=5, win=win)

    state = {"sides": {"a": {"name": "Inés"}, "b": {"name": "Lope"}}, "outcome": {"winner": "b"}}
    events = list(enumerate([turn(1, "Finta", "Treta", "a", (6, 6, 2, 3)),
                             RocetDamageDealt(side="a", source="attack", amount=9, ta=6, weapon_damage=3),
                             turn(2, "Insulto", "Finta", "b", (1, 1, 4, 5)),
                             turn(3, "Tajo Circular", "Treta", "a", (2, 5, 1, 3))], 1))
    h = rocet.headline(state, events)
    assert h.decisive == "turn 2: Lope's Finta against Insulto"  # a yield: the winner's last turn won
    assert h.criticals == ("Inés rolled a critical (double 6) in turn 1", "Inés fumbled (double 1s) in turn 2")
    assert h.biggest == "Inés dealt 9 PG with their weapon in turn 1"
    won = list(enumerate([turn(1, "Finta", "Treta", "a", (2, 3, 2, 2)), turn(2, "Treta", "Estocada Alta", "a", (4, 4, 1, 2), win="clock")], 1))
    assert rocet.headline(dict(state, outcome={"winner": "a"}), won).decisive == "turn 2: Inés's Treta against Estocada Alta"
