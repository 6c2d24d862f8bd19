"""Words a read model keeps in a column (a log line, a duel's outcome, a wound's note) as data.

A line people read is a Text (a message id and its values, ``tracker.rules.text``) until a reader's
language is known, so a column keeps it as JSON data and a read gives it back as a Text: the same
row then reads in Spanish to one GM and in English to another, and switching language re-renders
the whole history. A plain string (a note the GM typed) is kept as a JSON string.
"""
from __future__ import annotations

from typing import Any

import orjson

from tracker.rules.text import Joined, Text, revive
from tracker.eventstore.store import dumps


def stored(value: Any) -> str:
    """``value`` (a Text, a Joined, a str) as the JSON a column keeps (``dumps`` turns each Text
    into its data as it goes: the JSON of ``as_data(value)``, without building it first)."""
    return dumps(value)


def read(data: Any) -> Any:
    """A column's words back as a Text (or the str they were). A line written before read models
    kept words as data (plain prose, never starting like JSON text or an object) reads as written."""
    if not isinstance(data, (str, bytes)) or not data or data[:1] not in ('"', "{", b'"', b"{"):
        return data
    try:
        return revive(orjson.loads(data))
    except orjson.JSONDecodeError:
        return data


def revived(rows: list[dict], *columns: str) -> list[dict]:
    """The rows with each of ``columns`` read back as words (in place; the rows are returned)."""
    for row in rows:
        for column in columns:
            if column in row:
                row[column] = read(row[column])
    return rows


def retracted_line(said: Any) -> Any:
    """What a retraction's line says it took back: the line of the retracted event (its ``what``),
    read from the retraction's Text, not from its English wording."""
    if isinstance(said, Joined) and said.parts:  # the line, then the GM's reason
        said = said.parts[0]
    if isinstance(said, Text) and "what" in said.args:
        return said.args["what"]
    if isinstance(said, str):  # a line written before read models kept words as data
        return said.removeprefix("Retracted: ")
    return said
