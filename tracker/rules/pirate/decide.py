"""Deciding a pirate duel: each command checked against the state, resolved into events."""
from __future__ import annotations

from typing import Any

from tracker.rules import dice_expr
from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import SIDES, DuelDrawn, DuelWon, decider, other

from .commands import Attack, Insult, MarkWorthiness, RecordFall, RollInitiative, Shoot
from .events import (PirateDuelistFell, PirateInitiativeRolled, PirateInsultTraded, PirateShotFired,
                     PirateSwordAttacked, PirateWorthinessMarked)
from .fold import evolve, fallen
from .rolls import edge, initiative, strike
from .terms import ACTION, VERB, round_word



def _mark(state: dict, cmd: MarkWorthiness, dice: Dice) -> list:
    return [PirateWorthinessMarked(side=cmd.side, worthy=cmd.verdict == "worthy", note=cmd.note or "")]


def _not_waiting(state: dict) -> None:
    """Nothing is rolled while the duel waits on a fall to be ruled."""
    waiting = fallen(state)
    if waiting:
        name = state["fighters"][waiting]["name"]
        if state["fighters"][waiting]["fate"] is None:
            raise Refused(f"{name} is at 0 PV: record whether they are down or dead first")
        raise Refused(f"{name} is down: in a duel to the death, record their death or end the duel "
                      "(yield, abandon)")


def _strikes_here(state: dict, cmd: Any) -> None:
    """A strike waits on no fall, and is the one this kind of duel makes."""
    _not_waiting(state)
    kind = state["kind"]
    if type(cmd).__name__ != ACTION[kind]:
        raise Refused(f"this is a {kind} duel: duelists {VERB[kind]} here")


def _name(state: dict, side: str) -> str:
    return state["fighters"][side]["name"]


def _require_turn(state: dict, side: str) -> None:
    if state["phase"] == "initiative":
        raise Refused(f"roll initiative for {round_word(state).lower()} {state['round'] + 1} first")
    due = state["order"][state["turn"]]
    if side != due:
        raise Refused(f"it is {_name(state, due)}'s turn to {VERB[state['kind']]}, not {_name(state, side)}'s",
                      field="side")


def _initiative(state: dict, cmd: RollInitiative, dice: Dice) -> list:
    _not_waiting(state)
    if state["phase"] != "initiative":
        due = state["order"][state["turn"]]
        raise Refused(f"{round_word(state).lower()} {state['round']} is under way: "
                      f"{_name(state, due)} is to {VERB[state['kind']]}")
    stats = {d["side"]: d["stats"] for d in state["duelists"]}
    rolled = initiative(dice, {s: stats[s]["iniciativa"] for s in SIDES}, {s: _name(state, s) for s in SIDES})
    if state["kind"] == "pistol":
        rolled["order"] = tuple(s for s in rolled["order"] if state["fighters"][s]["shots"] > 0)
    return [PirateInitiativeRolled(round=state["round"] + 1, **rolled)]


def _stats(state: dict, side: str) -> dict:
    return next(d["stats"] for d in state["duelists"] if d["side"] == side)


def _attack(state: dict, cmd: Attack, dice: Dice) -> list:
    _strikes_here(state, cmd)
    _require_turn(state, cmd.side)
    side, foe = cmd.side, other(cmd.side)
    weapon = state["settings"]["weapons"][side]
    rolled = strike(dice, side, edge(cmd.ventaja, cmd.desventaja), _stats(state, side)["atq"],
                    _stats(state, foe)["def"], weapon["damage"], f"{_name(state, side)}'s attack")
    ev = PirateSwordAttacked(round=state["round"], side=side, weapon=weapon["name"], **rolled)
    after = evolve(state, ev, 0)
    if ev.damage == 0 or after["fighters"][foe]["pv"] == 0:
        return [ev]
    return [ev] + _sword_won(after, side, f"{_name(state, foe)} took {ev.damage} PV")


def _sword_won(state: dict, side: str, detail: str) -> list:
    """DuelWon when ``side``'s damaging hits meet the agreed condition, else nothing."""
    s = state["settings"]
    hits = state["fighters"][side]["hits"]
    if s["sword_victory"] == "first_blood" and hits >= 1:
        return [DuelWon(side=side, ending="first_blood", detail=detail)]
    if s["sword_victory"] == "hits" and hits >= s["hits"]:
        return [DuelWon(side=side, ending="hits", detail=f"{hits} hits; {detail}")]
    return []


def _shoot(state: dict, cmd: Shoot, dice: Dice) -> list:
    _strikes_here(state, cmd)
    side, foe = cmd.side, other(cmd.side)
    shots = state["fighters"][side]["shots"]
    if shots <= 0:
        raise Refused(f"{_name(state, side)} has no shots left", field="side")
    _require_turn(state, side)
    s = state["settings"]
    weapon = s["weapons"][side]
    beyond = s["distance"] > weapon["range"]
    damage = weapon["damage"] if s["bullet"] == "wounds" else ""
    rolled = strike(dice, side, edge(cmd.ventaja, cmd.desventaja or beyond), _stats(state, side)["atq"],
                    _stats(state, foe)["def"], damage, f"{_name(state, side)}'s shot")
    ev = PirateShotFired(round=state["round"], side=side, weapon=weapon["name"], distance=s["distance"],
                         range=weapon["range"], shots_left=shots - 1, **rolled)
    after = evolve(state, ev, 0)
    if ev.hit:
        if after["fighters"][foe]["pv"] == 0:
            return [ev]
        return [ev, DuelWon(side=side, ending="hit", detail=f"{_name(state, foe)} was hit")]
    if all(after["fighters"][x]["shots"] == 0 for x in SIDES):
        return [ev, DuelDrawn(ending="out_of_shots", detail="both pistols ran dry with no hit")]
    return [ev]


def _fall(state: dict, cmd: RecordFall, dice: Dice) -> list:
    if state["kind"] == "wit":
        raise Refused("nobody falls in a duelo de labia: CAR is not PV")
    f = state["fighters"][cmd.side]
    if f["pv"] > 0:
        raise Refused(f"{f['name']} still has {f['pv']} PV: only a duelist at 0 PV falls", field="side")
    if f["fate"] == "dead":
        raise Refused(f"{f['name']} is already dead", field="side")
    if f["fate"] == cmd.fate:
        raise Refused(f"{f['name']} is already {cmd.fate}", field="fate")
    ev = PirateDuelistFell(side=cmd.side, fate=cmd.fate)
    winner, s = other(cmd.side), state["settings"]
    detail = f"{f['name']} is {cmd.fate}"
    if state["kind"] == "pistol":
        return [ev, DuelWon(side=winner, ending="hit", detail=detail)]
    if s["sword_victory"] == "death":
        return [ev] + ([DuelWon(side=winner, ending="death", detail=detail)] if cmd.fate == "dead" else [])
    won = _sword_won(state, winner, detail)
    return [ev] + (won or [DuelWon(side=winner, ending="death" if cmd.fate == "dead" else "down", detail=detail)])


def _insult(state: dict, cmd: Insult, dice: Dice) -> list:
    _strikes_here(state, cmd)
    _require_turn(state, cmd.side)
    side, foe = cmd.side, other(cmd.side)
    table = state["settings"]["insults"]
    entry = next((i for i in table if i["name"].lower() == cmd.insult.strip().lower()), None)
    if entry is None:
        raise Refused(f"no insult called {cmd.insult} in this duel's table "
                      f"({', '.join(i['name'] for i in table)})", field="insult")
    mine = _stats(state, side)
    rolled = strike(dice, side, edge(cmd.ventaja, cmd.desventaja), mine["comunicacion"] + entry["to_hit"],
                    _stats(state, foe)["sab"], entry["damage"], f"{_name(state, side)}'s {entry['name']}")
    backlash = {}
    if not rolled["hit"] and entry["backlash"]:
        hurt = dice_expr.roll(entry["backlash"], dice, side, f"backlash of {entry['name']}")
        backlash = {"backlash_expression": entry["backlash"], "backlash_dice": hurt.dice, "backlash": hurt.total}
    ev = PirateInsultTraded(round=state["round"], side=side, insult=entry["name"], **rolled, **backlash)
    after = evolve(state, ev, 0)
    f = after["fighters"]
    if f[foe]["car"] == 0:
        return [ev, DuelWon(side=side, ending="humiliation", detail=f"{f[foe]['name']} withdraws, humiliated")]
    if f[side]["car"] == 0:
        return [ev, DuelWon(side=foe, ending="humiliation",
                            detail=f"{f[side]['name']} withdraws, humiliated by their own {entry['name']}")]
    return [ev] + _points(after)


def _points(state: dict) -> list:
    """After a full exchange at or past the agreed number: the leader wins, or a tie is settled."""
    s = state["settings"]
    if state["phase"] != "initiative" or s["wit_end"] != "points" or state["round"] < s["exchanges"]:
        return []
    a, b = state["fighters"]["a"]["points"], state["fighters"]["b"]["points"]
    if a != b:
        extra = f" in sudden death (exchange {state['round']})" if state["round"] > s["exchanges"] else ""
        return [DuelWon(side="a" if a > b else "b", ending="points", detail=f"{max(a, b)} to {min(a, b)}{extra}")]
    if s["tie"] == "draw":
        return [DuelDrawn(ending="points_tied", detail=f"tied {a} to {b} after the agreed exchanges")]
    return []


HANDLERS = {MarkWorthiness: _mark, RecordFall: _fall, RollInitiative: _initiative,
            Attack: _attack, Shoot: _shoot, Insult: _insult}
# The common endings first, then the command's own handler.
decide = decider(HANDLERS)
