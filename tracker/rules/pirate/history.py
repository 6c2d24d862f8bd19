"""What a pirate duel leaves in the duel history: every insult tried in a duelo de labia."""
from __future__ import annotations

from tracker.rules.contract import Fact, HistoryFacts, Statistic

TURNS_LABEL = "rounds"
HISTORY_EVENTS = ("PirateInsultTraded",)
STATISTICS = (Statistic("insults", sums={"damage": "amount"}),)


def history_facts(state: dict, events: list) -> HistoryFacts:
    """DEPENDS ON the state's ``round`` and ``fighters[side]["id"]`` and PirateInsultTraded
    (``side``, ``insult``, ``hit``, ``damage``); a miss deals no damage."""
    insults = [Fact("insults", state["fighters"][ev.side]["id"], ev.insult, won=ev.hit,
                    amount=ev.damage if ev.hit else 0) for ev in events]
    return HistoryFacts(state["round"], tuple(insults))
