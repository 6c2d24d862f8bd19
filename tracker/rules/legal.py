"""The legal next actions as data: what a duel lets its audience send now, and the values each
field takes. A ruleset's ``legal_actions(state, audience)`` builds its list with ``offer``; the
duel page draws its forms from that same list and the API answers it, so they cannot disagree.

An action is ``{"type", "by", "side", "fields"}``: the command type, the audience that may send it,
the side it acts for (``None`` when it is not one side's), and each field of the command with its
``kind`` (and its JSON ``type``), ``required``, ``label``, ``default`` and ``minimum``/``maximum``
where it has them and, where the rules narrow it now, ``choices`` (the only values
the rules accept: the cards in hand, the side whose turn it is, the damage on offer…), and for a
dice field, where the rules know them, ``dice``: the sizes of the dice it takes, in order, and
``rolls``: each roll its dice feed, as a dice expression (``1d20`` to hit, then ``1d8+4`` damage
on a hit), so a client that rolls its own dice knows which to roll. ``depends_on`` names the other
fields a field stands on: those it needs beside it (the field's own ``depends_on``: a check's
modifier needs its DC) and those whose first value its choices assume.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

GM = "gm"  # the GM's pages and the GM's API token: every secret, every action
TABLE = "table"  # the table display and the players' recap: no secret, no action
AUDIENCES = (GM, TABLE)
# The JSON type of the value each field kind takes (a die is sent as "d8", dice as a list of faces).
JSON_TYPES = {"int": "integer", "bool": "boolean", "choice": "string", "text": "string", "character": "string",
              "die": "string", "dice": "array", "weapons": "array"}


def offer(command: type, name: str, *, by: str = GM, for_side: str | None = None,
          dice: Mapping[str, Sequence[int]] | None = None, depends: Mapping[str, Sequence[str]] | None = None,
          needed: Sequence[str] = (), defaults: Mapping[str, Any] | None = None,
          rolls: Mapping[str, Sequence[dict]] | None = None, **allowed: Iterable[Any]) -> dict:
    """``name`` (a command with its ``FIELDS``) as a legal action for ``for_side`` (its ``side``),
    its fields narrowed by ``allowed`` (field name -> the values the rules accept now); ``dice``
    gives a dice field the sizes of the dice it takes, in order (for a client rolling its own);
    ``depends`` names, for a field whose choices hold only for the first values of other fields,
    those fields (``depends_on``: another value there may take another value here); ``needed``
    names the fields this moment requires although the command does not always (a seat's dice);
    ``defaults`` gives a field without choices the value a client sends when it has none of its
    own (a spell's name and damage: a client that fills each field from its description plays on);
    ``rolls`` gives a dice field the rolls its dice feed (``roll``: what for, the expression, when)."""
    fields = {}
    for f in command.FIELDS:
        spec: dict[str, Any] = {"kind": f.kind, "type": JSON_TYPES.get(f.kind, "string"),
                                "required": f.required or f.name in needed, "label": f.label}
        if f.default is not None:
            spec["default"] = f.default
        if f.choices:
            spec["choices"] = [value for value, _ in f.choices]
        if f.minimum is not None:
            spec["minimum"] = f.minimum
        if f.maximum is not None:
            spec["maximum"] = f.maximum
        if defaults and f.name in defaults:
            spec["default"] = defaults[f.name]
        if f.name in allowed:
            spec["choices"] = list(allowed[f.name])
            # A default the rules no longer accept would be a lie: the first value they do is it.
            if "default" in spec and spec["default"] not in spec["choices"] and spec["choices"]:
                spec["default"] = spec["choices"][0]
        if dice and f.name in dice:
            spec["dice"] = list(dice[f.name])
        if rolls and f.name in rolls:
            spec["rolls"] = [dict(r) for r in rolls[f.name]]
        standing = [*f.depends_on, *(depends or {}).get(f.name, ())]
        if standing:
            spec["depends_on"] = list(dict.fromkeys(standing))
        fields[f.name] = spec
    unknown = (set(allowed) | set(dice or {}) | set(defaults or {}) | set(depends or {}) | set(needed)
               | set(rolls or {})
               | {other for others in (depends or {}).values() for other in others}) - set(fields)
    if unknown:
        raise ValueError(f"{name} has no field {', '.join(sorted(unknown))}")
    return {"type": name, "by": by, "side": for_side, "fields": fields}


ROLL_WHEN = ("always", "hit", "miss")


def roll(purpose: str, expression: str, when: str = "always") -> dict:
    """One roll a dice field's dice feed: ``purpose`` (attack, check, damage, backlash), its dice
    expression (``1d20``, ``2d4+2``) and ``when`` it is rolled: always, on a hit or on a miss."""
    if when not in ROLL_WHEN:
        raise ValueError(f"a roll is made {', '.join(ROLL_WHEN)}, not {when}")
    return {"for": purpose, "expression": expression, "when": when}


def names(actions: list[dict]) -> list[str]:
    """The command types of a list of legal actions, in order (what the pages test ``in``)."""
    return [action["type"] for action in actions]
