"""Where the service meets its handlers: the one module that knows both.

As in *Architecture Patterns with Python*'s bootstrap, the handler table is handed to the
service when the app (or the command line, a test, a bench) starts, so the service layer never
imports the handlers and the handlers import the service only to use it.
"""
from __future__ import annotations

from typing import Mapping

from tracker.application import policy
from tracker.application.handlers import HANDLERS, duels
from tracker.application.services import Context, Handler, Service

# Every command's handler; a duel's own commands share one, under the policy's row for them.
ALL_HANDLERS: Mapping[str, Handler] = {**HANDLERS, policy.DUEL_COMMAND: duels.duel_command}


def service(db, context: Context | None = None, handlers: Mapping[str, Handler] = ALL_HANDLERS) -> Service:
    """A service on ``db`` acting in ``context`` (the command line's when none), with every handler."""
    return Service(db, context, handlers)
