"""Damage and roll expressions such as "1d8", "2d6+3" or "1d10-1", rolled from a Dice tray.

The d20 library parses the notation (a maintained grammar beats a hand-written regex);
the rolling itself goes through our ``Dice`` so each die is typed or server-rolled and
recorded, never rolled again on replay.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import d20
from d20 import diceast

from tracker.rules.dice import Dice
from tracker.rules.text import t


@dataclass(frozen=True)
class Rolled:
    """An expression's total and the dice that made it."""

    expression: str
    dice: tuple[int, ...]
    total: int


def check(expression: str) -> str:
    """The expression, normalised, if it is plain dice arithmetic; else ValueError."""
    text = expression.replace(" ", "").lower()
    if not text or len(text) > 40:
        raise ValueError(t("must be dice such as 1d8 or 2d6+3"))
    try:
        tree = d20.parse(text)
    except Exception:
        raise ValueError(t("must be dice such as 1d8 or 2d6+3")) from None
    _sizes(tree.roll)
    return text


def sizes(expression: str) -> list[int]:
    """The die sizes the expression rolls, in order (what a GM types for it)."""
    return _sizes(d20.parse(expression).roll)


def roll(expression: str, dice: Dice, who: str = "a", what: Any = None) -> Rolled:
    """Roll the expression from the tray; the result keeps every die."""
    what = t("damage") if what is None else what
    used: list[int] = []
    total = _eval(d20.parse(expression).roll, dice, who, what, used)
    return Rolled(expression, tuple(used), max(total, 0))


def doubled(rolled: Rolled) -> Rolled:
    return Rolled(rolled.expression + " ×2", rolled.dice, rolled.total * 2)


def _sizes(node) -> list[int]:
    if isinstance(node, diceast.Dice):
        if not (1 <= node.num <= 20 and node.size in (2, 3, 4, 6, 8, 10, 12, 20, 100)):
            raise ValueError(t("dice must be like 1d4 … 20d20"))
        return [node.size] * node.num
    if isinstance(node, diceast.Literal):
        return []
    if isinstance(node, diceast.BinOp) and node.op in "+-":
        return _sizes(node.left) + _sizes(node.right)
    if isinstance(node, diceast.Parenthetical):
        return _sizes(node.value)
    raise ValueError(t("only dice, numbers, + and - are allowed"))


def _eval(node, dice: Dice, who: str, what: Any, used: list[int]) -> int:
    if isinstance(node, diceast.Dice):
        values = [dice.roll(node.size, who, what) for _ in range(node.num)]
        used.extend(values)
        return sum(values)
    if isinstance(node, diceast.Literal):
        return int(node.value)
    if isinstance(node, diceast.BinOp):
        left = _eval(node.left, dice, who, what, used)
        right = _eval(node.right, dice, who, what, used)
        return left + right if node.op == "+" else left - right
    if isinstance(node, diceast.Parenthetical):
        return _eval(node.value, dice, who, what, used)
    raise ValueError(t("only dice, numbers, + and - are allowed"))
