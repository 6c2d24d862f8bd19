"""The rolls every pirate duel shares: d20 with Ventaja/Desventaja, a strike, initiative."""
from __future__ import annotations

from tracker.rules import dice_expr
from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import SIDES
from tracker.rules.text import Text, t

EDGE_TEXT = {
    "": "",
    "ventaja": t("with Ventaja (2d20, keep the higher)"),
    "desventaja": t("with Desventaja (2d20, keep the lower)"),
    "cancelled": t("Ventaja and Desventaja cancel"),
}

MAX_TIES = 20


def edge(ventaja: bool, desventaja: bool) -> str:
    """Ventaja and Desventaja cancel each other; each alone rolls two d20s."""
    if ventaja and desventaja:
        return "cancelled"
    return "ventaja" if ventaja else "desventaja" if desventaja else ""


def d20(dice: Dice, who: str, how: str, what: Text) -> tuple[tuple[int, ...], int]:
    """The d20s rolled and the one kept."""
    if how in ("ventaja", "desventaja"):
        rolls = dice.roll_many((20, 20), who, what)
        return rolls, (max(rolls) if how == "ventaja" else min(rolls))
    rolls = (dice.roll(20, who, what),)
    return rolls, rolls[0]


def strike(dice: Dice, who: str, how: str, bonus: int, defence: int, damage: str, what: Text) -> dict:
    """d20 + bonus against a defence, hitting on equal or higher; damage rolled only on a hit."""
    d20s, kept = d20(dice, who, how, what)
    total = kept + bonus
    hit = total >= defence
    rolled = dice_expr.roll(damage, dice, who, t("damage of {what}", what=what)) if hit and damage else None
    return {"edge": how, "d20s": d20s, "d20": kept, "bonus": bonus, "total": total,
            "defence": defence, "hit": hit, "damage_expression": damage if hit else "",
            "damage_dice": rolled.dice if rolled else (), "damage": rolled.total if rolled else 0}


def initiative(dice: Dice, modifiers: dict[str, int], names: dict[str, str]) -> dict:
    """Both roll d20 + Iniciativa; equal totals are rerolled by both until they differ."""
    rolls: dict[str, list[int]] = {side: [] for side in SIDES}
    for _ in range(MAX_TIES):
        for side in SIDES:
            what = (t("{name}'s initiative (tie reroll)", name=names[side]) if rolls[side]
                    else t("{name}'s initiative", name=names[side]))
            rolls[side].append(dice.roll(20, side, what))
        totals = {side: rolls[side][-1] + modifiers[side] for side in SIDES}
        if totals["a"] != totals["b"]:
            first = "a" if totals["a"] > totals["b"] else "b"
            second = "b" if first == "a" else "a"
            return {"rolls_a": tuple(rolls["a"]), "rolls_b": tuple(rolls["b"]),
                    "total_a": totals["a"], "total_b": totals["b"], "order": (first, second)}
    raise Refused(t("initiative tied {count} times in a row: roll again", count=MAX_TIES))


def max_damage(expression: str) -> int:
    """The most an expression can deal (every die at its highest)."""
    return dice_expr.roll(expression, Dice(source=lambda sides: sides)).total
