"""The pirate duel in plain language: one line for the log per event."""
from __future__ import annotations

from typing import Any

from tracker.rules.duel import DuelStarted, describe_ending, other

from .events import PirateDuelistFell, PirateInitiativeRolled, PirateInsultChosen, PirateInsultTraded, PirateShotFired, PirateWorthinessMarked
from .rolls import EDGE_TEXT
from .terms import KINDS, round_word


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
    if isinstance(ev, PirateInsultChosen):  # sealed: the line never names the insult nor quotes the words
        again = ev.side in (state.get("sealed") or {})
        return (f"{round_word(state)} {ev.round}: {f[ev.side]['name']} has "
                f"{'changed their insult' if again else 'chosen an insult'}.")
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
        spoken = f": “{ev.line}”" if ev.line else ""
        text = f"{head}{me['name']} tries {ev.insult} on {them['name']}{spoken}, {_roll_text(ev, 'SAB')}{damage}"
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
