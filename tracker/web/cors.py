"""CORS for the JSON API, for the origins the GM lists and no other (a VTT module, such as a
Foundry module, runs in the player's browser on its own origin and calls /api/v1 from there).

The instance setting ``CORS_ORIGINS`` (``TOUCHE_CORS_ORIGINS``: origins separated by commas or
spaces, e.g. ``https://foundry.example.org``) lists them; empty, the default, allows none. Only
``/api/`` paths answer, and only with the exact origin asked for: no wildcard, no credentials
(the API is authenticated by its ``Authorization: Bearer`` token, never by a cookie, so a listed
origin can do only what a script holding the token could do anyway)."""
from __future__ import annotations

from flask import current_app, request

METHODS = "GET, POST, OPTIONS"
HEADERS = "Authorization, Content-Type, If-None-Match, Accept-Language"
EXPOSED = "ETag, Link, WWW-Authenticate, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy"
MAX_AGE = "600"


def init_app(app) -> None:
    """Answer preflights before anything else looks at the request (a preflight carries no
    token: the guard would answer it 401), and add the headers to every API answer."""
    app.before_request_funcs.setdefault(None, []).insert(0, preflight)
    app.after_request(allow)


def origins() -> frozenset[str]:
    listed = current_app.config.get("CORS_ORIGINS") or ()
    if isinstance(listed, str):
        listed = listed.replace(",", " ").split()
    return frozenset(o.strip().rstrip("/") for o in listed if o.strip())


def allowed_origin() -> str | None:
    """The request's Origin when it calls the API from an origin the GM listed, else None."""
    origin = request.headers.get("Origin")
    if origin and request.path.startswith("/api/") and origin in origins():
        return origin
    return None


def preflight():
    """A CORS preflight (OPTIONS with Access-Control-Request-Method) to the API: 204, with the
    CORS headers only for a listed origin (for another, none: its browser refuses the call)."""
    if request.method != "OPTIONS" or not request.path.startswith("/api/") \
            or "Access-Control-Request-Method" not in request.headers:
        return None
    response = current_app.response_class(status=204)
    if allowed_origin():
        response.headers["Access-Control-Allow-Methods"] = METHODS
        response.headers["Access-Control-Allow-Headers"] = HEADERS
        response.headers["Access-Control-Max-Age"] = MAX_AGE
    return response


def allow(response):
    """Every API answer to a listed origin names it (and varies on Origin)."""
    if request.path.startswith("/api/"):
        response.vary.add("Origin")
    origin = allowed_origin()
    if origin:
        response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Access-Control-Expose-Headers"] = EXPOSED
    return response
