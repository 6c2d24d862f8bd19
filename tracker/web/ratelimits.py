"""The JSON API's rate limit, told on every answer: how many requests a token (or, without one, a
client address) may make in a window, how many are left, and when the window starts again.

Headers as the IETF draft "RateLimit header fields for HTTP" names them: ``RateLimit-Limit``,
``RateLimit-Remaining``, ``RateLimit-Reset`` (seconds until the window resets, never a date) and
``RateLimit-Policy`` (``3000;w=60``: the quota and its window in seconds). Past the limit the
answer is a 429 problem (``too_many_requests``) with ``Retry-After``, before the request runs:
nothing is appended.

The counters are the ones password guesses use (``tracker.application.guesses``: the ``limits`` library on the
storage Flask-Limiter builds, memory or ``TOUCHE_RATELIMIT_STORAGE``), a fixed window per token.
Flask-Limiter's own decorators and headers are not used: its reset header is a Unix time, not the
draft's seconds, its 429 is not a problem, and it keys by address where the API's client is a token.
"""
from __future__ import annotations

import math
import time

from flask import Flask, current_app, g, request
from limits import parse
from limits.strategies import FixedWindowRateLimiter

from tracker.domain.accounts import token_digest
from tracker.rules.text import t
from tracker.web import problems, throttle

LIMITER = "touche.api_limiter"


def init_app(app: Flask) -> None:
    """Count each API request once the guard has found its token (after ``access.guard``)."""
    app.extensions[LIMITER] = FixedWindowRateLimiter(app.extensions[throttle.STORAGE])
    app.before_request(count)
    app.after_request(tell)


def _key() -> str:
    """The counter a request falls under: its token's (by digest), else its client address's."""
    header = request.headers.get("Authorization", "")
    if g.get("gm") and header.startswith("Bearer "):
        return "api:token:" + token_digest(header[7:].strip())
    return "api:address:" + throttle.client_address()


def count():
    """Take one request from the counter, or answer 429 when none is left."""
    if not request.path.startswith("/api/") or request.method == "OPTIONS":
        return None
    item, key = parse(current_app.config["API_LIMIT"]), _key()
    limiter: FixedWindowRateLimiter = current_app.extensions[LIMITER]
    allowed = limiter.hit(item, key)
    stats = limiter.get_window_stats(item, key)
    g.rate = (item, stats.remaining, max(0, math.ceil(stats.reset_time - time.time())))
    if allowed:
        return None
    message = t("Too many requests: wait {seconds} s, then send again. Nothing was logged.",
                seconds=max(1, g.rate[2]))
    response = problems.problem(429, "too_many_requests", message)
    response.headers["Retry-After"] = str(max(1, g.rate[2]))
    return response


def tell(response):
    """Name the limit, what is left of it and when it resets, on every counted answer."""
    rate = g.get("rate")
    if rate is not None:
        item, remaining, reset = rate
        response.headers["RateLimit-Limit"] = str(item.amount)
        response.headers["RateLimit-Remaining"] = str(remaining)
        response.headers["RateLimit-Reset"] = str(reset)
        response.headers["RateLimit-Policy"] = f"{item.amount};w={item.get_expiry()}"
    return response
