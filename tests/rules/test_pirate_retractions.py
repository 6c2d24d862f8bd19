"""Pirate folds are total: with any one event left out (as a retraction does), the later events still fold,
and the page's questions (actions, progress, describe) still have answers."""
from __future__ import annotations

import pytest

from tracker.rules import get
from tracker.rules.base import fixed_dice
from tracker.rules.pirate.commands import Attack, Insult, MarkWorthiness, RecordFall, RollInitiative, Shoot

pirate = get("pirate")

STATS = {
    "a": {"atq": 5, "def": 13, "pv": 12, "comunicacion": 4, "sab": 12, "car": 10, "iniciativa": 2,
          "weapons": "Sable | sword | 1d8\nPistola de chispa | pistol | 1d10 | 15"},
    "b": {"atq": 3, "def": 12, "pv": 9, "comunicacion": 2, "sab": 11, "car": 8, "iniciativa": 1,
          "weapons": "Espada ropera | sword | 1d6\nPistola | pistol | 1d8 | 10"},
}
HEADER = {"duel_id": "d1", "campaign_id": "c1", "session_id": "s1"}

SCRIPTS = {
    "sword to 2 hits": ({"kind": "sword", "sword_victory": "hits", "hits": 2}, [
        (RollInitiative(), {"a": [14], "b": [9]}),
        (MarkWorthiness(side="b", verdict="unworthy"), {}),
        (Attack(side="a"), {"a": [15, 8]}),
        (Attack(side="b"), {"b": [20, 2]}),
        (RollInitiative(), {"a": [1], "b": [18]}),
        (Attack(side="b"), {"b": [2]}),
        (Attack(side="a"), {"a": [16, 3]}),
        (RecordFall(side="b", fate="down"), {}),
    ]),
    "pistol run dry": ({"kind": "pistol", "distance": 12, "second_a": "Tomás", "second_b": "Blas", "shots": 2}, [
        (RollInitiative(), {"a": [3], "b": [15]}),
        (Shoot(side="b"), {"b": [18, 6]}),
        (Shoot(side="a"), {"a": [2]}),
        (RollInitiative(), {"a": [9, 4], "b": [10, 1]}),
        (Shoot(side="a"), {"a": [3]}),
        (Shoot(side="b"), {"b": [1, 2]}),
    ]),
    "wit in sudden death": ({"kind": "wit", "exchanges": 1}, [
        (RollInitiative(), {"a": [11], "b": [2]}),
        (Insult(side="a", insult="Insulto directo"), {"a": [11, 3]}),
        (Insult(side="b", insult="Insulto directo"), {"b": [15, 3]}),
        (RollInitiative(), {"a": [5], "b": [19]}),
        (Insult(side="b", insult="Provocación"), {"b": [1, 2]}),
        (Insult(side="a", insult="Burla ingeniosa"), {"a": [12, 2]}),
    ]),
}


def scripted(name: str) -> list:
    terms, steps = SCRIPTS[name]
    duelists = [{"id": side, "name": {"a": "Inés", "b": "Lope"}[side], "side": side, "rank": "pj",
                 "stats": pirate.validate_stats(STATS[side]), "current": {}} for side in "ab"]
    events = pirate.start(HEADER, terms, duelists, fixed_dice())
    state = fold(events)
    for cmd, dice in steps:
        new = pirate.decide(state, cmd, fixed_dice(**dice))
        for ev in new:
            state = pirate.evolve(state, ev, len(events) + 1)
            events.append(ev)
    assert state["outcome"], "each script plays its duel to the end"
    return events


def fold(events: list) -> dict:
    state = None
    for at, ev in enumerate(events, start=1):
        state = pirate.evolve(state, ev, at)
    return state


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_leaving_out_any_one_event_still_folds(name):
    events = scripted(name)
    for left_out in range(1, len(events)):
        state = fold(events[:left_out] + events[left_out + 1:])
        assert pirate.progress(state)
        assert isinstance(pirate.actions(state), list)
        assert state["phase"] == "initiative" or state["turn"] < len(state["order"])


def test_a_retracted_shot_is_given_back():
    events = scripted("pistol run dry")
    first_shot_of_a = next(i for i, ev in enumerate(events) if type(ev).__name__ == "PirateShotFired" and ev.side == "a")
    state = fold(events[:first_shot_of_a] + events[first_shot_of_a + 1:])
    assert state["fighters"]["a"]["shots"] == 1


def test_a_strike_without_its_initiative_counts_but_keeps_the_order():
    events = scripted("sword to 2 hits")
    state = fold(events[:1] + events[2:4])     # round 1's initiative left out; worthiness and Inés's hit kept
    assert state["fighters"]["b"]["pv"] == 1 and state["fighters"]["a"]["hits"] == 1
    assert state["phase"] == "initiative" and pirate.actions(state)[0] == "RollInitiative"


def test_a_fresh_fall_waits_for_a_fresh_ruling():
    SCRIPTS["sword to the death"] = ({"kind": "sword", "sword_victory": "death"}, [
        (RollInitiative(), {"a": [14], "b": [9]}),
        (Attack(side="a"), {"a": [15, 8]}),                  # Lope 9 → 1 PV
        (Attack(side="b"), {"b": [1]}),
        (RollInitiative(), {"a": [14], "b": [9]}),
        (Attack(side="a"), {"a": [15, 4]}),                  # Lope 1 → 0 PV: the fall, at index 5
        (RecordFall(side="b", fate="down"), {}),
        (RecordFall(side="b", fate="dead"), {}),
    ])
    try:
        events = scripted("sword to the death")
    finally:
        del SCRIPTS["sword to the death"]
    ruled_down = events[:5] + events[6:7]                     # the felling hit retracted, the ruling kept
    state = fold(ruled_down)
    assert state["fighters"]["b"]["pv"] == 1 and state["fighters"]["b"]["fate"] == "down"
    for ev in pirate.decide(state, Attack(side="a"), fixed_dice(a=[15, 4])):   # felled again
        state = pirate.evolve(state, ev, 99)
    assert state["fighters"]["b"]["fate"] is None and pirate.actions(state)[0] == "RecordFall"
    assert pirate.decide(state, RecordFall(side="b", fate="down"), fixed_dice())
