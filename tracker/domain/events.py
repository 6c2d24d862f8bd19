"""Events: immutable facts in the past tense, and the registry that names them.

Every event type is a frozen dataclass registered with ``@event``. Its class name is
the type stored in the log; ``SCHEMA`` is the version of its shape. Old shapes are
turned into the current one on read by the upcasters registered with ``@upcaster``.
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, NamedTuple

EVENT_TYPES: dict[str, type] = {}
UPCASTERS: dict[tuple[str, int], Callable[[dict], dict]] = {}


def event(cls: type) -> type:
    """Register a frozen dataclass as an event type (its class name is its type)."""
    cls = dataclasses.dataclass(frozen=True)(cls)
    if cls.__name__ in EVENT_TYPES and EVENT_TYPES[cls.__name__] is not cls:
        raise ValueError(f"event type {cls.__name__} is registered twice")
    if not hasattr(cls, "SCHEMA"):
        cls.SCHEMA = 1
    EVENT_TYPES[cls.__name__] = cls
    return cls


def upcaster(type_name: str, from_schema: int):
    """Register a function turning schema ``from_schema`` of an event's data into the next."""

    def register(fn: Callable[[dict], dict]) -> Callable[[dict], dict]:
        UPCASTERS[(type_name, from_schema)] = fn
        return fn

    return register


def upcast(type_name: str, schema: int, data: dict) -> dict:
    """Bring stored event data up to the current schema of its type."""
    current = EVENT_TYPES[type_name].SCHEMA
    while schema < current:
        data = UPCASTERS[(type_name, schema)](dict(data))
        schema += 1
    return data


def to_data(ev: Any) -> dict:
    """The JSON-able data of an event (its fields)."""
    return {name: getattr(ev, name) for name in _shape(type(ev)).names}


class _Shape(NamedTuple):
    """What rebuilding an event of one type needs, looked up once per type (a replay rebuilds
    every event): its field names in order, those without a default, and the defaults."""

    names: tuple[str, ...]
    known: frozenset
    required: frozenset
    defaults: dict | None  # None: made through its __init__ (a default factory, a __post_init__…)


_SHAPES: dict[type, _Shape] = {}


def _shape(cls: type) -> _Shape:
    shape = _SHAPES.get(cls)
    if shape is None:
        fields = dataclasses.fields(cls)
        plain = not (hasattr(cls, "__post_init__") or hasattr(cls, "__slots__")
                     or any(f.default_factory is not dataclasses.MISSING or not f.init for f in fields))
        shape = _SHAPES[cls] = _Shape(
            tuple(f.name for f in fields), frozenset(f.name for f in fields),
            frozenset(f.name for f in fields if f.default is dataclasses.MISSING and
                      f.default_factory is dataclasses.MISSING),
            {f.name: f.default for f in fields if f.default is not dataclasses.MISSING} if plain else None)
    return shape


def from_data(type_name: str, data: dict, schema: int | None = None) -> Any:
    """Rebuild an event from stored data, upcasting first when the schema is old."""
    cls = EVENT_TYPES[type_name]
    if schema is not None and schema != cls.SCHEMA:
        data = upcast(type_name, schema, data)
    shape = _SHAPES.get(cls) or _shape(cls)
    _names, known, required, defaults = shape
    if defaults is not None and known.issuperset(data) and required <= data.keys():
        # What the frozen dataclass's __init__ would do, without its setattr per field: a
        # rebuild makes an event per line of the log, and this takes half the time.
        ev = object.__new__(cls)
        fields = ev.__dict__
        fields.update(defaults)
        for k, v in data.items():
            fields[k] = _freeze(v) if type(v) is list else _text(v) if type(v) is dict else v
        return ev
    return cls(**{k: (_freeze(v) if type(v) is list else _text(v) if type(v) is dict else v)
                  for k, v in data.items() if k in known})


def _text(value: dict) -> Any:
    """A Text an older version of the rules wrote into an event comes back a Text, so those logs read
    as they were written (an ending's sentence, now in ``sentence``; warnings in a duel's
    agreed terms). New events hold facts only: no rule writes a Text into one any more."""
    from tracker.rules.text import revive

    return revive(value)


def _freeze(value: list) -> tuple:
    # JSON gives lists; events hold tuples so they stay hashable and immutable. Only nested
    # lists recurse: a rebuild freezes every list of every event, most of them flat.
    return tuple(_freeze(v) if type(v) is list else v for v in value)


# The values JSON gives back as they are: a value of any other type is looked into.
_ATOMS = frozenset({str, int, float, bool, type(None)})


def plain_data(ev: Any) -> dict:
    """An event's fields as its JSON would read back (tuples as lists, at any depth), in their
    order: what a folded state keeps of an event, so a fresh fold equals a reloaded one."""
    data = {}
    for name in (_SHAPES.get(type(ev)) or _shape(type(ev))).names:
        value = getattr(ev, name)
        data[name] = value if type(value) in _ATOMS else plain(value)
    return data


def plain(value: Any) -> Any:
    """``value`` with every tuple in it (at any depth) a list, and every dict a new one."""
    if isinstance(value, (list, tuple)):
        return [v if type(v) in _ATOMS else plain(v) for v in value]
    if isinstance(value, dict):
        return {k: v if type(v) in _ATOMS else plain(v) for k, v in value.items()}
    return value


def type_name(ev: Any) -> str:
    return type(ev).__name__
