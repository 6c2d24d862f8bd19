"""The pirate duel's state as a fold of its events.

The fold never invents or loses a wound, a hit, a shot or an ending: an event the state could
not have produced (a strike out of turn, a shot from an empty pistol, a win the hits do not
show) raises ``ImpossibleHistory``; ``decide`` never produces one.
"""
from __future__ import annotations

from .adjust import adjustable_tracks, set_track

from typing import Any

from tracker.rules.dispatch import by_type
from tracker.rules.duel import SIDES, DuelStarted, evolver, impossible, initial, other, wound
from tracker.rules.state import update

from .describe import describe, ending_detail
from .events import (PirateDuelistFell, PirateInsultChosen, PirateInitiativeRolled, PirateInsultTraded, PirateShotFired,
                     PirateSwordAttacked, PirateWorthinessMarked)
from .invariants import ENDINGS
from .results import result
from .setup import current_pv, warnings_for
from tracker.rules.text import t


def _started(ev: DuelStarted) -> dict:
    state = initial(ev)
    if "warnings" not in state["settings"]:  # older logs stored them in the terms: read as they were
        state["settings"]["warnings"] = warnings_for(ev.settings, {d["side"]: d for d in ev.duelists})
    fighters = {}
    for d in ev.duelists:
        stats = d["stats"]
        fighters[d["side"]] = {"id": d["id"], "name": d["name"], "pv": current_pv(d), "car": stats["car"],
                               "hits": 0, "landed": 0, "points": 0, "shots": ev.settings.get("shots"),
                               "fate": None, "worthy": None}
    return update(state, fighters=fighters, round=0, phase="initiative", order=[], turn=0,
                  initiative=None, sudden_death=False, sealed={})


def fallen(state: dict) -> str | None:
    """The side at 0 PV the duel waits on: fate not yet ruled, or down in a duel to the death."""
    if state["kind"] == "wit":
        return None
    return next((side for side in SIDES if state["fighters"][side]["pv"] == 0
                 and state["fighters"][side]["fate"] != "dead"), None)


def fighter(state: dict, side: str, **changes: Any) -> dict:
    """The state with one duelist's figures changed."""
    fighters = dict(state["fighters"])
    fighters[side] = {**fighters[side], **changes}
    return update(state, fighters=fighters)


@by_type
def mutate(ev: Any, state: dict, at: int) -> dict:
    """The state after one of the pirate duel's own events (never changing ``state``)."""
    raise TypeError(f"not a pirate duel event: {type(ev).__name__}")


@mutate.register
def _(ev: PirateInitiativeRolled, state, at):
    if state["phase"] != "initiative" or ev.round != state["round"] + 1 or fallen(state):
        impossible(f"initiative for round {ev.round} where none was due")
    return update(state, round=ev.round, phase="act" if ev.order else "initiative", order=list(ev.order),
                  turn=0, initiative={"a": ev.total_a, "b": ev.total_b})


@mutate.register
def _(ev: PirateInsultChosen, state, at):
    if state["kind"] != "wit" or state["phase"] != "initiative" or ev.round != state["round"] + 1:
        impossible(f"an insult chosen for exchange {ev.round} where none was due")
    return update(state, sealed={**(state.get("sealed") or {}),
                                 ev.side: {"insult": ev.insult, "line": ev.line, "die": ev.die}})


@mutate.register
def _(ev: PirateDuelistFell, state, at):
    f = state["fighters"][ev.side]
    if state["kind"] == "wit" or f["pv"] > 0 or f["fate"] in ("dead", ev.fate):
        impossible(f"{f['name']} ruled {ev.fate} at {f['pv']} PV")
    return fighter(state, ev.side, fate=ev.fate)


@mutate.register
def _(ev: PirateWorthinessMarked, state, at):
    return fighter(state, ev.side, worthy=ev.worthy)


@mutate.register
def _(ev: PirateInsultTraded, state, at):
    _in_turn(state, ev)
    sealed = dict(state.get("sealed") or {})
    if ev.side in sealed:
        if sealed.pop(ev.side)["insult"] != ev.insult:
            impossible(f"side {ev.side} threw {ev.insult}, not the insult chosen in secret")
        state = update(state, sealed=sealed)
    me, them = state["fighters"][ev.side], state["fighters"][other(ev.side)]
    left = max(0, them["car"] - ev.damage)
    state = wound(state, them["id"], "CAR", them["car"] - left, at, t("{insult} by {name}", insult=ev.insult, name=me["name"]))
    state = fighter(state, other(ev.side), car=left)
    state = fighter(state, ev.side, points=me["points"] + ev.damage, last_insult=ev.insult)
    if ev.backlash:
        mine = max(0, me["car"] - ev.backlash)
        state = wound(state, me["id"], "CAR", me["car"] - mine, at, t("backlash of own {insult}", insult=ev.insult))
        state = fighter(state, ev.side, car=mine)
    # The exchange as thrown so far, side by side for the seats' reveal (public once thrown).
    thrown = state.get("thrown") or {}
    sides = dict(thrown.get("sides") or {}) if thrown.get("round") == ev.round else {}
    sides[ev.side] = {"insult": ev.insult, "line": ev.line, "d20": ev.d20, "total": ev.total,
                      "defence": ev.defence, "hit": ev.hit, "damage": ev.damage, "backlash": ev.backlash}
    state = update(state, thrown={"round": ev.round, "sides": sides})
    return _next_turn(state)


@mutate.register
def _(ev: PirateSwordAttacked, state, at):
    _in_turn(state, ev)
    return _next_turn(_blow(state, ev, at))


@mutate.register
def _(ev: PirateShotFired, state, at):
    _in_turn(state, ev)
    if ev.shots_left != state["fighters"][ev.side]["shots"] - 1:
        impossible(f"a shot leaving {ev.shots_left} from a pistol with {state['fighters'][ev.side]['shots']}")
    return _next_turn(fighter(_blow(state, ev, at), ev.side, shots=ev.shots_left))


def _in_turn(state: dict, ev: Any) -> None:
    """A strike comes from the side whose turn it is, in the round under way."""
    due = state["order"][state["turn"]] if state["phase"] == "act" else None
    if due != ev.side or ev.round != state["round"] or fallen(state):
        impossible(f"a strike by side {ev.side} out of turn")


def _blow(state: dict, ev: Any, at: int) -> dict:
    """A sword or pistol strike's damage to PV, and the hit it counts."""
    me, them = state["fighters"][ev.side], state["fighters"][other(ev.side)]
    left = max(0, them["pv"] - ev.damage)
    state = wound(state, them["id"], "PV", them["pv"] - left, at, t("{weapon} of {name}", weapon=ev.weapon, name=me["name"]))
    state = fighter(state, other(ev.side), pv=left)
    return fighter(state, ev.side, hits=me["hits"] + (ev.damage > 0), landed=me.get("landed", 0) + ev.hit)


def _next_turn(state: dict) -> dict:
    turn = state["turn"] + 1
    if turn < len(state["order"]):
        return update(state, turn=turn)
    state = update(state, phase="initiative", turn=0)
    s = state["settings"]
    if state["kind"] == "wit" and s["wit_end"] == "points" and s["tie"] == "sudden_death":
        f = state["fighters"]
        if state["round"] >= s["exchanges"] and f["a"]["points"] == f["b"]["points"]:
            state = update(state, sudden_death=True)
    return state


evolve = evolver(_started, mutate, describe, ENDINGS, result=result,
                 adjustable=adjustable_tracks, set_track=set_track, ending_detail=ending_detail)
