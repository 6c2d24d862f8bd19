"""Waiting for a change without polling per follower: one watcher thread per process reads the
log's head every ``LONG_POLL_STEP`` seconds while anyone waits, and wakes the followers of what
moved (a stream, a campaign's log); each follower then checks its own read models once.

A change logged by any thread or process of the server (or another server on the same database)
moves the head, so it ends the waits it concerns. A waiting follower gives its database
connection back while it sleeps (on PostgreSQL, to the pool) and holds none of the threads that
serve pages: ``tracker.web.serve`` runs the follow requests on a pool of their own.
"""
from __future__ import annotations

import threading
import time
from collections import Counter
from typing import Callable

from flask import current_app, g, jsonify, request
from werkzeug.exceptions import BadRequest

from tracker.bootstrap.db import close_db, get_db, open_db
from tracker.projections import queries
from tracker.rules.text import t
from tracker.web.inputs import int_arg

LONGEST_WAIT = 30  # seconds a client may ask to wait; the server may cut it (LONG_POLL_MAX)
RETRY_AFTER = 1  # seconds a follow answered at once, over a cap, is told to wait before asking again
CHECK_ANYWAY = 10  # seconds: a follower checks by itself at least this often (should the watcher fail)


def requested_wait() -> float:
    """The ``wait`` query parameter in seconds (0 to 30), cut to the server's LONG_POLL_MAX."""
    asked = int_arg("wait", default=0)
    if asked > LONGEST_WAIT:
        raise BadRequest(str(t("The address's 'wait' must be a whole number from 0 to {maximum}.", maximum=LONGEST_WAIT)))
    return min(float(asked), float(current_app.config.get("LONG_POLL_MAX", LONGEST_WAIT)))


# At most LONG_POLL_SLOTS followers wait at once in this process (tracker.web.serve sizes it from the
# followers' pool, keeping some of it for the pages' short polls), and at most
# LONG_POLL_PER_CLIENT of them from one client address. A follow over a cap is answered at once
# with the state as it is ("unchanged" unless it moved) and a ``Retry-After``.
_waiting: Counter = Counter()
_lock = threading.Lock()


def take_slot() -> tuple[str, ...] | None:
    config = current_app.config
    keys = ("all", f"client:{request.remote_addr}")
    caps = (int(config.get("LONG_POLL_SLOTS", 8)), int(config.get("LONG_POLL_PER_CLIENT", 4)))
    with _lock:
        if any(_waiting[key] >= cap for key, cap in zip(keys, caps)):
            g.follow_over_cap = True
            return None
        _waiting.update(keys)
    return keys


def give_back(keys: tuple[str, ...]) -> None:
    with _lock:
        _waiting.subtract(keys)


def hint(answer):
    """The answer (a response, or a mapping for JSON) of a follow; answered at once because the
    caps were full, it says when to ask again (``Retry-After``)."""
    response = jsonify(answer) if isinstance(answer, dict) else answer
    if g.get("follow_over_cap"):
        response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def wait_for(moved: Callable[[], bool], wait: float, key: str | tuple[str, ...]) -> bool:
    """True as soon as ``moved()`` is; False once ``wait`` seconds passed without it. ``key`` names
    what is followed, as ``queries.moved_after`` names it (a stream, ``campaign:<id>``,
    ``duelist:<character>``), or several keys: the watcher wakes the wait when one moves. ``moved`` must read through ``get_db()`` each time (the
    connection is given back while waiting). Over a cap (see above) it does not wait at all."""
    if moved():
        return True
    if wait <= 0:
        return False
    slot = take_slot()
    if slot is None:
        return False
    try:
        return _wait(moved, time.monotonic() + wait, key)
    finally:
        give_back(slot)


def _wait(moved: Callable[[], bool], deadline: float, key: str | tuple[str, ...]) -> bool:
    with following(key) as follow:
        while True:
            if moved():
                return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            follow.sleep(left)


class following:
    """``with following(key) as follow:`` check, then ``follow.sleep(s)``, and check again: woken as
    soon as ``key`` (or one of several keys) moves. Registered before the first check, so no change
    slips between a check and the sleep after it."""

    def __init__(self, key: str | tuple[str, ...]):
        self.keys = (key,) if isinstance(key, str) else tuple(key)
        self.watcher, self.woken = watching(current_app), threading.Event()

    def __enter__(self) -> "following":
        for key in self.keys:
            self.watcher.register(key, self.woken)
        return self

    def __exit__(self, *_exc) -> None:
        for key in self.keys:
            self.watcher.unregister(key, self.woken)

    def sleep(self, seconds: float) -> None:
        """Up to ``seconds``, with no database connection held (nor a place at the gate); less
        once the key moved."""
        close_db()
        gate = request.environ.get(Gate.KEY)
        if gate is not None:
            gate.release()
        try:
            self.woken.wait(min(seconds, self.watcher.step if self.watcher.blind else CHECK_ANYWAY))
        finally:
            if gate is not None:
                gate.acquire()
        self.woken.clear()


class Watcher:
    """The one reader of the log's head for a database in this process: every ``step`` seconds,
    while anyone waits, it reads the head and, when it moved, wakes the waiters of each key the
    new events moved. It stops after a while with no waiter, and starts again on the next."""

    IDLE = 30  # seconds without a waiter before the thread ends

    def __init__(self, database: str, step: float):
        self.database, self.step = database, step
        # An in-memory database is this connection's own: there, each waiter checks every step.
        self.blind = database == ":memory:" or database.startswith("file:")
        self.waiters: dict[str, set[threading.Event]] = {}
        self.lock = threading.Lock()
        self.running = False
        self.head = 0

    def register(self, key: str, event: threading.Event) -> None:
        with self.lock:
            self.waiters.setdefault(key, set()).add(event)
            if not self.blind and not self.running:
                # The head is read here, before the caller's first check, so nothing logged after
                # that check can be missed.
                self.head = queries.log_head(get_db())
                self.running = True
                threading.Thread(target=self._run, name="touche-follow-watcher", daemon=True).start()

    def unregister(self, key: str, event: threading.Event) -> None:
        with self.lock:
            events = self.waiters.get(key, set())
            events.discard(event)
            if not events:
                self.waiters.pop(key, None)

    def _run(self) -> None:
        db, idle_since = open_db(self.database), time.monotonic()
        try:
            while True:
                self._watch(db)
                if self.waiters:
                    idle_since = time.monotonic()
                elif time.monotonic() - idle_since > self.IDLE:
                    with self.lock:
                        if not self.waiters:
                            self.running = False
                            return
        finally:
            db.close()

    def _watch(self, db) -> None:
        time.sleep(self.step)
        if not self.waiters:
            return
        try:
            head = queries.log_head(db)
            moved = queries.moved_after(db, self.head) if head > self.head else set()
        except Exception:  # noqa: BLE001 (a busy or lost database: the waiters check by themselves meanwhile)
            return
        self.head = head
        with self.lock:
            woken = {event for key in moved for event in self.waiters.get(key, ())}
        for event in woken:
            event.set()


_watchers: dict[str, Watcher] = {}
_watchers_lock = threading.Lock()


def watching(app) -> Watcher:
    """The watcher of the app's database in this process."""
    database = str(app.config["DATABASE"])
    with _watchers_lock:
        watcher = _watchers.get(database)
        if watcher is None:
            watcher = _watchers[database] = Watcher(database, float(app.config.get("LONG_POLL_STEP", 0.1)))
        return watcher


class Gate:
    """WSGI middleware: at most ``workers`` follow requests *work* at once (read, render, send);
    any number may wait. When a command wakes twenty followers, they take turns on the gate, so
    the GM's request competes for the interpreter with two of them, not twenty."""

    KEY = "touche.follow_gate"

    def __init__(self, app, follows: Callable[[str, str], bool], workers: int):
        self.app, self.follows, self.places = app, follows, threading.BoundedSemaphore(workers)

    def __call__(self, environ, start_response):
        if not self.follows(environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", "")):
            return self.app(environ, start_response)
        self.places.acquire()
        environ[self.KEY] = self.places
        try:
            body = self.app(environ, start_response)
        except BaseException:
            self.places.release()
            raise
        return _Released(body, self.places)


class _Released:
    """A response body that gives its place at the gate back once sent (or abandoned)."""

    def __init__(self, body, places):
        self.body, self.places, self.given = body, places, False

    def __iter__(self):
        return iter(self.body)

    def close(self):
        try:
            if hasattr(self.body, "close"):
                self.body.close()
        finally:
            if not self.given:
                self.given = True
                self.places.release()
