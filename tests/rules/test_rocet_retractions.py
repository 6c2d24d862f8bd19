"""Rocèt's fold is total: a long random duel folded without any one command's events never
raises, and the rules can go on deciding from the corrected state."""
from __future__ import annotations

import random

import pytest

from tracker.rules import rocet
from tracker.rules.base import Dice, Refused
from tracker.rules.duel import Yield
from tracker.rules.rocet.commands import (
    ConfirmDeath, ConfirmUnconscious, DealDamage, DeclineDamage, Discard, PlayTurn,
)
from tracker.rules.rocet.events import RocetDeckShuffled

from test_rocet_duels import HEADER, duelists  # noqa: E402 (shared table helpers)


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
def test_leaving_out_any_one_command_never_breaks_the_fold(setup, seed):
    groups = random_duel(setup, seed, commands=45)
    assert len(groups) >= 3
    if setup["kind"] in ("relojes", "superioridad") and setup.get("clock_size", 24) == 24:
        assert any(isinstance(ev, RocetDeckShuffled) and ev.reason == "reshuffle"
                   for group in groups for _, ev in group), "the duel should run long enough to reshuffle"
    rng = random.Random(seed)
    for left_out in range(1, len(groups)):
        kept = [pair for i, group in enumerate(groups) if i != left_out for pair in group]
        state = fold(kept)
        rocet.public(state)
        rocet.progress(state)
        assert all(isinstance(entry["text"], str) for entry in state["history"])
        assert all(d["hand_size"] >= 0 for d in state["sides"].values())
        cmd = a_command(state, rng) if rocet.actions(state) else None
        for attempt in filter(None, (cmd, Yield(side="a"))):
            try:
                new = rocet.decide(state, attempt, server(rng))
            except Refused:
                continue
            for ev in new:
                state_after = rocet.evolve(state, ev, len(kept) + 1)
                assert state_after is not state
            break
