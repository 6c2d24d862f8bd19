"""What every ruleset shares: refusals, field specs, command parsing and the dice tray.

Nothing here (or anywhere in ``tracker.rules``) touches Flask, SQLite, the clock or
``random``: randomness arrives through a ``Dice`` whose source the service injects,
and every value drawn from it is written into the event that used it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from tracker.errors import Rejected


class Refused(Rejected):
    """A command the rules will not accept, with the reason the GM reads."""

    def __init__(self, reason: str, field: str | None = None):
        super().__init__(reason, {field or "__all__": reason})
        self.reason = reason
        self.field = field


class ImpossibleHistory(Exception):
    """A fold met an event the state it lands on could not have produced (a card not in the hand,
    an ending the state does not support): the rules refuse such a command when it is decided,
    so meeting one means the history itself is broken, and the fold says so instead of repairing."""


class Invalid(Rejected):
    """Input that does not parse: a message per field."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(f"{k} {v}" for k, v in errors.items()), errors)
        self.errors = errors

    def __str__(self) -> str:
        return "; ".join(f"{k}: {v}" for k, v in self.errors.items())


# --- field specs -------------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """One input of a form: stats block, duel set-up or command.

    ``kind`` is one of: int, text, choice, bool, die (d6..d12), dice (a list of die values
    typed from the table, e.g. "3 5"), character (a character id), weapons (a list).
    """

    name: str
    label: str
    kind: str = "int"
    default: Any = None
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True
    help: str = ""
    columns: tuple[str, ...] = ()  # a table field's keys, in the order its text lines give them


DIE_SIZES = (6, 8, 10, 12)
# The largest whole number SQLite, and so the log, can hold: no input may carry a larger one.
LARGEST_INT = 2**63 - 1


def parse_fields(fields: Sequence[Field], raw: Mapping[str, Any]) -> dict[str, Any]:
    """Coerce raw form or JSON values by their field specs, or raise Invalid."""
    clean: dict[str, Any] = {}
    errors: dict[str, str] = {}
    for f in fields:
        value = raw.get(f.name)
        try:
            clean[f.name] = _coerce(f, value)
        except ValueError as problem:
            errors[f.name] = str(problem)
    if errors:
        raise Invalid(errors)
    return clean


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value.strip() == "")


def _coerce(f: Field, value: Any) -> Any:
    if f.kind == "bool":
        if isinstance(value, (list, tuple)):
            # A ticked box posts its hidden "false" and then its "true": the last one is the box.
            value = value[-1] if value else None
        if isinstance(value, bool):
            return value
        if _blank(value):
            return bool(f.default)
        if str(value).lower() in ("1", "true", "on", "yes", "y"):
            return True
        if str(value).lower() in ("0", "false", "off", "no", "n"):
            return False
        raise ValueError("must be yes or no")
    if _blank(value):
        if f.default is not None:
            return f.default
        if f.required:
            raise ValueError("is required")
        return None
    if f.kind == "int":
        number = _int(value)
        # A field without bounds still takes only what SQLite can hold.
        minimum = -LARGEST_INT if f.minimum is None else f.minimum
        maximum = LARGEST_INT if f.maximum is None else f.maximum
        if number < minimum:
            raise ValueError(f"must be at least {minimum}")
        if number > maximum:
            raise ValueError(f"must be at most {maximum}")
        return number
    if f.kind == "die":
        text = str(value).strip().lower().lstrip("d")
        size = _int(text, "a die such as d8")
        if size not in DIE_SIZES:
            raise ValueError("must be d6, d8, d10 or d12")
        return size
    if f.kind == "dice":
        return parse_dice(value)
    if f.kind == "choice":
        allowed = [key for key, _ in f.choices]
        if str(value) not in allowed:
            raise ValueError("must be one of " + ", ".join(label for _, label in f.choices))
        return str(value)
    if f.kind in ("text", "character"):
        if not isinstance(value, str):
            raise ValueError("must be text")
        if not is_text(value):
            raise ValueError("holds a character that is not valid text (a lone surrogate)")
        text = value.strip()
        limit = f.maximum or 2000
        if len(text) > limit:
            raise ValueError(f"must be at most {limit} characters")
        return text
    if f.kind == "weapons":
        return value
    raise ValueError(f"unknown field kind {f.kind}")


def is_text(value: str) -> bool:
    """True when the string can be stored and shown: UTF-8 encodable, so no lone surrogate."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _int(value: Any, what: str = "a whole number") -> int:
    if isinstance(value, bool):
        raise ValueError(f"must be {what}")
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:  # also a string of more digits than Python converts (4,300)
        raise ValueError(f"must be {what}") from None


def parse_dice(value: Any) -> tuple[int, ...]:
    """Dice typed from the table: "3 5", "3,5" or a JSON list, each a positive number."""
    if isinstance(value, (list, tuple)):
        items = list(value)
    else:
        items = str(value).replace(",", " ").replace("/", " ").split()
    dice = tuple(_int(v, "die values such as 3 5") for v in items)
    if any(d < 1 or d > 100 for d in dice):
        raise ValueError("each die shows a number from 1 up")
    return dice


# --- commands ------------------------------------------------------------------------

def command(cls: type) -> type:
    """Make a command class: a frozen dataclass; its field specs live in ``FIELDS``."""
    return dataclasses.dataclass(frozen=True)(cls)


def parse_command(cls: type, raw: Mapping[str, Any]) -> Any:
    """Build a command from raw form or JSON values using its ``FIELDS``, or raise Invalid."""
    return cls(**parse_fields(getattr(cls, "FIELDS", ()), raw))


# --- dice ----------------------------------------------------------------------------

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

    def roll(self, sides: int, who: str = "a", what: str = "") -> int:
        """One die of ``sides`` for ``who``."""
        queue = self._typed.get(who)
        if queue:
            value = queue.pop(0)
            if not 1 <= value <= sides:
                raise Refused(f"a d{sides} cannot show {value}" + (f" ({what})" if what else ""),
                              field=f"dice_{who}")
            return value
        if self._source is None:
            label = f" for {what}" if what else ""
            raise Refused(f"type another d{sides}{label}, or let the server roll", field=f"dice_{who}")
        return self._source(sides)

    def roll_many(self, sizes: Sequence[int], who: str = "a", what: str = "") -> tuple[int, ...]:
        return tuple(self.roll(s, who, what) for s in sizes)

    def permutation(self, n: int) -> list[int]:
        """A shuffled order of range(n) (for decks); refused when no source is given."""
        if self._shuffle is None:
            raise Refused("shuffling needs the server (virtual cards)")
        order = list(self._shuffle(n))
        if sorted(order) != list(range(n)):
            raise Refused("a shuffle must be an order of every card")
        return order

    def leftover(self) -> dict[str, list[int]]:
        """Typed values no rule used (the service refuses them: a typo is likely)."""
        return {k: v for k, v in self._typed.items() if v}


def fixed_dice(**typed: Sequence[int]) -> Dice:
    """Dice typed at the table only (tests and the GM's typed rolls)."""
    return Dice(typed)


def update(state: dict, **changes: Any) -> dict:
    """A shallow copy of ``state`` with ``changes``: states are never mutated in place."""
    new = dict(state)
    new.update(changes)
    return new




def copy_json(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars), several times faster than
    ``copy.deepcopy``, which a fold pays at every event."""
    if isinstance(value, dict):
        return {key: copy_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copy_json(item) for item in value]
    return value
