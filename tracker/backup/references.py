"""Which fields of an event name something else: a stream, a player link, an API token, a GM.

Each event type declares its own, so a new ruleset declares the ids its events carry and the
import checks them without knowing the ruleset:

    REFERENCES = {"campaign_id": "campaign", "duelists.*.id": "character"}  # ids it points to
    DEFINES = {"link_id": "link"}  # ids it brings into being that are not a stream's key

A path is dotted field names, ``*`` standing for every item of a list. A reference's category is
a stream's category (``campaign``, ``character``, ``session``, ``duel``, ``gm``), ``link`` or
``token``, or a tuple of those when either fits. An empty string refers to nothing.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator

from tracker.domain.events import EVENT_TYPES


def categories(declared: str | tuple[str, ...]) -> tuple[str, ...]:
    return (declared,) if isinstance(declared, str) else tuple(declared)


def references(kind: str, data: dict) -> Iterator[tuple[str, tuple[str, ...], Any]]:
    """Every (path, categories, value) the event's data refers to."""
    for path, steps, wanted in declared(kind, "REFERENCES"):
        for value in values_at(data, steps):
            yield path, categories(wanted), value


def definitions(kind: str, data: dict) -> Iterator[tuple[str, str, Any]]:
    """Every (path, category, value) the event brings into being besides its stream."""
    for path, steps, category in declared(kind, "DEFINES"):
        for value in values_at(data, steps):
            yield path, category, value


_DECLARED: dict[tuple[str, str], list] = {}


def declares_ids(kind: str) -> bool:
    """Whether the event type declares any id it refers to or brings into being."""
    return bool(declared(kind, "REFERENCES") or declared(kind, "DEFINES"))


def declared(kind: str, which: str) -> list[tuple[str, list[str], Any]]:
    """An event type's declared paths (``which``: REFERENCES or DEFINES) as (path, its steps,
    category), split once (an import checks every line against them)."""
    found = _DECLARED.get((kind, which))
    if found is None:
        found = _DECLARED[(kind, which)] = [(path, path.split("."), category) for path, category
                                            in getattr(EVENT_TYPES[kind], which, {}).items()]
    return found


def rewrite(kind: str, data: dict, fresh: Callable[[str, str], str]) -> dict:
    """The data with every declared id (reference or definition) replaced by ``fresh(category,
    old id)``; the first category is passed when several fit. Empty ids stay empty."""
    cls = EVENT_TYPES[kind]
    ids = {**getattr(cls, "REFERENCES", {}), **getattr(cls, "DEFINES", {})}
    for path, category in ids.items():
        data = _replace(data, path.split("."), lambda old: fresh(categories(category)[0], old) if old else old)
    return data


def values_at(value: Any, steps: list[str]) -> Iterator[Any]:
    """Every value found at the path's steps (none when the path leads nowhere)."""
    if not steps:
        yield value
        return
    step, rest = steps[0], steps[1:]
    if step == "*":
        if isinstance(value, list | tuple):
            for item in value:
                yield from values_at(item, rest)
    elif isinstance(value, dict) and step in value:
        yield from values_at(value[step], rest)


def _replace(value: Any, steps: list[str], swap: Callable[[Any], Any]) -> Any:
    if not steps:
        return swap(value) if isinstance(value, str) else value
    step, rest = steps[0], steps[1:]
    if step == "*":
        return [_replace(item, rest, swap) for item in value] if isinstance(value, list | tuple) else value
    if isinstance(value, dict) and step in value:
        return {**value, step: _replace(value[step], rest, swap)}
    return value
