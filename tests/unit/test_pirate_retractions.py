"""Pirate folds never invent or lose anything: a duel rewound to just before any event (what a
retraction does; a worthiness mark stays) folds into a state the rules can reach and the page's
questions (actions, progress, describe) have answers; a hole in the middle with the later events
folded on top (what the old retraction did) is refused as impossible or keeps every invariant."""
from __future__ import annotations

import pytest

from tracker.rules import get
from tracker.rules.base import ImpossibleHistory
from tracker.rules.dice import fixed_dice
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


def rewound(events: list, index: int) -> list:
    """The events a retraction of ``events[index]`` leaves, as the ruleset's carries say."""
    later = [(v, ev) for v, ev in enumerate(events, start=1) if v > index + 1]
    carried = set(pirate.retraction_carries(events[index], later))
    return [ev for v, ev in enumerate(events, start=1) if v != index + 1 and v not in carried]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_rewinding_to_before_any_event_folds_into_a_reachable_state(name):
    events = scripted(name)
    for index in range(1, len(events)):
        state = fold(rewound(events, index))
        assert pirate.invariants(state) == []
        assert pirate.progress(state)
        assert isinstance(pirate.actions(state), list)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_a_hole_in_the_middle_is_refused_or_harmless(name):
    events = scripted(name)
    refused = 0
    for left_out in range(1, len(events) - 1):
        try:
            state = fold(events[:left_out] + events[left_out + 1:])
        except ImpossibleHistory:
            refused += 1
            continue
        assert pirate.invariants(state) == [], f"{name}: leaving out {type(events[left_out]).__name__}"
    assert refused


def test_a_worthiness_mark_is_taken_back_alone_and_survives_a_rewind():
    events = scripted("sword to 2 hits")
    mark = next(i for i, ev in enumerate(events) if type(ev).__name__ == "PirateWorthinessMarked")
    assert rewound(events, mark) == events[:mark] + events[mark + 1:]
    before_mark = rewound(events, mark - 1)             # the initiative before it: the mark stays
    assert before_mark == events[:mark - 1] + [events[mark]]
    assert fold(before_mark)["fighters"]["b"]["worthy"] is False


def test_a_shot_the_pistol_does_not_hold_is_an_impossible_history():
    events = scripted("pistol run dry")
    first_shot_of_a = next(i for i, ev in enumerate(events) if type(ev).__name__ == "PirateShotFired" and ev.side == "a")
    with pytest.raises(ImpossibleHistory):
        fold(events[:first_shot_of_a] + events[first_shot_of_a + 1:])


def test_a_strike_without_its_initiative_is_an_impossible_history():
    events = scripted("sword to 2 hits")
    with pytest.raises(ImpossibleHistory):
        fold(events[:1] + events[2:4])     # round 1's initiative left out; worthiness and Inés's hit kept
