"""Old field names a client may still send, and the names they have now (see docs/api.md, "Names").

``kind`` alone names a duel's variant everywhere; where another field used it for something
else, it was renamed for what it sorts. A command sent with the old name is read as if it used
the new one (before its fingerprint is taken, so a retry with either name is the same command).
"""
from __future__ import annotations

from typing import Any, Mapping

# (command type, old field) -> current field
RENAMED: dict[tuple[str, str], str] = {
    ("IssuePlayerLink", "kind"): "link_kind",
    ("DealDamage", "kind"): "source",
}


def canonical(raw: Mapping[str, Any]) -> dict:
    """``raw`` with every old field name of its command type under its current name (a current
    name sent as well wins)."""
    kind = raw.get("type")
    clean = dict(raw)
    for (command, old), new in RENAMED.items():
        if command == kind and old in clean:
            value = clean.pop(old)
            clean.setdefault(new, value)
    return clean
