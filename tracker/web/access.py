"""Who may see what: every request is checked here before its view runs.

GM pages need a logged-in GM; the JSON API needs a GM's token (``Authorization: Bearer``), never
the browser session; players' links are checked by the player blueprint itself. Any campaign a
page touches (through the ids in its URL) must be one the GM owns, co-GMs, or that belongs to the
whole instance; otherwise the answer is a 404, as if it did not exist.
"""
from __future__ import annotations

from flask import g, redirect, request, session, url_for

from tracker.application import policy
from tracker.bootstrap.db import get_db
from tracker.domain.errors import Forbidden, no_such
from tracker.domain.accounts import token_digest
from tracker.application.logins import live_session
from tracker.projections import queries
from tracker.rules.text import t
from tracker.web import problems

# With, under both API prefixes, the API's own description and the table display's JSON (whose
# player link checks itself, as the display page's does).
OPEN_ENDPOINTS = {"static", "auth.login", "auth.setup", "health", "theme.choose", "language.choose",
                  *(f"{api}.{view}" for api in ("api", "api_v1") for view in ("openapi_description", "display", "display_stream"))}


def guard():
    """Run before every request: find the GM, then check the campaign the URL points at."""
    endpoint = request.endpoint or ""
    # Player links and seats check themselves; a method they refuse answers 405 there, not a login redirect.
    if endpoint in OPEN_ENDPOINTS or endpoint.startswith(("player.", "seats.")) \
            or request.path.startswith(("/play/", "/seat/")):
        return None
    api = request.path.startswith("/api/")
    g.gm = _gm_from_token() if api else _gm_from_session()
    if g.gm is None:
        if api:
            return unauthorized()
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
    for name in queries.CAMPAIGN_OF:  # the ids a URL may carry, each read to find its campaign
        value = (request.view_args or {}).get(name)
        if value is not None:
            campaign_id = queries.campaign_of(get_db(), name, value)
            # A missing id is answered here too, in the URL's order, so a route naming two ids (a
            # duel's link) answers for another GM's duel exactly as for a duel that does not exist.
            missing = campaign_id is None and name not in ("position", "stream")  # not every event has a campaign
            if missing or (campaign_id is not None and not may_open(g.gm["id"], campaign_id)):
                raise Forbidden(no_such(name.removesuffix("_id")))
    return None


def unauthorized():
    """The API's 401: a problem naming the scheme to use (RFC 6750), and whether the token sent
    was refused (unknown, revoked) or none was sent."""
    response = problems.problem(401, "unauthorized", t("send a GM's API token: Authorization: Bearer …"))
    sent = request.headers.get("Authorization", "").startswith("Bearer ")
    response.headers["WWW-Authenticate"] = 'Bearer realm="touche"' + (', error="invalid_token"' if sent else "")
    return response


def may_open(gm_id: str, campaign_id: str) -> bool:
    """True when the GM owns or co-GMs the campaign, or it belongs to the whole instance, and the
    API token asking (if it is for one campaign) is for this one (``policy.may_read``)."""
    return policy.may_read(get_db(), gm_id, campaign_id, scope())


def scope() -> policy.Scope:
    """What the API token of this request may do (``policy.FULL`` on a page)."""
    return g.get("scope") or policy.FULL


def gm_of_session():
    """The GM logged in on this browser, if any (for the few pages anyone may open)."""
    return _gm_from_session()


def _gm_from_session():
    """The GM whose session the cookie names, unless the server ended that session: logging out,
    logging out everywhere or a new password ends it for every copy of the cookie."""
    gm_id, session_id, generation = session.get("gm_id"), session.get("session_id"), session.get("generation")
    if not isinstance(gm_id, str) or not isinstance(session_id, str) or not isinstance(generation, int):
        return None
    if not live_session(get_db(), gm_id, session_id, generation):
        return None
    return queries.gm(get_db(), gm_id)


def _gm_from_token():
    """The GM the request's API token acts for; the token's scope is kept on ``g.scope``."""
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    found = queries.gm_of_token(get_db(), token_digest(header[7:].strip()))
    if found is None:
        return None
    g.scope = policy.Scope(read_only=bool(found["read_only"]), campaign_id=found["campaign_id"])
    return {"id": found["id"], "username": found["username"]}


SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; "
                                "object-src 'none'"),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
}


def secure_headers(response):
    """Add the usual security headers to every response; nothing a logged-in GM sees (a campaign,
    a new API token) is kept by the browser's or a proxy's cache."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if g.get("gm"):
        response.headers["Cache-Control"] = "no-store"
    return response
