"""The pirate duel's state as a fold of its events, and each event in plain language.

The fold never invents or loses a wound, a hit, a shot or an ending: an event the state could
not have produced (a strike out of turn, a shot from an empty pistol, a win the hits do not
show) raises ``ImpossibleHistory``; ``decide`` never produces one.
"""
from __future__ import annotations

from typing import Any

from tracker.rules.base import ImpossibleHistory
from tracker.rules.state import update
from tracker.rules.duel import (SIDES, DuelDrawn, DuelStarted, DuelWon, describe_ending, evolve_ending, initial,
                                other, wound)

from .events import (PirateDuelistFell, PirateInitiativeRolled, PirateInsultTraded, PirateShotFired,
                     PirateSwordAttacked, PirateWorthinessMarked)
from .invariants import ENDINGS
from .rolls import EDGE_TEXT
from .setup import KINDS, current_pv

STRIKES = (PirateSwordAttacked, PirateShotFired, PirateInsultTraded)


def evolve(state: dict | None, ev: Any, at: int) -> dict:
    """The state after ``ev`` (never mutating ``state``), with the event in the history."""
    if not isinstance(ev, DuelStarted):
        _check(state, ev)
    text = describe(state, ev)
    if isinstance(ev, DuelStarted):
        new = _started(ev)
    else:
        new = evolve_ending(state, ev)
        if new is None:
            new = _apply(state, ev, at)
    return update(new, history=new["history"] + [{"at": at, "text": text}])


def _started(ev: DuelStarted) -> dict:
    state = initial(ev)
    fighters = {}
    for d in ev.duelists:
        stats = d["stats"]
        fighters[d["side"]] = {"id": d["id"], "name": d["name"], "pv": current_pv(d), "car": stats["car"],
                               "hits": 0, "landed": 0, "points": 0, "shots": ev.settings.get("shots"),
                               "fate": None, "worthy": None}
    return update(state, fighters=fighters, round=0, phase="initiative", order=[], turn=0,
                  initiative=None, sudden_death=False)


def impossible(why: str):
    raise ImpossibleHistory(why)


def _waiting_on(state: dict) -> str | None:
    """The side at 0 PV the duel waits on (as ``play.fallen``): no strike or initiative meanwhile."""
    if state["kind"] == "wit":
        return None
    return next((side for side in SIDES if state["fighters"][side]["pv"] == 0
                 and state["fighters"][side]["fate"] != "dead"), None)


def _check(state: dict | None, ev: Any) -> None:
    """Refuse to fold an event the state could not have produced."""
    if state is None:
        impossible("a duel starts with DuelStarted")
    if state["outcome"]:
        impossible(f"{type(ev).__name__} after the duel ended")
    if isinstance(ev, (DuelWon, DuelDrawn)):
        check = ENDINGS.get(ev.ending)
        why = check(state, getattr(ev, "side", None)) if check else f"pirate duels have no {ev.ending} ending"
        if why:
            impossible(f"an ending by {ev.ending}, but {why}")
    elif isinstance(ev, PirateInitiativeRolled):
        if state["phase"] != "initiative" or ev.round != state["round"] + 1 or _waiting_on(state):
            impossible(f"initiative for round {ev.round} where none was due")
    elif isinstance(ev, STRIKES):
        due = state["order"][state["turn"]] if state["phase"] == "act" else None
        if due != ev.side or ev.round != state["round"] or _waiting_on(state):
            impossible(f"a strike by side {ev.side} out of turn")
        if isinstance(ev, PirateShotFired) and ev.shots_left != state["fighters"][ev.side]["shots"] - 1:
            impossible(f"a shot leaving {ev.shots_left} from a pistol with {state['fighters'][ev.side]['shots']}")
    elif isinstance(ev, PirateDuelistFell):
        f = state["fighters"][ev.side]
        if state["kind"] == "wit" or f["pv"] > 0 or f["fate"] in ("dead", ev.fate):
            impossible(f"{f['name']} ruled {ev.fate} at {f['pv']} PV")


def fighter(state: dict, side: str, **changes: Any) -> dict:
    """The state with one duelist's figures changed."""
    fighters = dict(state["fighters"])
    fighters[side] = {**fighters[side], **changes}
    return update(state, fighters=fighters)


def _apply(state: dict, ev: Any, at: int) -> dict:
    if isinstance(ev, PirateInitiativeRolled):
        return update(state, round=ev.round, phase="act" if ev.order else "initiative", order=list(ev.order),
                      turn=0, initiative={"a": ev.total_a, "b": ev.total_b})
    if isinstance(ev, PirateDuelistFell):
        return fighter(state, ev.side, fate=ev.fate)
    if isinstance(ev, PirateWorthinessMarked):
        return fighter(state, ev.side, worthy=ev.worthy)
    if isinstance(ev, STRIKES):
        return _next_turn(_strike(state, ev, at))
    raise ValueError(f"not a pirate duel event: {type(ev).__name__}")


def _strike(state: dict, ev: Any, at: int) -> dict:
    me, them = state["fighters"][ev.side], state["fighters"][other(ev.side)]
    if isinstance(ev, PirateInsultTraded):
        left = max(0, them["car"] - ev.damage)
        state = wound(state, them["id"], "CAR", them["car"] - left, at, f"{ev.insult} by {me['name']}")
        state = fighter(state, other(ev.side), car=left)
        state = fighter(state, ev.side, points=me["points"] + ev.damage)
        if ev.backlash:
            mine = max(0, me["car"] - ev.backlash)
            state = wound(state, me["id"], "CAR", me["car"] - mine, at, f"backlash of own {ev.insult}")
            state = fighter(state, ev.side, car=mine)
        return state
    left = max(0, them["pv"] - ev.damage)
    state = wound(state, them["id"], "PV", them["pv"] - left, at, f"{ev.weapon} of {me['name']}")
    state = fighter(state, other(ev.side), pv=left)
    state = fighter(state, ev.side, hits=me["hits"] + (ev.damage > 0), landed=me.get("landed", 0) + ev.hit)
    if isinstance(ev, PirateShotFired):
        state = fighter(state, ev.side, shots=ev.shots_left)
    return state


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


# --- plain language --------------------------------------------------------------------

def round_word(state: dict) -> str:
    return "Exchange" if state["kind"] == "wit" else "Round"


def describe(state: dict | None, ev: Any) -> str:
    """One line for the log, given the state before the event."""
    if isinstance(ev, DuelStarted):
        names = " vs ".join(d["name"] for d in sorted(ev.duelists, key=lambda d: d["side"]))
        return f"{KINDS[ev.kind]}: {names}" + _terms(ev.settings) + "."
    ending = describe_ending(state, ev)
    if ending is not None:
        return ending
    f = state["fighters"]
    if isinstance(ev, PirateInitiativeRolled):
        def one(side: str, rolls: tuple, total: int) -> str:
            if len(rolls) > 1:
                return f"{f[side]['name']} {total} (d20s {', '.join(map(str, rolls))}: ties rerolled)"
            return f"{f[side]['name']} {total} (d20 {rolls[-1]})"
        first = f[ev.order[0]]["name"] if ev.order else "nobody"
        return (f"{round_word(state)} {ev.round} initiative: {one('a', ev.rolls_a, ev.total_a)}, "
                f"{one('b', ev.rolls_b, ev.total_b)}; {first} goes first.")
    if isinstance(ev, PirateDuelistFell):
        return f"{f[ev.side]['name']} is {ev.fate}" + (" (alive, out of the fight)." if ev.fate == "down" else ".")
    if isinstance(ev, PirateWorthinessMarked):
        verdict = "a worthy" if ev.worthy else "an unworthy"
        return f"{f[ev.side]['name']} is marked {verdict} opponent" + (f": {ev.note}." if ev.note else ".")
    return _describe_strike(state, ev)


def _terms(s: dict) -> str:
    if s["kind"] == "sword":
        to = {"first_blood": "first blood", "hits": f"{s.get('hits')} hits", "death": "the death"}
        return f", to {to[s['sword_victory']]}"
    if s["kind"] == "pistol":
        return f", at {s['distance']} paces, {s['shots']} shots each"
    if s["wit_end"] == "points":
        exchanges = "1 exchange" if s["exchanges"] == 1 else f"{s['exchanges']} exchanges"
        return f", {exchanges}, a tie goes to {s['tie'].replace('_', ' ')}"
    return ", until one is humiliated"


def _roll_text(ev: Any, defence: str) -> str:
    kept = f"d20 {ev.d20}" if len(ev.d20s) == 1 else \
        f"{EDGE_TEXT[ev.edge]} {ev.d20s[0]}, {ev.d20s[1]} → {ev.d20}"
    cancel = f" ({EDGE_TEXT[ev.edge]})" if ev.edge == "cancelled" else ""
    return f"{kept}{cancel} {ev.bonus:+d} = {ev.total} vs {defence} {ev.defence}: {'hit' if ev.hit else 'miss'}"


def _shots(n: int) -> str:
    return "no shots" if n == 0 else "1 shot" if n == 1 else f"{n} shots"


def _describe_strike(state: dict, ev: Any) -> str:
    f = state["fighters"]
    me, them = f[ev.side], f[other(ev.side)]
    head = f"{round_word(state)} {ev.round}: "
    damage = f", {ev.damage_expression} [{' '.join(map(str, ev.damage_dice))}] = {ev.damage}" if ev.hit else ""
    if isinstance(ev, PirateInsultTraded):
        text = f"{head}{me['name']} tries {ev.insult} on {them['name']}, {_roll_text(ev, 'SAB')}{damage}"
        if ev.hit:
            text += f"; {them['name']}'s CAR {them['car']} → {max(0, them['car'] - ev.damage)}"
        if ev.backlash:
            text += (f"; the backlash {ev.backlash_expression} [{' '.join(map(str, ev.backlash_dice))}] "
                     f"costs {me['name']} {ev.backlash} CAR ({me['car']} → {max(0, me['car'] - ev.backlash)})")
        return text + "."
    pv = f"; {them['name']}'s PV {them['pv']} → {max(0, them['pv'] - ev.damage)}" if ev.damage else ""
    if isinstance(ev, PirateShotFired):
        beyond = f", beyond its range of {ev.range}" if ev.distance > ev.range else ""
        return (f"{head}{me['name']} fires {ev.weapon} at {them['name']} from {ev.distance} paces{beyond}, "
                f"{_roll_text(ev, 'DEF')}{damage}{pv}; {_shots(ev.shots_left)} left.")
    return f"{head}{me['name']} attacks {them['name']} with {ev.weapon}, {_roll_text(ev, 'DEF')}{damage}{pv}."
