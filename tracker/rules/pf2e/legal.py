"""The legal next actions of a PF2e duel as data (see ``tracker.rules.legal``): the commands
``view.actions`` names, each field narrowed by ``board.choices``, what the GM's forms offer."""
from __future__ import annotations

from tracker.rules.legal import GM, offer

from .board import choices
from .commands import COMMANDS, _counter_side
from .view import actions


def legal_actions(state: dict, audience: str) -> list[dict]:
    """What ``audience`` may send now: the GM everything legal; nobody else anything (yet)."""
    if audience != GM:
        return []
    offered = choices(state)
    return [_offer(state, offered, name) for name in actions(state)]


def _side(state: dict, who: str | None) -> str | None:
    return next((d["side"] for d in state["duelists"] if d["id"] == who), None)


def _offer(state: dict, offered: dict, name: str) -> dict:
    command, turn = COMMANDS[name], offered["turn"]
    ids = lambda rows: [row["id"] for row in rows]  # noqa: E731
    if name == "RollInitiative":
        rolling = offered["initiative"]
        skills = sorted({s["skill"] for d in rolling for s in d["skills"]})
        return offer(command, name, dice={"dice_roll": [20]}, duelist=ids(rolling), skill=skills)
    if name == "BreakTie":
        return offer(command, name, first=ids(offered["tied"]))
    if name == "Strike":
        return offer(command, name, for_side=_side(state, turn), dice={"dice_attack": [20]},
                     attacker=[turn], target=ids(offered["targets"]),
                     reaction=[""] + [r["value"] for r in offered["reactions"]])
    if name == "CastSpell":
        return offer(command, name, for_side=_side(state, turn), caster=[turn], target=ids(offered["targets"]))
    if name == "DuelingCounter":
        counters = offered["counters"]
        ranks = sorted({int(r) for c in counters for r in c["slots"]})
        return offer(command, name, for_side=_side(state, counters[0]["id"]) if counters else None,
                     duelist=ids(counters), slot_rank=ranks)
    if name in ("Demoralize", "Feint"):
        return offer(command, name, for_side=_side(state, turn), dice={"dice_check": [20]},
                     duelist=[turn], target=ids(offered["targets"]))
    if name == "OtherAction":
        return offer(command, name, for_side=_side(state, turn), duelist=[turn])
    if name == "DeclineCounter":
        return offer(command, name, for_side=_counter_side(state, {}))
    if name in ("DeceptiveSidestep", "DeclineSidestep"):
        return offer(command, name, for_side=_side(state, state["pending"]["target"]))
    if name == "ChangeTraditionFocus":
        return offer(command, name, for_side=_side(state, turn), duelist=[turn],
                     tradition=[f["value"] for f in offered["new_focus"]])
    if name in ("EndTurn", "ActSecond"):
        fields = {"duelist": [turn]} if name == "EndTurn" else {}
        return offer(command, name, for_side=_side(state, turn), **fields)
    if name == "Tag":
        return offer(command, name, side=[tag["side"] for tag in offered["tag_sides"]])
    return offer(command, name)
