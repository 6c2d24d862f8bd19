"""The numbers of each resolved Rocèt step, as data: the structured twin of its history line."""
from __future__ import annotations

from tracker.rules.duel import fields_of, other
from tracker.rules.rocet.events import (
    RocetCardDiscarded, RocetDamageDealt, RocetDamageDeclined, RocetDuelistFell, RocetTurnResolved,
    RocetTurnTied,
)
from tracker.rules.rocet.terms import VENTAJA, advantage, compare, critical, fumble


def roll_rows(rolls, bonus_side: str) -> list[dict]:
    """Each opposed roll: per side its dice, Ventaja bonus, total and mark (critical, fumble or
    ""), and ``result`` ("a", "b" or "tie"). Every row but a resolved turn's last is a tie."""
    rows = []
    for roll in rolls:
        row = {}
        for side, pair in (("a", roll[:2]), ("b", roll[2:])):
            bonus = VENTAJA if bonus_side == side else 0
            row[side] = {"dice": list(pair), "bonus": bonus, "total": sum(pair) + bonus,
                         "mark": "critical" if critical(pair) else "fumble" if fumble(pair) else ""}
        row["result"] = compare(roll[:2], roll[2:], row["a"]["bonus"], row["b"]["bonus"])
        rows.append(row)
    return rows


def result(state: dict, ev) -> dict | None:
    """The numbers of ``ev`` given the state before it; None for a step without any (a draw)."""
    if isinstance(ev, RocetTurnResolved):
        clocks = {"a": ev.clock_a, "b": ev.clock_b} if state.get("clock_size") else None
        return {"turn": ev.turn, "cards": {"a": ev.card_a, "b": ev.card_b}, "ventaja": ev.advantage or None,
                "rolls": roll_rows(ev.rolls, ev.advantage), "winner": ev.winner, "ta": ev.ta,
                "clocks": clocks, "meter": ev.meter if state.get("meter_steps") else None,
                "pm_damage": ev.pm_damage, "clock_completed": ev.completed, "discard_owed": ev.discard_owed,
                "damage_offers": list(ev.offers), "win": ev.win or None}
    if isinstance(ev, RocetTurnTied):
        bonus = advantage(state["table"]["a"], state["table"]["b"])
        return {"turn": ev.turn, "cards": dict(state["table"]), "ventaja": bonus or None,
                "rolls": roll_rows(ev.rolls, bonus)}
    if isinstance(ev, RocetDamageDealt):
        target = state["sides"][other(ev.side)]
        return fields_of(ev, target=other(ev.side), track="PG", pg_after=max(0, target["pg"] - ev.amount))
    if isinstance(ev, (RocetDamageDeclined, RocetCardDiscarded, RocetDuelistFell)):
        return fields_of(ev)
    return None
