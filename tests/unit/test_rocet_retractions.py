"""Rocèt's fold never invents or loses anything: a long random duel rewound to just before any of
its commands (what a retraction does) folds into a state the rules can reach, and the rules go on
from it; folding the later commands on top of a hole instead either meets an impossible history,
and says so, or lands on a state that still keeps every invariant — never a silent repair."""
from __future__ import annotations

import random

import pytest

from tracker.rules import rocet
from tracker.rules.base import ImpossibleHistory, Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import Yield
from tracker.rules.rocet.commands import (
    ConfirmDeath, ConfirmUnconscious, DealDamage, DeclineDamage, Discard, PlayTurn,
)
from tracker.rules.rocet.events import RocetDeckShuffled

from tests.unit.test_rocet_duels import HEADER, duelists  # noqa: E402 (shared table helpers)


def server(rng: random.Random) -> Dice:
    return Dice(source=lambda sides: rng.randint(1, sides), shuffle=lambda n: rng.sample(range(n), n))


def fold(events) -> dict:
    state = None
    for at, ev in events:
        state = rocet.evolve(state, ev, at)
    return state


def a_command(state: dict, rng: random.Random):
    """What a GM might do next: mostly the main action, sometimes the other choice."""
    legal = rocet.actions(state)
    if "ConfirmUnconscious" in legal or "ConfirmDeath" in legal:
        return ConfirmDeath() if "ConfirmUnconscious" not in legal or rng.random() < .5 else ConfirmUnconscious()
    if "Discard" in legal:
        side = state["pending_discard"]
        hand = state["sides"][side].get("hand") or list(rocet.CARDS)
        return Discard(side=side, card=rng.choice(hand))
    if "DealDamage" in legal and rng.random() < .6:
        return DealDamage() if rng.random() < .7 else DeclineDamage()
    if "PlayTurn" in legal:
        cards = [rng.choice(state["sides"][side]["hand"] if state["mode"] == "virtual" else rocet.CARDS)
                 for side in "ab"]
        return PlayTurn(card_a=cards[0], card_b=cards[1], server_roll=True)
    return None


def random_duel(setup: dict, seed: int, commands: int) -> list[list[tuple[int, object]]]:
    """Each command's events (with their versions), the opening first."""
    rng = random.Random(seed)
    opening = rocet.start(HEADER, dict({"weapon_type": "Espada"}, **setup),
                          duelists(pg_a=60, pg_b=60), server(rng))
    groups = [list(enumerate(opening, 1))]
    state, at = fold(groups[0]), len(opening)
    for _ in range(commands):
        cmd = a_command(state, rng)
        if cmd is None:
            break
        group = []
        for ev in rocet.decide(state, cmd, server(rng)):
            at += 1
            group.append((at, ev))
            state = rocet.evolve(state, ev, at)
        groups.append(group)
    return groups


@pytest.mark.parametrize("setup, seed", [
    ({"kind": "relojes", "clock_size": 24, "cards": "virtual"}, 1),
    ({"kind": "superioridad", "meter_steps": 24, "cards": "physical", "deck": "own"}, 2),
    ({"kind": "a_muerte", "cards": "virtual", "deck": "own"}, 3),
    ({"kind": "primera_sangre", "cards": "physical"}, 4),
    ({"kind": "relojes", "clock_size": 3, "cards": "virtual", "clock_floor": False}, 5),
])
def test_rewinding_to_before_any_command_folds_and_the_duel_goes_on(setup, seed):
    groups = random_duel(setup, seed, commands=45)
    assert len(groups) >= 3
    if setup["kind"] in ("relojes", "superioridad") and setup.get("clock_size", 24) == 24:
        assert any(isinstance(ev, RocetDeckShuffled) and ev.reason == "reshuffle"
                   for group in groups for _, ev in group), "the duel should run long enough to reshuffle"
    rng = random.Random(seed)
    for rewound_to in range(1, len(groups)):
        kept = [pair for group in groups[:rewound_to] for pair in group]
        state = fold(kept)
        assert rocet.invariants(state) == []
        rocet.public(state)
        rocet.progress(state)
        assert all(isinstance(str(entry["text"]), str) and entry["text"] for entry in state["history"])
        cmd = a_command(state, rng) if rocet.actions(state) else None
        for attempt in filter(None, (cmd, Yield(side="a"))):
            try:
                new = rocet.decide(state, attempt, server(rng))
            except Refused:
                continue
            for ev in new:
                state = rocet.evolve(state, ev, len(kept) + 1)
            assert rocet.invariants(state) == []
            break


@pytest.mark.parametrize("setup, seed", [
    ({"kind": "relojes", "clock_size": 24, "cards": "virtual"}, 1),
    ({"kind": "superioridad", "meter_steps": 24, "cards": "physical", "deck": "own"}, 2),
    ({"kind": "a_muerte", "cards": "virtual", "deck": "own"}, 3),
])
def test_a_hole_in_the_middle_is_refused_or_harmless_never_repaired(setup, seed):
    """What the old retraction left: one command gone, the later ones folded on top of the hole."""
    groups = random_duel(setup, seed, commands=45)
    refused = 0
    for left_out in range(1, len(groups) - 1):
        kept = [pair for i, group in enumerate(groups) if i != left_out for pair in group]
        try:
            state = fold(kept)
        except ImpossibleHistory:
            refused += 1
            continue
        assert rocet.invariants(state) == [], f"leaving out command {left_out}"
    assert refused, "some hole must be an impossible history (a card played twice, a draw the pile lacks)"
