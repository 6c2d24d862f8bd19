"""Deciding a pirate duel: each command checked against the state, resolved into events."""
from __future__ import annotations

from typing import Any

from tracker.rules import dice_expr
from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import SIDES, DuelDrawn, DuelWon, decider, other

from .commands import Attack, ChooseInsult, Insult, MarkWorthiness, RecordFall, RollInitiative, Shoot, ThrowInsults
from .events import (PirateDuelistFell, PirateInsultChosen, PirateInitiativeRolled, PirateInsultTraded, PirateShotFired,
                     PirateSwordAttacked, PirateWorthinessMarked)
from .fold import evolve, fallen
from .rolls import edge, initiative, strike
from .terms import ACTION, FATES, VERB, round_name
from tracker.rules.text import join, t



WRONG_STRIKE = {"sword": t("this is a sword duel: duelists attack here"),
                "pistol": t("this is a pistol duel: duelists shoot here"),
                "wit": t("this is a duelo de labia: duelists insult here")}


def _mark(state: dict, cmd: MarkWorthiness, dice: Dice) -> list:
    return [PirateWorthinessMarked(side=cmd.side, worthy=cmd.verdict == "worthy", note=cmd.note or "")]


def _not_waiting(state: dict) -> None:
    """Nothing is rolled while the duel waits on a fall to be ruled."""
    waiting = fallen(state)
    if waiting:
        name = state["fighters"][waiting]["name"]
        if state["fighters"][waiting]["fate"] is None:
            raise Refused(t("{name} is at 0 PV: record whether they are down or dead first", name=name))
        raise Refused(t("{name} is down: in a duel to the death, record their death or end the duel "
                        "(yield, abandon)", name=name))


def _strikes_here(state: dict, cmd: Any) -> None:
    """A strike waits on no fall, and is the one this kind of duel makes."""
    _not_waiting(state)
    kind = state["kind"]
    if type(cmd).__name__ != ACTION[kind]:
        raise Refused(WRONG_STRIKE[kind])


def _name(state: dict, side: str) -> str:
    return state["fighters"][side]["name"]


def _require_turn(state: dict, side: str) -> None:
    if state["phase"] == "initiative":
        raise Refused(t("roll initiative for {round} first", round=round_name(state, state["round"] + 1, False)))
    due = state["order"][state["turn"]]
    if side != due:
        raise Refused(t("it is {due}'s turn to {verb}, not {name}'s", due=_name(state, due), verb=VERB[state["kind"]],
                        name=_name(state, side)), field="side")


def _initiative(state: dict, cmd: RollInitiative, dice: Dice) -> list:
    _not_waiting(state)
    if state["phase"] != "initiative":
        due = state["order"][state["turn"]]
        raise Refused(t("{round} is under way: {name} is to {verb}", round=round_name(state, state["round"], False),
                        name=_name(state, due), verb=VERB[state["kind"]]))
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
                    _stats(state, foe)["def"], weapon["damage"], t("{name}'s attack", name=_name(state, side)))
    ev = PirateSwordAttacked(round=state["round"], side=side, weapon=weapon["name"], **rolled)
    after = evolve(state, ev, 0)
    if ev.damage == 0 or after["fighters"][foe]["pv"] == 0:
        return [ev]
    return [ev] + _sword_won(after, side)


def _sword_won(state: dict, side: str) -> list:
    """DuelWon when ``side``'s damaging hits meet the agreed condition, else nothing."""
    s = state["settings"]
    hits = state["fighters"][side]["hits"]
    if s["sword_victory"] == "first_blood" and hits >= 1:
        return [DuelWon(side=side, ending="first_blood")]
    if s["sword_victory"] == "hits" and hits >= s["hits"]:
        return [DuelWon(side=side, ending="hits")]
    return []


def _shoot(state: dict, cmd: Shoot, dice: Dice) -> list:
    _strikes_here(state, cmd)
    side, foe = cmd.side, other(cmd.side)
    shots = state["fighters"][side]["shots"]
    if shots <= 0:
        raise Refused(t("{name} has no shots left", name=_name(state, side)), field="side")
    _require_turn(state, side)
    s = state["settings"]
    weapon = s["weapons"][side]
    beyond = s["distance"] > weapon["range"]
    damage = weapon["damage"] if s["bullet"] == "wounds" else ""
    rolled = strike(dice, side, edge(cmd.ventaja, cmd.desventaja or beyond), _stats(state, side)["atq"],
                    _stats(state, foe)["def"], damage, t("{name}'s shot", name=_name(state, side)))
    ev = PirateShotFired(round=state["round"], side=side, weapon=weapon["name"], distance=s["distance"],
                         range=weapon["range"], shots_left=shots - 1, **rolled)
    after = evolve(state, ev, 0)
    if ev.hit:
        if after["fighters"][foe]["pv"] == 0:
            return [ev]
        return [ev, DuelWon(side=side, ending="hit")]
    if all(after["fighters"][x]["shots"] == 0 for x in SIDES):
        return [ev, DuelDrawn(ending="out_of_shots")]
    return [ev]


def _fall(state: dict, cmd: RecordFall, dice: Dice) -> list:
    if state["kind"] == "wit":
        raise Refused(t("nobody falls in a duelo de labia: CAR is not PV"))
    f = state["fighters"][cmd.side]
    if f["pv"] > 0:
        raise Refused(t("{name} still has {pv} PV: only a duelist at 0 PV falls", name=f["name"], pv=f["pv"]),
                      field="side")
    if f["fate"] == "dead":
        raise Refused(t("{name} is already dead", name=f["name"]), field="side")
    if f["fate"] == cmd.fate:
        raise Refused(t("{name} is already {fate}", name=f["name"], fate=FATES[cmd.fate]), field="fate")
    ev = PirateDuelistFell(side=cmd.side, fate=cmd.fate)
    winner, s = other(cmd.side), state["settings"]
    if state["kind"] == "pistol":
        return [ev, DuelWon(side=winner, ending="hit")]
    if s["sword_victory"] == "death":
        return [ev] + ([DuelWon(side=winner, ending="death")] if cmd.fate == "dead" else [])
    won = _sword_won(state, winner)
    return [ev] + (won or [DuelWon(side=winner, ending="death" if cmd.fate == "dead" else "down")])


def _entry(state: dict, insult: str) -> dict:
    """The insult table's row named ``insult``, or Refused listing the table."""
    table = state["settings"]["insults"]
    entry = next((i for i in table if i["name"].lower() == insult.strip().lower()), None)
    if entry is None:
        raise Refused(t("no insult called {insult} in this duel's table ({table})", insult=insult,
                        table=join(i["name"] for i in table)), field="insult")
    return entry


def _insult(state: dict, cmd: Insult, dice: Dice, sealed: bool = False) -> list:
    """An insult traded; ``sealed`` when it is thrown from a choice still sealed: then a refusal of
    its dice (the table's, typed at the throw) calls it "Inés's sealed insult", never by its name,
    for nothing is appended and the choice stays sealed."""
    _strikes_here(state, cmd)
    _require_turn(state, cmd.side)
    side, foe = cmd.side, other(cmd.side)
    entry = _entry(state, cmd.insult)
    mine = _stats(state, side)
    said = (t("{name}'s sealed insult", name=_name(state, side)) if sealed
            else t("{name}'s {insult}", name=_name(state, side), insult=entry["name"]))
    rolled = strike(dice, side, edge(cmd.ventaja, cmd.desventaja), mine["comunicacion"] + entry["to_hit"],
                    _stats(state, foe)["sab"], entry["damage"], said)
    backlash = {}
    if not rolled["hit"] and entry["backlash"]:
        hurt = dice_expr.roll(entry["backlash"], dice, side,
                              t("backlash of {insult}", insult=said if sealed else entry["name"]))
        backlash = {"backlash_expression": entry["backlash"], "backlash_dice": hurt.dice, "backlash": hurt.total}
    ev = PirateInsultTraded(round=state["round"], side=side, insult=entry["name"], **rolled, **backlash,
                            line=cmd.line or "")
    after = evolve(state, ev, 0)
    f = after["fighters"]
    if f[foe]["car"] == 0:
        return [ev, DuelWon(side=side, ending="humiliation")]
    if f[side]["car"] == 0:
        return [ev, DuelWon(side=foe, ending="humiliation")]
    return [ev] + _points(after)


# --- sealed insults: each side chooses in secret, then the exchange is thrown --------------------

def sealed_choices(state: dict) -> bool:
    """True in a wit duel whose insults each side chooses in secret before the exchange."""
    return state["kind"] == "wit" and state["settings"].get("choices") == "sealed"


def _unless_sealed(handler):
    """``handler`` for the GM's own command, refused where the insults are chosen in secret: there the
    exchange (its initiative and each insult) is thrown only from the sealed choices, so nobody can
    roll past a choice nor record an insult over it."""
    def guarded(state: dict, cmd: Any, dice: Dice) -> list:
        if sealed_choices(state):
            raise Refused(t("in this duel each side chooses its insult in secret (on a seat, or the NPC's on "
                            "this page): choose, then throw the insults"))
        return handler(state, cmd, dice)
    return guarded


def _choose_insult(state: dict, cmd: ChooseInsult, dice: Dice) -> list:
    if not sealed_choices(state):
        raise Refused(t("in this duel the GM records each insult in turn"), field="insult")
    _not_waiting(state)
    coming = state["round"] + 1
    if state["phase"] != "initiative":
        raise Refused(t("{round} is under way: choose for the next one once it is over",
                        round=round_name(state, state["round"], False)), field="insult")
    if cmd.round is not None and cmd.round != coming:
        raise Refused(t("that choice was for exchange {chosen}, and the duel is now at exchange {coming}: "
                        "choose again", chosen=cmd.round, coming=coming), field="insult")
    entry = _entry(state, cmd.insult)
    # Where the seats roll, a side's d20 is typed with its choice and sealed in it; left blank (an NPC
    # the GM chooses for, a player with no die at hand) the server rolls it at the throw, into the
    # insult's own event: either way the roll is in the log, and a replay never rolls.
    typed = state["settings"].get("dice_by") == "seats" and cmd.dice is not None
    if typed and (len(cmd.dice) != 1 or not 1 <= cmd.dice[0] <= 20):
        raise Refused(t("type the d20 you rolled for your insult, e.g. 14"), field="dice")
    chosen = PirateInsultChosen(round=coming, side=cmd.side, insult=entry["name"], line=cmd.line or "",
                                die=cmd.dice[0] if typed else 0)
    after = evolve(state, chosen, 0)
    settings = state["settings"]
    if len(after["sealed"]) < 2 or settings.get("reveal", "auto") != "auto" or settings.get("dice_by") == "table":
        return [chosen]
    return [chosen] + _exchange(after, dice)


def _throw(state: dict, cmd: ThrowInsults, dice: Dice) -> list:
    if not sealed_choices(state):
        raise Refused(t("in this duel the GM records each insult in turn"))
    _not_waiting(state)
    if state["phase"] != "initiative":  # only a rewind stops an exchange midway: the rest is still sealed
        due = state["order"][state["turn"]:]
        if not due or any(side not in (state.get("sealed") or {}) for side in due):
            raise Refused(t("{round} is under way", round=round_name(state, state["round"], False)))
        return _thrown(state, dice)
    waiting = [_name(state, side) for side in SIDES if side not in (state.get("sealed") or {})]
    if waiting:
        if len(waiting) == 2:
            raise Refused(t("waiting for {first} and {second} to choose", first=waiting[0], second=waiting[1]))
        raise Refused(t("waiting for {name} to choose", name=waiting[0]))
    return _exchange(state, dice)


def _exchange(state: dict, dice: Dice) -> list:
    """Both sealed insults thrown: initiative, then each insult in its order, until one ends the duel."""
    events = _initiative(state, RollInitiative(), dice)
    return events + _thrown(evolve(state, events[0], 0), dice)


def _thrown(state: dict, dice: Dice) -> list:
    """The sealed insults still to come in this exchange, each in its order, until one ends the duel."""
    events = []
    by_seat = state["settings"].get("dice_by") == "seats"
    for side in state["order"][state["turn"]:]:
        chosen = state["sealed"][side]
        if by_seat and chosen["die"]:  # the seat's own d20 comes first for its insult; the server rolls the rest
            dice = dice.with_typed({side: [chosen["die"]]})
        thrown = _insult(state, Insult(side=side, insult=chosen["insult"], line=chosen["line"] or None), dice,
                         sealed=True)
        events += thrown
        for e in thrown:
            state = evolve(state, e, 0)
        if state["outcome"]:
            break
    return events


def _points(state: dict) -> list:
    """After a full exchange at or past the agreed number: the leader wins, or a tie is settled."""
    s = state["settings"]
    if state["phase"] != "initiative" or s["wit_end"] != "points" or state["round"] < s["exchanges"]:
        return []
    a, b = state["fighters"]["a"]["points"], state["fighters"]["b"]["points"]
    if a != b:
        return [DuelWon(side="a" if a > b else "b", ending="points")]
    if s["tie"] == "draw":
        return [DuelDrawn(ending="points_tied")]
    return []


HANDLERS = {MarkWorthiness: _mark, RecordFall: _fall, RollInitiative: _unless_sealed(_initiative),
            Attack: _attack, Shoot: _shoot, Insult: _unless_sealed(_insult), ChooseInsult: _choose_insult, ThrowInsults: _throw}
# The common endings first, then the command's own handler.
decide = decider(HANDLERS)
