"""What a Rocèt duel leaves in the duel history: every card laid, and whether it won its turn."""
from __future__ import annotations

from tracker.rules.contract import Fact, HistoryFacts, Statistic

TURNS_LABEL = "turns"
HISTORY_EVENTS = ("RocetTurnResolved",)
STATISTICS = (Statistic("cards"),)


def history_facts(state: dict, events: list) -> HistoryFacts:
    """DEPENDS ON the state's ``turn`` and ``sides[side]["id"]`` and RocetTurnResolved (``turn``,
    ``card_a``, ``card_b``, ``winner``)."""
    cards = [Fact("cards", state["sides"][side]["id"], card, round=ev.turn, won=ev.winner == side)
             for ev in events for side, card in (("a", ev.card_a), ("b", ev.card_b))]
    return HistoryFacts(state["turn"], tuple(cards))
