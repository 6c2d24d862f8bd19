"""A GM's login sessions: checking a password, and whether a session cookie still holds.

Logging in appends nothing: the session cookie (signed with the app's secret key) carries a
random session id and the generation of the GM's sessions it began in. The server refuses it
once its id has ended (``GMLoggedOut``) or its generation has passed (``GMSessionsEnded``, or a
new password), so ending a session ends it for every copy of its cookie. The web reads these
when it logs a GM in and at every request; the handlers when a session ends.
"""

from __future__ import annotations

import datetime as dt
import functools
import secrets

from werkzeug.security import check_password_hash, generate_password_hash

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
