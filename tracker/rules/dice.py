"""The dice tray: where a command's dice come from, typed at the table or rolled by the server.

The rules never roll themselves: the service injects the source, and every value drawn is written
into the event that used it, so replay never rolls.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

from tracker.rules.base import Refused
from tracker.rules.text import Text, t

class Dice:
    """Where a command's dice come from: values typed at the table, else a source.

    ``typed`` maps a name (usually a duelist's side, "a" or "b") to the die values the
    GM typed, consumed in order. When a name has no typed values left, ``source`` (the
    server's roller, injected by the service) rolls; with no source the command is
    refused, asking for the missing die. Rules read every value they use into the
    events they return, so replay never rolls.
    """

    def __init__(self, typed: Mapping[str, Sequence[int]] | None = None,
                 source: Callable[[int], int] | None = None,
                 shuffle: Callable[[int], list[int]] | None = None):
        self._typed = {k: list(v) for k, v in (typed or {}).items()}
        self._source = source
        self._shuffle = shuffle

    def roll(self, sides: int, who: str = "a", what: str | Text = "") -> int:
        """One die of ``sides`` for ``who``."""
        queue = self._typed.get(who)
        if queue:
            value = queue.pop(0)
            if not 1 <= value <= sides:
                reason = (t("a d{sides} cannot show {value} ({what})", sides=sides, value=value, what=what) if what
                          else t("a d{sides} cannot show {value}", sides=sides, value=value))
                raise Refused(reason, field=f"dice_{who}")
            return value
        if self._source is None:
            reason = (t("type another d{sides} for {what}, or let the server roll", sides=sides, what=what) if what
                      else t("type another d{sides}, or let the server roll", sides=sides))
            raise Refused(reason, field=f"dice_{who}")
        return self._source(sides)

    def can_roll(self, who: str = "a") -> bool:
        """True when a die for ``who`` would come without a refusal: typed values are left, or a source rolls."""
        return bool(self._typed.get(who)) or self._source is not None

    def roll_many(self, sizes: Sequence[int], who: str = "a", what: str | Text = "") -> tuple[int, ...]:
        return tuple(self.roll(s, who, what) for s in sizes)

    def permutation(self, n: int) -> list[int]:
        """A shuffled order of range(n) (for decks); refused when no source is given."""
        if self._shuffle is None:
            raise Refused(t("shuffling needs the server (virtual cards)"))
        order = list(self._shuffle(n))
        if sorted(order) != list(range(n)):
            raise Refused(t("a shuffle must be an order of every card"))
        return order

    def with_typed(self, extra: Mapping[str, Sequence[int]]) -> "Dice":
        """This tray with ``extra`` values drawn first (dice a duelist typed earlier, sealed with a choice)."""
        for who, values in extra.items():
            self._typed[who] = list(values) + self._typed.get(who, [])
        return self

    def set_aside(self, who: str, values: Sequence[int]) -> None:
        """Take ``values`` off the front of ``who``'s typed dice, when they are there: dice a
        command carries for later (a seat's own die, sealed with its choice and kept in its event),
        not rolled now, so they are not "left over"."""
        queue = self._typed.get(who, [])
        if queue[:len(values)] == list(values):
            del queue[:len(values)]

    def leftover(self) -> dict[str, list[int]]:
        """Typed values no rule used (the service refuses them: a typo is likely)."""
        return {k: v for k, v in self._typed.items() if v}


def fixed_dice(**typed: Sequence[int]) -> Dice:
    """Dice typed at the table only (tests and the GM's typed rolls)."""
    return Dice(typed)
