"""What a PF2e duel leaves in the duel history: each duelist's secret initiative skill per round,
and whether it won that round's initiative."""
from __future__ import annotations

from tracker.rules.contract import Fact, Headline, HistoryFacts, Statistic, Step
from tracker.rules.text import t, tn

from .sheet import SKILL_NAMES

TURNS_LABEL = t("rounds")


def count_turns(count: int):
    """How many rounds a duel lasted, in words ("1 round", "3 rounds")."""
    return tn("{count} round", "{count} rounds", count)
HISTORY_EVENTS = ("Pf2eInitiativeRolled", "Pf2eRoundOrdered", "Pf2eTieBroken")
STATISTICS = (Statistic("skills", sums={"duels_won": "duel_won"}, names=SKILL_NAMES),)


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


# --- time travel and the recap's headline -------------------------------------------------------

def step_of(state: dict, event) -> Step:
    """Each round opens with initiative; then each duelist's turn; what follows the end belongs
    to the duel's aftermath."""
    if state.get("outcome"):
        return Step(t("After the duel"))
    if state["turn"]:
        who = next(d["name"] for d in state["duelists"] if d["id"] == state["turn"])
        return Step(t("Round {round}", round=state["round"]), t("{name}'s turn", name=who))
    return Step(t("Round {round}", round=state["round"]), t("initiative"))


# Each check: who rolled it, on whom, and what it was (a Deceptive Sidestep rerolls the Strike).
CHECKS = {"Pf2eStrikeRolled": ("attacker", "target", "Strike"),
          "Pf2eSidestepUsed": ("attacker", "defender", "Strike"),
          "Pf2eDemoralized": ("duelist", "target", "Demoralize"), "Pf2eFeinted": ("duelist", "target", "Feint")}


def headline(state: dict, events) -> Headline:
    """DEPENDS ON Pf2eInitiativeRolled (``round``), Pf2eTurnEnded (``new_round``, ``next``), the
    checks' ``degree`` and ``target``, Pf2eDamageDealt (``attacker``, ``target``, ``source``,
    ``amount``, ``multiplier``) and Pf2eVictoryProposed; never a secret skill or reaction."""
    names = {d["id"]: d["name"] for d in state["duelists"]}
    round_, marks, hits, decisive = 1, [], [], ""
    last_damage = None
    for _, ev in events:
        kind = type(ev).__name__
        if kind == "Pf2eInitiativeRolled":
            round_ = ev.round
        elif kind == "Pf2eTurnEnded" and ev.new_round and ev.next:  # a spell duel's rounds wrap
            round_ += 1
        elif kind in CHECKS and ev.degree in ("critical_success", "critical_failure"):
            who, whom, what = CHECKS[kind]
            word = t("critical hit") if what == "Strike" and ev.degree == "critical_success" else \
                t("critical failure") if ev.degree == "critical_failure" else t("critical success")
            marks.append(t("{name}'s {action} on {target}: {degree} (round {round})", name=names[getattr(ev, who)],
                           action=what, target=names[getattr(ev, whom)], degree=word, round=round_))
        elif kind == "Pf2eDamageDealt" and ev.amount:
            last_damage = (ev, round_)
            hits.append((ev.amount, round_, ev))
        elif kind == "Pf2eVictoryProposed" and last_damage:
            decisive = _hit(names, *last_damage)
    biggest = max(hits, key=lambda h: h[0], default=None)
    if not decisive and last_damage and (state.get("outcome") or {}).get("winner"):
        winner = state["outcome"]["winner"]
        sides = {d["id"]: d["side"] for d in state["duelists"]}
        if sides[last_damage[0].attacker] == winner:
            decisive = _hit(names, *last_damage)
    return Headline(decisive=decisive, biggest=_hit(names, biggest[2], biggest[1]) if biggest else "",
                    criticals=tuple(marks))


def _hit(names: dict, ev, round_: int):
    values = dict(name=names[ev.attacker], source=ev.source, amount=ev.amount, target=names[ev.target], round=round_)
    if ev.multiplier == "double":
        return t("{name}'s {source} for {amount} damage (doubled) on {target} in round {round}", **values)
    return t("{name}'s {source} for {amount} damage on {target} in round {round}", **values)
