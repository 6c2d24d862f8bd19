"""What every ruleset's refusals look like: a command refused, input that does not parse, a
history that cannot have happened. The first two are the one ``Rejected`` of ``tracker.domain.errors``
(a message and each field's error), which the web answers in one place.

Nothing here (or anywhere in ``tracker.rules``) touches Flask, SQLite, the clock or
``random``: randomness arrives through a ``Dice`` (``tracker.rules.dice``) whose source the
service injects, and every value drawn from it is written into the event that used it.
"""
from __future__ import annotations

from tracker.domain.errors import Rejected
from tracker.rules.text import join


class Refused(Rejected):
    """A command the rules will not accept, with the reason the GM reads (a ``Text``: a message id
    and its values, read in the reader's language)."""

    def __init__(self, reason, field: str | None = None):
        super().__init__(reason, {field or "__all__": reason})
        self.reason = reason
        self.field = field


class ImpossibleHistory(Exception):
    """A fold met an event the state it lands on could not have produced (a card not in the hand,
    an ending the state does not support): the rules refuse such a command when it is decided,
    so meeting one means the history itself is broken, and the fold says so instead of repairing."""


class Invalid(Rejected):
    """Input that does not parse: a message per field (each a ``Text`` or a plain string)."""

    def __init__(self, errors: dict):
        super().__init__(join([join([k, v], " ") for k, v in errors.items()], "; "), errors)
        self.errors = errors

    def __str__(self) -> str:
        return "; ".join(f"{k}: {v}" for k, v in self.errors.items())


def why(problem: Exception):
    """The reason a ``ValueError`` of the rules carries: the Text it was raised with (read in the
    reader's language), or its plain words when it carries no Text."""
    return problem.args[0] if len(problem.args) == 1 else str(problem)
