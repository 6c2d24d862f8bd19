"""Waiting for a change without holding anything: a long-poll checks the read models every
``LONG_POLL_STEP`` seconds until they moved past what the client saw, or its wait is over.

Each check is a fresh read of the database, so a change logged by any thread or process of the
server ends the wait; nothing is kept in memory between requests.
"""
from __future__ import annotations

import time
from typing import Callable

from flask import current_app
from werkzeug.exceptions import BadRequest

from tracker.rules.text import t
from tracker.web.inputs import int_arg

LONGEST_WAIT = 30  # seconds a client may ask to wait; the server may cut it (LONG_POLL_MAX)


def requested_wait() -> float:
    """The ``wait`` query parameter in seconds (0 to 30), cut to the server's LONG_POLL_MAX."""
    asked = int_arg("wait", default=0)
    if asked > LONGEST_WAIT:
        raise BadRequest(str(t("The address's 'wait' must be a whole number from 0 to {maximum}.", maximum=LONGEST_WAIT)))
    return min(float(asked), float(current_app.config.get("LONG_POLL_MAX", LONGEST_WAIT)))


def wait_for(moved: Callable[[], bool], wait: float) -> bool:
    """True as soon as ``moved()`` is; False once ``wait`` seconds passed without it."""
    step = float(current_app.config.get("LONG_POLL_STEP", 0.2))
    deadline = time.monotonic() + wait
    while True:
        if moved():
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(step, left))
