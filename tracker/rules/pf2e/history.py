"""What a PF2e duel leaves in the duel history: each duelist's secret initiative skill per round,
and whether it won that round's initiative."""
from __future__ import annotations

from tracker.rules.contract import Fact, HistoryFacts, Statistic

TURNS_LABEL = "rounds"
HISTORY_EVENTS = ("Pf2eInitiativeRolled", "Pf2eRoundOrdered", "Pf2eTieBroken")
STATISTICS = (Statistic("skills", sums={"duels_won": "duel_won"}),)


def history_facts(state: dict, events: list) -> HistoryFacts:
    """DEPENDS ON the state's ``round`` and ``phase``, Pf2eInitiativeRolled (``round``,
    ``duelist``, ``skill``), Pf2eRoundOrdered (``tiers``, best first) and Pf2eTieBroken (``first``)."""
    skills: dict[tuple[int, str], str] = {}
    first: dict[int, str] = {}
    for ev in events:
        name = type(ev).__name__
        if name == "Pf2eInitiativeRolled":
            skills[(ev.round, ev.duelist)] = ev.skill
        elif name == "Pf2eRoundOrdered" and ev.tiers and len(ev.tiers[0]) == 1:
            first[ev.round] = ev.tiers[0][0]
        elif name == "Pf2eTieBroken":
            first[ev.round] = ev.first
    initiative = tuple(Fact("skills", who, skill, round=r, won=first.get(r) == who)
                       for (r, who), skill in sorted(skills.items()))
    # A round counts once someone acted in it; a duel waiting on initiative has not begun the next.
    rounds = state["round"] - (1 if state["phase"] == "initiative" and state["round"] > 1 else 0)
    return HistoryFacts(rounds, initiative)
