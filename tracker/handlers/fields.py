"""The fields every command shares: ids, the expected stream version, repeated form values."""

from __future__ import annotations

from typing import Any

from tracker.rules.base import Invalid
from tracker.rules.fields import LARGEST_INT


def key(value: Any, name: str) -> str:
    """An id from a command (letters, digits and underscores), or Invalid naming the field."""
    if not isinstance(value, str) or not value or len(value) > 64 or not value.replace("_", "").isalnum():
        raise Invalid({name: "is required"} if not value else {name: "is not a valid id"})
    return value


def expected(command: dict) -> int:
    """The stream version the form or client was opened at."""
    value = command.get("expected_version")
    try:
        number = int(value)
    except (TypeError, ValueError, OverflowError):  # OverflowError: an infinite float
        raise Invalid({"expected_version": "is required (the version the form was opened at)"}) from None
    if number < 0:
        raise Invalid({"expected_version": "must be 0 or more"})
    if number > LARGEST_INT:
        raise Invalid({"expected_version": f"must be at most {LARGEST_INT}"})
    return number


def as_list(value: Any) -> list:
    """A form value that may repeat, always as a list."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
