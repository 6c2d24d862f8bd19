"""Every ruleset is laid out the same way, and folds its events through the one evolve skeleton."""
from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests import coin_ruleset as coin
from tracker import rules
from tracker.rules import duel
from tracker.rules.base import ImpossibleHistory

ROLES = ("terms", "sheet", "setup", "commands", "events", "decide", "fold", "describe", "view", "invariants",
         "history", "secrecy", "samples", "legal", "results")
PACKAGES = sorted(name for name, module in rules.RULESETS.items() if hasattr(module, "__path__"))
SKELETON = duel.evolver(coin.started, coin.mutate, coin.describe, {}).__code__


@pytest.mark.parametrize("name", PACKAGES)
def test_every_ruleset_package_has_one_file_per_role(name):
    files = {path.stem for path in Path(rules.get(name).__path__[0]).glob("*.py")}
    assert set(ROLES) - files == set()


@pytest.mark.parametrize("name", sorted({*rules.RULESETS, coin.NAME}))
def test_every_ruleset_folds_through_the_one_skeleton(name):
    assert rules.get(name).evolve.__code__ is SKELETON


def _started(hits: int = 1) -> duel.DuelStarted:
    duelists = tuple({"id": f"c{side}", "name": f"Duelist {side.upper()}", "side": side, "rank": "",
                      "stats": {"hp": 9}, "current": {}} for side in duel.SIDES)
    return duel.DuelStarted(duel_id="d1", campaign_id="c1", session_id="s1", ruleset="coin", kind="plain",
                            duelists=duelists, settings={"hits": hits})


def test_the_skeleton_starts_folds_and_tells_each_event_without_changing_its_input():
    state = coin.evolve(None, _started(hits=2), 1)
    before = copy.deepcopy(state)
    after = coin.evolve(state, coin.CoinTurnPlayed(roll_a=5, roll_b=2), 2)
    assert state == before
    assert after["hits"] == {"a": 1, "b": 0} and after["turns"] == 1
    assert [line["text"] for line in after["history"]] == ["Coin duel started.", "Turn 1: 5 vs 2."]


def test_the_skeleton_folds_the_common_endings_and_refuses_what_cannot_follow_them():
    state = coin.evolve(None, _started(), 1)
    ended = coin.evolve(state, duel.DuelYielded(side="b"), 2)
    assert ended["outcome"]["winner"] == "a" and ended["history"][-1]["text"].startswith("Duel ended:")
    with pytest.raises(ImpossibleHistory, match="after the duel ended"):
        coin.evolve(ended, coin.CoinTurnPlayed(roll_a=5, roll_b=2), 3)


def test_the_skeleton_refuses_an_ending_the_state_does_not_support():
    state = coin.evolve(None, _started(hits=2), 1)
    with pytest.raises(ImpossibleHistory, match="the winner lacks the hits"):
        coin.evolve(state, duel.DuelWon(side="a", ending="hits"), 2)
    with pytest.raises(ImpossibleHistory, match="no knockout ending"):
        coin.evolve(state, duel.DuelWon(side="a", ending="knockout"), 2)
    with pytest.raises(ImpossibleHistory, match="starts with DuelStarted"):
        coin.evolve(None, coin.CoinTurnPlayed(roll_a=5, roll_b=2), 1)


def test_a_quiet_event_is_folded_without_a_line_of_its_own():
    told = []
    evolve = duel.evolver(coin.started, coin.mutate, lambda state, ev: told.append(ev) or "a line", {},
                          quiet=(coin.CoinTurnPlayed,))
    state = evolve(evolve(None, _started(), 1), coin.CoinTurnPlayed(roll_a=1, roll_b=4), 2)
    assert state["hits"]["b"] == 1 and len(state["history"]) == 1 and len(told) == 1
