"""The production server, as `make run` starts it: waitress serving the app, with a body limit
taken from the app's own settings, so that an oversized request is refused (413) by waitress
before any of it is read or spooled to disk, anonymous or not.

    python -m tracker.serve --host 127.0.0.1 --port 5000 --threads 16
"""
from __future__ import annotations

import argparse
import os

import waitress

from tracker import create_app


def body_limit(config) -> int:
    """The largest body any route of the app takes: an import's upload, or a form or command."""
    return max(int(config["MAX_UPLOAD_LENGTH"]), int(config["MAX_CONTENT_LENGTH"]))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tracker.serve", description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 5000))
    parser.add_argument("--threads", type=int, default=16)
    args = parser.parse_args(argv)
    # Long-polls may hold at most half the threads: the other half always serve the GM's pages.
    app = create_app({"LONG_POLL_SLOTS": max(1, args.threads // 2)})
    waitress.serve(app, host=args.host, port=args.port, threads=args.threads,
                   max_request_body_size=body_limit(app.config))


if __name__ == "__main__":
    main()
