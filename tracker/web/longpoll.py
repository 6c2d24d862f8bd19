"""Waiting for a change without holding anything: a long-poll checks the read models every
``LONG_POLL_STEP`` seconds until they moved past what the client saw, or its wait is over.

Each check is a fresh read of the database, so a change logged by any thread or process of the
server ends the wait; nothing is kept in memory between requests.
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Callable

from flask import current_app, request
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


# Waiting requests hold server threads: at most LONG_POLL_SLOTS wait at once in this process
# (tracker.serve leaves half of waitress's threads free), LONG_POLL_PER_CLIENT per client address
# and per followed thing (a display link, a duel, a campaign). A poll over a cap is answered at
# once with the state as it is ("unchanged" unless it moved), so a GM's page never queues.
_waiting: Counter = Counter()
_lock = threading.Lock()


def _take_slot(followed: str) -> tuple[str, ...] | None:
    config = current_app.config
    keys = ("all", f"client:{request.remote_addr}", f"followed:{followed}")
    caps = (int(config.get("LONG_POLL_SLOTS", 8)), int(config.get("LONG_POLL_PER_CLIENT", 4)),
            int(config.get("LONG_POLL_PER_CLIENT", 4)))
    with _lock:
        if any(_waiting[key] >= cap for key, cap in zip(keys, caps)):
            return None
        _waiting.update(keys)
    return keys


def _give_back(keys: tuple[str, ...]) -> None:
    with _lock:
        _waiting.subtract(keys)


def wait_for(moved: Callable[[], bool], wait: float, followed: str = "") -> bool:
    """True as soon as ``moved()`` is; False once ``wait`` seconds passed without it. Over a cap
    (see above) it does not wait at all."""
    if wait <= 0 or moved():
        return wait > 0 or moved()
    keys = _take_slot(followed or request.path)
    if keys is None:
        return False
    try:
        return _wait(moved, wait)
    finally:
        _give_back(keys)


def _wait(moved: Callable[[], bool], wait: float) -> bool:
    step = float(current_app.config.get("LONG_POLL_STEP", 0.2))
    deadline = time.monotonic() + wait
    while True:
        if moved():
            return True
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        time.sleep(min(step, left))
