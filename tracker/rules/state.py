"""How a fold changes a duel's state: by copying, never in place."""
from __future__ import annotations

from typing import Any


def update(state: dict, **changes: Any) -> dict:
    """A shallow copy of ``state`` with ``changes``: states are never mutated in place."""
    new = dict(state)
    new.update(changes)
    return new
