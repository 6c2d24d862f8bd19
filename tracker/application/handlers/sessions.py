"""Commands on a GM's login sessions and password: log out, log out everywhere, change it.

How a session is told alive or ended is ``tracker.application.logins``'s to say.
"""

from __future__ import annotations

import datetime as dt

from werkzeug.security import check_password_hash, generate_password_hash

from tracker.application import guesses
from tracker.domain import accounts
from tracker.application.commands import ChangePassword, EndAllSessions, EndSession
from tracker.domain.errors import Forbidden
from tracker.application.logins import SESSION_LIFETIME
from tracker.rules.base import Invalid
from tracker.rules.text import t
from tracker.application.services import Outcome, Service


def own_stream(service: Service) -> str:
    """The acting GM's account stream: these commands have no meaning without a GM."""
    if not service.context.actor:
        raise Forbidden(t("log in as a GM first"))
    return f"gm-{service.context.actor}"


def end_session(service: Service, command: EndSession) -> Outcome:
    """End one of the acting GM's login sessions (logging out)."""
    now = service.context.now()
    # No session began more than a lifetime ago, so none outlives now + a lifetime.
    expires = (dt.datetime.fromisoformat(now) + SESSION_LIFETIME).isoformat(timespec="milliseconds")
    return service.append(own_stream(service), "", None, command,
                          lambda _: [accounts.GMLoggedOut(session_id=command.session_id, ended_at=now, expires_at=expires)])


def end_all_sessions(service: Service, command: EndAllSessions) -> Outcome:
    """End every login session of the acting GM (log out everywhere)."""
    return service.append(own_stream(service), "", None, command, lambda _: [accounts.GMSessionsEnded()])


def change_password(service: Service, command: ChangePassword) -> Outcome:
    """Set a new password, given the current one; every session of the GM ends with the old one."""
    stream = own_stream(service)
    current, new = command.current_password, command.new_password
    errors = {}
    if len(new) < 10 or len(new) > 200:
        errors["new_password"] = t("must be 10 to 200 characters")
    row = service.db.execute("SELECT password_hash, username FROM gms WHERE id = ?",
                             [service.context.actor]).fetchone()
    if row is None:
        raise Forbidden(t("log in as a GM first"))
    # A guess at the password like a login's, counted on the same account before it is checked.
    limits = service.context.guesses
    with (limits.attempt(t("Too many wrong current passwords. Wait a few minutes, then try again."),
                         account=row[1], field="current_password") if limits else guesses.unlimited()) as attempt:
        if check_password_hash(row[0], current):
            attempt.right()
        else:
            errors["current_password"] = t("is not your current password")
    if errors:
        raise Invalid(errors)
    digest = generate_password_hash(new, method=service.context.password_method)
    return service.append(stream, "", None, command, lambda _: [accounts.GMPasswordChanged(password_hash=digest)])
