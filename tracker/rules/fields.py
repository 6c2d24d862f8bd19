"""Form inputs, as every layer declares them: field specs, their coercion, and commands built from them.

A field spec says what one input of a form (stats block, duel set-up, command) takes; ``parse_fields``
turns raw form or JSON values into clean ones, or raises ``Invalid`` with a message per field.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from tracker.rules.base import Invalid, why
from tracker.rules.text import Text, join, t, tn


@dataclass(frozen=True)
class Field:
    """One input of a form: stats block, duel set-up or command.

    ``kind`` is one of: int, text, choice, bool, die (d6..d12), dice (a list of die values
    typed from the table, e.g. "3 5"), character (a character id), weapons (a list).
    ``depends_on`` names the fields this one needs beside it (a check's modifier needs its DC);
    ``cells`` describes each column of a table field (a weapon's name, kind, damage…), as fields.
    """

    name: str
    label: str | Text
    kind: str = "int"
    default: Any = None
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True
    help: str | Text = ""
    columns: tuple[str, ...] = ()  # a table field's keys, in the order its text lines give them
    # A table column holding keys (a weapon's kind): column -> key -> the word a reader sees and
    # may type for it, in their language; the parser takes that word as well as the key.
    words: Mapping[str, Mapping[str, str | Text]] = dataclasses.field(default_factory=dict, compare=False)
    depends_on: tuple[str, ...] = ()
    cells: tuple["Field", ...] = dataclasses.field(default=(), compare=False)


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
            # The reason stays a Text (read in the reader's language), as the rules raised it.
            errors[f.name] = why(problem)
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
        raise ValueError(t("must be yes or no"))
    if _blank(value):
        if f.default is not None:
            return f.default
        if f.required:
            raise ValueError(t("is required"))
        return None
    if f.kind == "int":
        number = _int(value)
        # A field without bounds still takes only what SQLite can hold.
        minimum = -LARGEST_INT if f.minimum is None else f.minimum
        maximum = LARGEST_INT if f.maximum is None else f.maximum
        if number < minimum:
            raise ValueError(t("must be at least {minimum}", minimum=minimum))
        if number > maximum:
            raise ValueError(t("must be at most {maximum}", maximum=maximum))
        return number
    if f.kind == "die":
        text = str(value).strip().lower().lstrip("d")
        size = _int(text, t("a die such as d8"))
        if size not in DIE_SIZES:
            raise ValueError(t("must be d6, d8, d10 or d12"))
        return size
    if f.kind == "dice":
        return parse_dice(value)
    if f.kind == "choice":
        allowed = [key for key, _ in f.choices]
        if str(value) not in allowed:
            raise ValueError(t("must be one of {choices}", choices=join(label for _, label in f.choices)))
        return str(value)
    if f.kind in ("text", "character"):
        if not isinstance(value, str):
            raise ValueError(t("must be text"))
        if not is_text(value):
            raise ValueError(t("holds a character that is not valid text (a lone surrogate)"))
        text = value.strip()
        limit = f.maximum or 2000
        if len(text) > limit:
            raise ValueError(tn("must be at most {count} character", "must be at most {count} characters", limit))
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


def _int(value: Any, what: Text | None = None) -> int:
    what = what or t("a whole number")
    if isinstance(value, bool):
        raise ValueError(t("must be {what}", what=what))
    if isinstance(value, int):
        return value
    try:
        return int(str(value).strip())
    except ValueError:  # also a string of more digits than Python converts (4,300)
        raise ValueError(t("must be {what}", what=what)) from None


def parse_dice(value: Any) -> tuple[int, ...]:
    """Dice typed from the table: "3 5", "3,5" or a JSON list, each a positive number."""
    if isinstance(value, (list, tuple)):
        items = list(value)
    else:
        items = str(value).replace(",", " ").replace("/", " ").split()
    dice = tuple(_int(v, t("die values such as 3 5")) for v in items)
    if any(d < 1 or d > 100 for d in dice):
        raise ValueError(t("each die shows a number from 1 up"))
    return dice


def command(cls: type) -> type:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    """Make a command class: a frozen dataclass; its field specs live in ``FIELDS``."""
    return dataclasses.dataclass(frozen=True)(cls)


def parse_command(cls: type, raw: Mapping[str, Any]) -> Any:
    """Build a command from raw form or JSON values using its ``FIELDS``, or raise Invalid."""
    return cls(**parse_fields(getattr(cls, "FIELDS", ()), raw))
