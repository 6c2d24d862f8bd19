"""JSON from outside Touché (an API body, a line of an imported log), decoded strictly.

orjson refuses what the log could not store or show: a lone surrogate, NaN or Infinity, nesting
past 1,024 levels; it reads an integer beyond 64 bits as a float, which no whole-number field
accepts. On top of that a value may nest at most ``MAX_DEPTH`` levels, far more than any command
or event needs and far less than would exhaust a stack, or orjson's own 254 when it is dumped.
"""
from __future__ import annotations

from typing import Any

import orjson

MAX_DEPTH = 64


class BadJSON(ValueError):
    """Text that is not JSON Touché accepts; the message says what is wrong."""


def loads(text: bytes | str) -> Any:
    """The decoded value, or BadJSON."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as bad:
        raise BadJSON(f"not valid JSON: {bad}") from None
    if too_deep(text, value):
        raise BadJSON(f"nests deeper than {MAX_DEPTH} levels")
    return value


def too_deep(text: bytes | str, value: Any) -> bool:
    """Whether ``value``, decoded from ``text``, nests deeper than ``MAX_DEPTH``. Nesting needs an
    opening bracket per level: text with few of them (nearly every line) cannot nest too deep,
    and is not walked."""
    return isinstance(value, (dict, list)) and _brackets(text) > MAX_DEPTH and _deeper_than(value, MAX_DEPTH)


def _brackets(text: bytes | str) -> int:
    if isinstance(text, str):
        return text.count("{") + text.count("[")
    return text.count(b"{") + text.count(b"[")


def _deeper_than(value: Any, limit: int) -> bool:
    if not isinstance(value, (dict, list)):
        return False
    if limit == 0:
        return True
    return any(_deeper_than(item, limit - 1) for item in (value.values() if isinstance(value, dict) else value))
