"""Helpers for the Pathfinder 2e duel tests: sheets, a scripted duel and its replay."""
from __future__ import annotations

from tests import plain_json as json

import pytest

from tracker.rules import pf2e
from tracker.rules.base import Refused
from tracker.rules.dice import fixed_dice

HEADER = {"duel_id": "d1", "campaign_id": "c1", "session_id": "s1", "stakes": "the family sword",
          "judge": "Magistrate Ilse", "challenger": "a"}

UNTRAINED = {f"{skill}_rank": "untrained" for skill in ("arcana", "nature", "occultism", "religion")}


def sheet(**changes) -> dict:
    """A level-3 fighter: trained in the three combat skills, no magic."""
    raw = dict(level=3, hp_max=40, ac=20, attack_bonus=10, weapon="Longsword", damage="1d8+4",
               deception=7, deception_rank="trained", intimidation=9, intimidation_rank="expert",
               perception=8, perception_rank="trained", arcana=0, nature=0, occultism=0, religion=0,
               **UNTRAINED)
    raw.update(changes)
    return pf2e.validate_stats(raw)


def caster(**changes) -> dict:
    """A level-3 wizard: expert in Arcana, trained in Occultism, spell DC 20, slots 1:3, 2:2."""
    base = dict(hp_max=30, ac=17, attack_bonus=6, weapon="Staff", damage="1d4", arcana=10, arcana_rank="expert",
                occultism=6, occultism_rank="trained", perception=7, spell_dc=20, spell_slots="1:3, 2:2")
    base.update(changes)
    return sheet(**base)


def fighter(id: str, name: str, side: str, rank: str = "pj", hp: int | None = None, **stats) -> dict:
    block = stats.pop("block", None) or sheet(**stats)
    return {"id": id, "name": name, "side": side, "rank": rank, "stats": block,
            "current": {"HP": block["hp_max"] if hp is None else hp}}


def play(events) -> dict:
    state = None
    for at, event in enumerate(events, start=1):
        state = pf2e.evolve(state, event, at)
    return state


class Duel:
    """A duel played command by command with dice typed at the table."""

    def __init__(self, duelists, **setup):
        self.events = list(pf2e.start(HEADER, setup, duelists, fixed_dice()))
        self.state = play(self.events)

    def do(self, command, **typed) -> list:
        dice = fixed_dice(**typed)
        before = json.dumps(self.state, sort_keys=True)
        new = pf2e.decide(self.state, command, dice)
        assert json.dumps(self.state, sort_keys=True) == before, "decide mutated the state"
        assert dice.leftover() == {}, f"unused dice {dice.leftover()}"
        for event in new:
            self.events.append(event)
            self.state = pf2e.evolve(self.state, event, len(self.events))
        return new

    def refused(self, command, **typed) -> str:
        with pytest.raises(Refused) as refusal:
            pf2e.decide(self.state, command, fixed_dice(**typed))
        return refusal.value.reason

    def types(self, events) -> list[str]:
        return [type(e).__name__ for e in events]

    def hp(self, who: str) -> int:
        return self.state["hp"][who]

    def frightened(self, who: str) -> int:
        return self.state["frightened"][who]

    def replays(self) -> bool:
        """Replaying the log from scratch gives exactly the state built step by step."""
        return json.dumps(play(self.events), sort_keys=True) == json.dumps(self.state, sort_keys=True)
