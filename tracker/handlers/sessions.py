"""Commands on a GM's login sessions and password: log out, log out everywhere, change it.

Logging in appends nothing: the session cookie (signed with the app's secret key) carries a
random session id and the generation of the GM's sessions it began in. The server refuses it
once its id has ended (``GMLoggedOut``) or its generation has passed (``GMSessionsEnded``, or a
new password), so ending a session ends it for every copy of its cookie.
"""

from __future__ import annotations

import datetime as dt
import functools
import secrets
from typing import Any, Mapping

from werkzeug.security import check_password_hash, generate_password_hash

from tracker import accounts
from tracker.errors import Forbidden
from tracker.rules.base import Invalid
from tracker.services import Outcome, Service

SESSION_LIFETIME = dt.timedelta(days=31)  # Flask's PERMANENT_SESSION_LIFETIME: older cookies are refused


@functools.lru_cache(maxsize=8)
def _dummy_hash(method: str) -> str:
    """A hash of nothing anyone knows, made the same way as real ones, to check unknown names against."""
    return generate_password_hash(secrets.token_hex(16), method=method)


def verify_password(db, username: str, password: str, method: str) -> str | None:
    """The GM's id when the password is theirs, else None. An unknown username costs the same hash
    check as a wrong password, so the time taken does not tell which usernames exist."""
    row = db.execute("SELECT id, password_hash FROM gms WHERE username = ?", [username]).fetchone()
    matches = check_password_hash(row[1] if row else _dummy_hash(method), password)
    return row[0] if row and matches else None


def new_session_id() -> str:
    return secrets.token_urlsafe(24)


def current_generation(db, gm_id: str) -> int:
    """The generation a session beginning now belongs to (0 until the GM first ends them all)."""
    row = db.execute("SELECT generation FROM session_generations WHERE gm_id = ?", [gm_id]).fetchone()
    return row[0] if row else 0


def live_session(db, gm_id: str, session_id: str, generation: int) -> bool:
    """True while the GM's session has neither ended by itself nor with all the others."""
    if generation != current_generation(db, gm_id):
        return False
    return db.execute("SELECT 1 FROM ended_sessions WHERE session_id = ? AND gm_id = ?",
                      [session_id, gm_id]).fetchone() is None


def own_stream(service: Service) -> str:
    """The acting GM's account stream: these commands have no meaning without a GM."""
    if not service.context.actor:
        raise Forbidden("log in as a GM first")
    return f"gm-{service.context.actor}"


def end_session(service: Service, command: Mapping[str, Any]) -> Outcome:
    """End one of the acting GM's login sessions (logging out)."""
    ending = command.get("session_id")
    if not isinstance(ending, str) or not 0 < len(ending) <= 64:
        raise Invalid({"session_id": "is required (at most 64 characters)"})
    now = service.context.now()
    # No session began more than a lifetime ago, so none outlives now + a lifetime.
    expires = (dt.datetime.fromisoformat(now) + SESSION_LIFETIME).isoformat(timespec="milliseconds")
    return service.append(own_stream(service), "", None, command,
                          lambda _: [accounts.GMLoggedOut(session_id=ending, ended_at=now, expires_at=expires)])


def end_all_sessions(service: Service, command: Mapping[str, Any]) -> Outcome:
    """End every login session of the acting GM (log out everywhere)."""
    return service.append(own_stream(service), "", None, command, lambda _: [accounts.GMSessionsEnded()])


def change_password(service: Service, command: Mapping[str, Any]) -> Outcome:
    """Set a new password, given the current one; every session of the GM ends with the old one."""
    stream = own_stream(service)
    current, new = command.get("current_password"), command.get("new_password")
    errors = {}
    if not isinstance(new, str) or len(new) < 10 or len(new) > 200:
        errors["new_password"] = "must be 10 to 200 characters"
    row = service.db.execute("SELECT password_hash FROM gms WHERE id = ?", [service.context.actor]).fetchone()
    if not isinstance(current, str) or row is None or not check_password_hash(row[0], current):
        errors["current_password"] = "is not your current password"
    if errors:
        raise Invalid(errors)
    digest = generate_password_hash(new, method=service.context.password_method)
    return service.append(stream, "", None, command, lambda _: [accounts.GMPasswordChanged(password_hash=digest)])
