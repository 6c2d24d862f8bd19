"""The pirate duel in plain language: one line for the log per event."""
from __future__ import annotations

from typing import Any

from tracker.rules.duel import DuelDrawn, DuelStarted, DuelWon, describe_ending, other

from .events import PirateDuelistFell, PirateInitiativeRolled, PirateInsultChosen, PirateInsultTraded, PirateShotFired, PirateWorthinessMarked
from .rolls import EDGE_TEXT
from .terms import FATES, KINDS, round_name
from tracker.rules.text import Text, join, t, tn


def ending_detail(state: dict, ev: Any) -> Text | None:
    """How a ``DuelWon`` or ``DuelDrawn`` the rules decided came about, told from the state before
    it: the events hold only the winner and the ending, and the step that ended the duel (a blow,
    a shot, a fall, an insult) is the last line of the history, with its numbers. None when the
    GM's own words tell it."""
    if not isinstance(ev, (DuelWon, DuelDrawn)) or ev.detail:
        return None
    f = state["fighters"]
    a, b = f["a"]["points"], f["b"]["points"]
    if isinstance(ev, DuelDrawn):
        if ev.ending == "out_of_shots":
            return t("both pistols ran dry with no hit")
        if ev.ending == "points_tied":
            return t("tied {a} to {b} after the agreed exchanges", a=a, b=b)
        return None
    if ev.ending == "points":
        if state["round"] > state["settings"]["exchanges"]:
            return t("{high} to {low} in sudden death (exchange {round})", high=max(a, b), low=min(a, b),
                     round=state["round"])
        return t("{high} to {low}", high=max(a, b), low=min(a, b))
    loser = f[other(ev.side)]
    last = _last_step(state)
    if ev.ending == "humiliation":
        if last.get("side") == other(ev.side):  # the loser's own insult came back at them
            return t("{name} withdraws, humiliated by their own {insult}", name=loser["name"], insult=last["insult"])
        return t("{name} withdraws, humiliated", name=loser["name"])
    if last.get("event") == "PirateDuelistFell":
        how = t("{name} is {fate}", name=loser["name"], fate=FATES[last["fate"]])
    elif ev.ending == "hit":
        how = t("{name} was hit", name=loser["name"])
    else:
        how = t("{name} took {damage} PV", name=loser["name"], damage=last.get("damage", 0))
    if ev.ending == "hits":
        return t("{count} hits; {detail}", count=f[ev.side]["hits"], detail=how)
    return how


def _last_step(state: dict) -> dict:
    """The numbers of the step the history told last (an ending follows its step in one command)."""
    return state["history"][-1].get("result", {}) if state["history"] else {}


def describe(state: dict | None, ev: Any) -> Text:
    """One line for the log, given the state before the event."""
    if isinstance(ev, DuelStarted):
        names = join([d["name"] for d in sorted(ev.duelists, key=lambda d: d["side"])], " vs ")
        return t("{kind}: {duelists}{terms}.", kind=KINDS[ev.kind], duelists=names, terms=_terms(ev.settings))
    ending = describe_ending(state, ev, ending_detail)
    if ending is not None:
        return ending
    f = state["fighters"]
    if isinstance(ev, PirateInitiativeRolled):
        def one(side: str, rolls: tuple, total: int) -> Text:
            if len(rolls) > 1:
                return t("{name} {total} (d20s {rolls}: ties rerolled)", name=f[side]["name"], total=total,
                         rolls=join(rolls))
            return t("{name} {total} (d20 {roll})", name=f[side]["name"], total=total, roll=rolls[-1])
        first = f[ev.order[0]]["name"] if ev.order else t("nobody")
        return t("{round} initiative: {a}, {b}; {first} goes first.", round=round_name(state, ev.round),
                 a=one("a", ev.rolls_a, ev.total_a), b=one("b", ev.rolls_b, ev.total_b), first=first)
    if isinstance(ev, PirateInsultChosen):  # sealed: the line never names the insult nor quotes the words
        if ev.side in (state.get("sealed") or {}):
            return t("{round}: {name} has changed their insult.", round=round_name(state, ev.round),
                     name=f[ev.side]["name"])
        return t("{round}: {name} has chosen an insult.", round=round_name(state, ev.round), name=f[ev.side]["name"])
    if isinstance(ev, PirateDuelistFell):
        if ev.fate == "down":
            return t("{name} is down (alive, out of the fight).", name=f[ev.side]["name"])
        return t("{name} is dead.", name=f[ev.side]["name"])
    if isinstance(ev, PirateWorthinessMarked):
        name = f[ev.side]["name"]
        if ev.worthy:
            return (t("{name} is marked a worthy opponent: {note}.", name=name, note=ev.note) if ev.note
                    else t("{name} is marked a worthy opponent.", name=name))
        return (t("{name} is marked an unworthy opponent: {note}.", name=name, note=ev.note) if ev.note
                else t("{name} is marked an unworthy opponent.", name=name))
    return _describe_strike(state, ev)


TIES = {"sudden_death": t("sudden death"), "draw": t("draw")}


def _terms(s: dict) -> Text:
    if s["kind"] == "sword":
        to = {"first_blood": t("first blood"), "hits": t("{count} hits", count=s.get("hits")),
              "death": t("the death")}
        return t(", to {victory}", victory=to[s["sword_victory"]])
    if s["kind"] == "pistol":
        return t(", at {distance} paces, {shots} shots each", distance=s["distance"], shots=s["shots"])
    if s["wit_end"] == "points":
        return t(", {exchanges}, a tie goes to {tie}",
                 exchanges=tn("{count} exchange", "{count} exchanges", s["exchanges"]), tie=TIES[s["tie"]])
    return t(", until one is humiliated")


def _roll_text(ev: Any, defence: str) -> Text:
    if len(ev.d20s) == 1:
        kept = t("d20 {roll}", roll=ev.d20)
    else:
        kept = t("{edge} {first}, {second} → {kept}", edge=EDGE_TEXT[ev.edge], first=ev.d20s[0], second=ev.d20s[1],
                 kept=ev.d20)
    if ev.edge == "cancelled":
        kept = t("{roll} ({edge})", roll=kept, edge=EDGE_TEXT[ev.edge])
    values = dict(roll=kept, bonus=f"{ev.bonus:+d}", total=ev.total, defence=defence, value=ev.defence)
    if ev.hit:
        return t("{roll} {bonus} = {total} vs {defence} {value}: hit", **values)
    return t("{roll} {bonus} = {total} vs {defence} {value}: miss", **values)


def _shots(n: int) -> Text:
    return t("no shots") if n == 0 else tn("{count} shot", "{count} shots", n)


def _dice(values) -> str:
    return " ".join(map(str, values))


def _describe_strike(state: dict, ev: Any) -> Text:
    f = state["fighters"]
    me, them = f[ev.side], f[other(ev.side)]
    head = round_name(state, ev.round)
    damage = (t(", {expression} [{dice}] = {damage}", expression=ev.damage_expression, dice=_dice(ev.damage_dice),
                damage=ev.damage) if ev.hit else "")
    if isinstance(ev, PirateInsultTraded):
        values = dict(round=head, name=me["name"], insult=ev.insult, target=them["name"], roll=_roll_text(ev, "SAB"))
        if ev.line:
            parts = [t("{round}: {name} tries {insult} on {target}: “{line}”, {roll}", line=ev.line, **values), damage]
        else:
            parts = [t("{round}: {name} tries {insult} on {target}, {roll}", **values), damage]
        if ev.hit:
            parts.append(t("; {name}'s CAR {before} → {after}", name=them["name"], before=them["car"],
                           after=max(0, them["car"] - ev.damage)))
        if ev.backlash:
            parts.append(t("; the backlash {expression} [{dice}] costs {name} {amount} CAR ({before} → {after})",
                           expression=ev.backlash_expression, dice=_dice(ev.backlash_dice), name=me["name"],
                           amount=ev.backlash, before=me["car"], after=max(0, me["car"] - ev.backlash)))
        return join(parts + ["."], "")
    pv = (t("; {name}'s PV {before} → {after}", name=them["name"], before=them["pv"],
            after=max(0, them["pv"] - ev.damage)) if ev.damage else "")
    if isinstance(ev, PirateShotFired):
        values = dict(round=head, name=me["name"], weapon=ev.weapon, target=them["name"], distance=ev.distance,
                      roll=_roll_text(ev, "DEF"), damage=damage, pv=pv, shots=_shots(ev.shots_left))
        if ev.distance > ev.range:
            return t("{round}: {name} fires {weapon} at {target} from {distance} paces, beyond its range of {range}, "
                     "{roll}{damage}{pv}; {shots} left.", range=ev.range, **values)
        return t("{round}: {name} fires {weapon} at {target} from {distance} paces, {roll}{damage}{pv}; {shots} left.",
                 **values)
    return t("{round}: {name} attacks {target} with {weapon}, {roll}{damage}{pv}.", round=head, name=me["name"],
             target=them["name"], weapon=ev.weapon, roll=_roll_text(ev, "DEF"), damage=damage, pv=pv)
