"""Server-sent events (``text/event-stream``): a follow that stays open and sends each change as
it is logged, ``id:`` the version (or log position) it brings the client to, so that a client that
reconnects with ``Last-Event-ID`` (every ``EventSource`` does) is sent only what it missed.

A stream waits as a long-poll does (``longpoll.following``: no connection held, woken by the
watcher) on the followers' own threads; it ends after ``SSE_MAX`` seconds (its ``retry:`` says when
to come back), when the access it began with is withdrawn, or at once, after what changed, when
the followers' slots are full.
"""
from __future__ import annotations

import time
from typing import Callable, Iterable

from flask import Response, current_app, request, stream_with_context

from tracker.web import longpoll
from tracker.web.inputs import int_arg

HEARTBEAT = 15  # seconds between keep-alive comments: a proxy keeps the stream, a gone client is noticed
RETRY_MS = 1000  # what a stream tells its client to wait before reconnecting
SSE_MAX = 300  # seconds a stream stays open before the client reconnects (its access is checked anew)

# One change: the id a client resumes from, the event's name, and its JSON data.
Change = tuple[int, str, dict]


def resume_point() -> int | None:
    """Where the client stands: its ``Last-Event-ID`` (a reconnection), else ``?since=``, else None."""
    last = request.headers.get("Last-Event-ID", "").strip()
    if last.isdigit() and len(last) < 19:
        return int(last)
    return int_arg("since")


def event_stream(key: str, changes: Callable[[int | None], Iterable[Change]], start: int | None,
                 allowed: Callable[[], bool]) -> Response:
    """The response that streams ``changes(after)`` (each change after the id ``after``; for None,
    the first view of all) from ``start``, again each time ``key`` moves."""
    slot = longpoll.take_slot()
    lifetime = float(current_app.config.get("SSE_MAX", SSE_MAX)) if slot is not None else 0.0

    def events():
        last, deadline = start, time.monotonic() + lifetime
        try:
            yield f"retry: {RETRY_MS if slot is not None else longpoll.RETRY_AFTER * 1000}\n\n"
            with longpoll.following(key) as follow:
                while True:
                    for version, name, data in changes(last):
                        last = version
                        text = current_app.json.dumps(data, indent=None, separators=(",", ":"))  # one line
                        yield f"id: {version}\nevent: {name}\ndata: {text}\n\n"
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return
                    follow.sleep(min(left, HEARTBEAT))
                    if not allowed():
                        return
                    yield ": still here\n\n"
        finally:
            if slot is not None:
                longpoll.give_back(slot)

    response = Response(stream_with_context(events()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # nginx: pass each event on as it comes
    return longpoll.hint(response)
