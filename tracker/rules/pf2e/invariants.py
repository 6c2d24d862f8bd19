"""What every Pathfinder 2e duel state the rules can reach satisfies, written once: the property
tests check it after every command and retraction, and the fold checks an ending against it."""
from __future__ import annotations

from tracker.rules import duel
from tracker.rules.duel import ending_problems, other

from .setup import hp_at_start
from .sheet import parse_slots


def _first_blood(state: dict, winner: str) -> str:
    losers = {d["id"] for d in state["duelists"] if d["side"] == other(winner)}
    return "" if any(w["character"] in losers for w in state["wounds"]) else "no blood was drawn"


def _knockout(state: dict, winner: str) -> str:
    standing = [d["name"] for d in state["duelists"] if d["side"] == other(winner) and state["hp"][d["id"]] > 0]
    return "" if not standing else f"{', '.join(standing)} still stand"


def _custom(state: dict, winner: str) -> str:
    return "" if state["settings"]["victory"] == "custom" else "the agreed victory is not a custom one"


ENDINGS = {"first_blood": _first_blood, "knockout": _knockout, "custom": _custom}


def invariants(state: dict) -> list[str]:
    """The violations of the PF2e duel's invariants in ``state`` (empty when it holds)."""
    problems = []
    ids = {d["id"] for d in state["duelists"]}
    for d in state["duelists"]:
        who, start = d["id"], hp_at_start(d)
        lost = sum(w["amount"] for w in state["wounds"] if w["character"] == who and w["track"] == "HP")
        lost -= duel.adjusted_by(state, who, "HP")
        if not 0 <= state["hp"][who] <= max(start, d["stats"].get("hp_max", start)) or state["hp"][who] != start - lost:
            problems.append(f"{d['name']} has {state['hp'][who]} HP, not what the damage left")
        if state["frightened"][who] < 0:
            problems.append(f"{d['name']} is frightened {state['frightened'][who]}")
        sheet = parse_slots(d["stats"].get("spell_slots") or "")
        slots, spent = state["slots"][who], state["expended"][who]
        for rank in set(sheet) | set(slots) | set(spent):
            if slots.get(rank, 0) < 0 or slots.get(rank, 0) + spent.get(rank, 0) != sheet.get(rank, 0):
                problems.append(f"{d['name']}'s rank {rank} slots: {slots.get(rank, 0)} left, "
                                f"{spent.get(rank, 0)} spent of {sheet.get(rank, 0)}")
        if state["reacted"].get(who) and not state["reaction"].get(who):
            problems.append(f"{d['name']} reacted without a reaction this round")
    if not set(state["off_guard"]) <= ids:
        problems.append("someone off-guard is not in the duel")
    if not 0 <= state.get("actions", 0) <= 3:
        problems.append(f"{state.get('actions')} actions spent in a turn of three")
    for x in state.get("exposures", []):
        if not {x["who"], x["against"], x["owner"]} <= ids or x["who"] == x["against"] or not 1 <= x["ends"] <= 2:
            problems.append(f"an off-guard from a Feint that the rules cannot leave: {x}")
    if state["pending"] and state["phase"] != "turns":
        problems.append("a strike or spell waits outside anyone's turn")
    if state["turn"] is not None and state["turn"] not in ids:
        problems.append("the turn belongs to nobody in the duel")
    return problems + ending_problems(state, ENDINGS)
