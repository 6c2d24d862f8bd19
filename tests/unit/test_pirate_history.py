"""Pirate duels in the recap and in time travel: the headline (decisive blow, biggest hit or best
line, natural 1s and 20s) and each command's step, for every kind of duel and either side."""
from __future__ import annotations

import dataclasses

import pytest

from tracker.rules import pirate
from tracker.rules.contract import Step
from tracker.rules.pirate.events import (PirateDuelistFell, PirateInitiativeRolled, PirateInsultTraded,
                                         PirateShotFired, PirateSwordAttacked)

NAMES = {"a": "Guybrush", "b": "LeChuck"}
OTHER = {"a": "b", "b": "a"}


def state(kind: str = "sword", **changes) -> dict:
    return {"kind": kind, "fighters": {s: {"name": n} for s, n in NAMES.items()}, "outcome": None,
            "round": 2, "phase": "act", "order": ["b", "a"], "turn": 0, **changes}


def sword(side, round_, d20=10, hit=True, damage=3, weapon="Cutlass"):
    return PirateSwordAttacked(round=round_, side=side, weapon=weapon, edge="", d20s=(d20,), d20=d20, bonus=3,
                               total=d20 + 3, defence=12, hit=hit, damage_expression="1d6", damage_dice=(damage,),
                               damage=damage)


def shot(side, round_, d20=10, hit=True, damage=4):
    return PirateShotFired(round=round_, side=side, weapon="Flintlock", distance=10, range=10, edge="", d20s=(d20,),
                           d20=d20, bonus=3, total=d20 + 3, defence=12, hit=hit, damage_expression="1d8",
                           damage_dice=(damage,), damage=damage, shots_left=0)


def insult(side, round_, d20=10, hit=True, damage=2, words="You fight like a dairy farmer"):
    return PirateInsultTraded(round=round_, side=side, insult=words, edge="", d20s=(d20,), d20=d20, bonus=2,
                              total=d20 + 2, defence=11, hit=hit, damage_expression="1d4", damage_dice=(damage,),
                              damage=damage)


def headline(kind, events, winner=None):
    return pirate.headline(state(kind, outcome={"winner": winner} if winner else None), list(enumerate(events, 1)))


@pytest.mark.parametrize("side", ["a", "b"])
def test_a_sword_duel_headline_for_either_side(side):
    them = OTHER[side]
    events = [sword(side, 1, d20=20, damage=5), sword(them, 1, d20=1, hit=False, damage=0),
              sword(them, 2, damage=5), sword(side, 2, damage=2), sword(them, 3, hit=False, damage=4)]
    h = headline("sword", events, winner=side)
    me, other = NAMES[side], NAMES[them]
    assert h.decisive == f"{me}'s Cutlass for 2 PV in round 2"  # the winner's last landed blow
    assert h.biggest == f"{me}'s Cutlass for 5 PV in round 1"  # the first of the largest
    assert h.criticals == (f"{me} rolled a natural 20 in round 1", f"{other} rolled a natural 1 in round 1")
    assert h.best_line == ""


@pytest.mark.parametrize("side", ["a", "b"])
def test_a_pistol_duel_names_the_pistol_and_a_draw_decides_nothing(side):
    h = headline("pistol", [shot(side, 1, damage=4), shot(OTHER[side], 1, d20=19, damage=0)])
    assert (h.decisive, h.biggest, h.criticals) == ("", f"{NAMES[side]}'s Flintlock for 4 PV in round 1", ())


@pytest.mark.parametrize("side", ["a", "b"])
def test_a_wit_duel_quotes_its_best_line_and_counts_exchanges(side):
    events = [insult(side, 1, damage=3, words="Soon you'll be wearing my sword like a shish kebab!"),
              insult(OTHER[side], 1, d20=20, damage=3), insult(side, 2, damage=1, words="How appropriate.")]
    h = headline("wit", events, winner=side)
    me = NAMES[side]
    assert h.best_line == f"{me}'s “Soon you'll be wearing my sword like a shish kebab!” for 3 CAR in exchange 1"
    assert h.decisive == f"{me}'s “How appropriate.” for 1 CAR in exchange 2"
    assert h.biggest == "" and h.criticals == (f"{NAMES[OTHER[side]]} rolled a natural 20 in exchange 1",)


def test_a_wit_duels_best_line_quotes_the_words_the_seat_spoke_with_the_insult_kind():
    spoken = dataclasses.replace(insult("a", 1, damage=7, words="Humillación"),
                                 line="You fight like a dairy farmer!")
    h = headline("wit", [spoken, insult("b", 1, damage=2)], winner="a")
    assert h.best_line == f"{NAMES['a']}'s “You fight like a dairy farmer!” (Humillación) for 7 CAR in exchange 1"


def test_no_blow_no_headline():
    assert headline("sword", [PirateDuelistFell(side="a", fate="down")], winner="b") == pirate.headline(
        state(), [])


@pytest.mark.parametrize("kind, word, verb", [("sword", "Round", "attacks"), ("pistol", "Round", "shoots"),
                                              ("wit", "Exchange", "insults")])
@pytest.mark.parametrize("turn, who", [(0, "LeChuck"), (1, "Guybrush")])
def test_each_step_belongs_to_its_round_and_fighter(kind, word, verb, turn, who):
    blow = {"sword": sword, "pistol": shot, "wit": insult}[kind]("a", 2)
    s = state(kind, turn=turn)
    assert pirate.step_of(s, blow) == Step(f"{word} 2", f"{who} {verb}")
    initiative = PirateInitiativeRolled(round=3, rolls_a=(5,), rolls_b=(6,), total_a=5, total_b=6, order=("b", "a"))
    assert pirate.step_of(s, initiative) == Step(f"{word} 3", "initiative")
    assert pirate.step_of(s, PirateDuelistFell(side="a", fate="down")) == Step(f"{word} 2")
    assert pirate.step_of(dict(s, phase="fall"), blow) == Step(f"{word} 2")
    assert pirate.step_of(dict(s, order=[]), blow) == Step(f"{word} 2")
    assert pirate.step_of(dict(s, round=0), PirateDuelistFell(side="a", fate="down")) == Step("Before the first round")
