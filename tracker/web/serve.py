"""The production server, as `make run` starts it: waitress serving the app, with a body limit
taken from the app's own settings, so that an oversized request is refused (413) by waitress
before any of it is read or spooled to disk, anonymous or not; and two pools of threads, so that
live followers never take a thread that serves pages.

    python -m tracker.web.serve --host 127.0.0.1 --port 5000 --threads 16 [--follow-threads 256]
"""
from __future__ import annotations

import argparse
import os
import logging
import re

from waitress.server import create_server
from waitress.task import ThreadedTaskDispatcher

from tracker import create_app
from tracker.web.longpoll import Gate

# The requests that follow something live (docs/architecture.md, § Live follow): the API's
# long-polls and event streams, and the short polls of the seat, display and duel pages.
FOLLOW_PATH = re.compile(r"/api(?:/v1)?/(?:(?:duels|campaigns)/[^/]+/(?:changes|stream)|display/[^/]+/stream)"
                         r"|/seat/[^/]+/live|/play/[^/]+/display/live|/duels/[^/]+/live")
DISPLAY_READ = re.compile(r"/api(?:/v1)?/display/[^/]+")  # a follow with ``since``, a read without
CONNECTIONS = 1000  # open connections waitress accepts (its default, 100, would let 100 followers lock the GM out)


def follows(path: str, query: str) -> bool:
    """True for a request that follows something live (see FOLLOW_PATH)."""
    if FOLLOW_PATH.fullmatch(path):
        return True
    return bool(DISPLAY_READ.fullmatch(path)) and re.search(r"(?:^|&)since=", query) is not None


class TwoPools:
    """waitress's task dispatcher with two pools of threads: ``pages`` for everything a GM or a
    player asks, ``followers`` for the requests that follow (which may wait, up to 30 s, or stream
    for minutes). However many follow, the pages' threads stay free."""

    def __init__(self, pages: int, followers: int):
        self.pages, self.followers = ThreadedTaskDispatcher(), ThreadedTaskDispatcher()
        self.pages.set_thread_count(pages)
        self.followers.set_thread_count(followers)

    def add_task(self, task) -> None:
        # The task is a channel with its next request first in line (waitress's HTTPChannel).
        request = task.requests[0] if getattr(task, "requests", None) else None
        following = request is not None and not request.error and follows(request.path, request.query)
        (self.followers if following else self.pages).add_task(task)

    def set_thread_count(self, count: int) -> None:
        self.pages.set_thread_count(count)

    def shutdown(self, cancel_pending: bool = True, timeout: float = 5) -> bool:
        followers = self.followers.shutdown(cancel_pending, timeout)
        return self.pages.shutdown(cancel_pending, timeout) and followers


def body_limit(config) -> int:
    """The largest body any route of the app takes: an import's upload, or a form or command."""
    return max(int(config["MAX_UPLOAD_LENGTH"]), int(config["MAX_CONTENT_LENGTH"]))


def follow_caps(follow_threads: int) -> dict:
    """How many followers may wait at once: the followers' pool less a reserve for the pages'
    short polls, and half of that from any one client address (a venue's players share one)."""
    slots = max(1, follow_threads - max(4, follow_threads // 8))
    return {"LONG_POLL_SLOTS": slots, "LONG_POLL_PER_CLIENT": max(1, slots // 2)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tracker.web.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 5000))
    parser.add_argument("--threads", type=int, default=16, help="threads serving pages, commands and reads")
    parser.add_argument("--follow-threads", type=int, default=256,
                        help="threads for live followers (long-polls, event streams, the pages' polls)")
    parser.add_argument("--follow-workers", type=int, default=4,
                        help="follow requests that may work (read, render) at once; any number wait")
    args = parser.parse_args(argv)
    app = create_app(follow_caps(args.follow_threads))
    app.wsgi_app = Gate(app.wsgi_app, follows, args.follow_workers)
    server = create_server(app, host=args.host, port=args.port, threads=args.threads,
                           connection_limit=max(CONNECTIONS, 2 * args.follow_threads), asyncore_use_poll=True,
                           max_request_body_size=body_limit(app.config),
                           # waitress takes a dispatcher of our own through this keyword (marked a
                           # "test shim" in its source, stable since 1.0); tests/integration checks it
                           _dispatcher=TwoPools(args.threads, args.follow_threads))
    logging.basicConfig()  # as waitress.serve does: its warnings reach stderr
    server.print_listen("Serving on http://{}:{}")
    server.run()


if __name__ == "__main__":
    main()
