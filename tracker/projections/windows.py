"""A long duel's stored state read a window of its history at a time.

A duel's state keeps every history line, so the state of a duel of 1,000 versions is mostly
history. Its pages and its API read show only the latest lines (``LATEST``), and load the earlier
ones a window at a time, on demand: only the lines of the window are revived as Texts (the costly
part of reading a state back), the rest of the state whole, so the work of a read does not grow
with the duel. The full history is still reachable: the earlier windows, the event log and time
travel.
"""
from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass, field

import orjson

from tracker.rules.text import revive

LATEST = 20  # the history lines a duel's page shows before "load earlier"
# The versions whose history lines and steps a duel's API read carries by default: a read of a duel
# of 1,000 versions carries what one of 10 carries (``steps_since`` and ``history_before`` the rest).
SPAN = 10


@dataclass(frozen=True)
class Window:
    """Which history lines a read holds: from ``first`` (the index of its first line, 0 for the
    duel's first line), ``earlier`` the version to ask the lines before (None when the duel's first
    line is in it), ``later`` the version of the next line after it (None when it ends with the
    latest), and ``noted`` the text of each line a GM note is about (a note may be about a line
    outside the window)."""

    first: int = 0
    earlier: int | None = None
    later: int | None = None
    noted: dict = field(default_factory=dict)


def load_window(raw: str | bytes, last: int | None = LATEST, before: int | None = None,
                since: int | None = None, span: int | None = None) -> tuple[dict, Window]:
    """A stored state with only part of its history: with ``since``, every line logged after that
    version; with ``span``, the lines of the ``span`` versions before version ``before``; else the
    ``last`` lines logged before it (every line when ``last`` is None). Without ``before``, the
    latest ones."""
    data = dict(parsed(raw))  # a copy of the top level: the parse is shared, never changed
    lines = data.get("history")
    if not isinstance(lines, list):
        return revive(data), Window()
    if since is not None:
        kept = [line for line in lines if not isinstance(line.get("at"), int) or line["at"] > since]
        window = Window(first=len(lines) - len(kept))
    else:
        end = len(lines) if before is None else bisect.bisect_left(lines, before, key=_at)
        floor = None  # the version a window by versions starts at
        if span is not None:
            floor = (before if before is not None else (_at(lines[-1]) + 1 if lines else 0)) - span
            start = bisect.bisect_left(lines, floor, key=_at, hi=end)
        else:
            start = 0 if last is None else max(0, end - last)
        while 0 < start < end and _at(lines[start - 1]) == _at(lines[start]):
            start -= 1  # the lines of one version stay together
        kept = lines[start:end]
        # The version to ask the lines before with: the first one held (a window by versions that
        # holds none still moves back its span).
        earlier = (_at(kept[0]) if kept else floor) if start > 0 else None
        window = Window(first=start, earlier=earlier, later=_at(lines[end]) if end < len(lines) else None)
    about = {note.get("about") for note in data.get("notes") or [] if isinstance(note, dict) and note.get("about")}
    noted = {line["at"]: revive(line.get("text")) for line in lines
             if isinstance(line, dict) and line.get("at") in about} if about else {}
    data["history"] = kept
    return revive(data), Window(window.first, window.earlier, window.later, noted)


@functools.lru_cache(maxsize=32)
def parsed(raw: str | bytes):
    """A stored state's JSON parsed, keyed by its very text, so that the readers of one version of a
    duel (its display, its seats, the GM's page, the API's followers) parse it once between them; a
    state refolded differently is another text, another key: nothing shared is ever stale. Never to
    be changed by whoever reads it (``revive`` builds new lists and dicts of it)."""
    return orjson.loads(raw)


def _at(line) -> int:
    return line.get("at", 0) if isinstance(line, dict) and isinstance(line.get("at"), int) else 0
