"""The service layer: turn a command into events, append them and project them, atomically.

Every write goes through ``handle``: it finds the command's handler (``tracker.handlers``), and
inside one write transaction ``append`` checks who acts, the command id (a retried command
appends once) and the expected stream version (a stale form is a ``Conflict``), asks the pure
rules to decide, appends, and updates the read models. Ids, the clock and the dice roller live
here, never in the rules.
"""
from __future__ import annotations

import datetime as dt
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from tracker.errors import Forbidden, NotFound
from tracker.projections.engine import Projector
from tracker.rules.base import Invalid
from tracker.store import Conflict, EventStore, Recorded, loads, write_transaction

__all__ = ["Context", "Forbidden", "NotFound", "Outcome", "Service"]


@dataclass
class Context:
    """Who is acting, and the sources of ids, time and dice the rules must not touch.

    ``actor`` is the GM's id on the web; empty on the command line, which may do anything."""

    actor: str = ""
    now: Callable[[], str] = lambda: dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")
    new_id: Callable[[], str] = lambda: secrets.token_hex(6)
    rng: random.Random = field(default_factory=random.SystemRandom)
    password_method: str = "scrypt"  # werkzeug's default; tests pick a cheap one


@dataclass(frozen=True)
class Outcome:
    """What a handled command appended, and the stream it went to."""

    stream: str
    events: list[Recorded]
    replayed: bool = False  # True when the command id had already run

    @property
    def version(self) -> int:
        return self.events[-1].version if self.events else 0

    secret: str = ""  # what only the caller sees once (a new API token), never stored

    @property
    def key(self) -> str:
        return self.stream.split("-", 1)[1]


class Service:
    def __init__(self, db, context: Context | None = None):
        self.db = db
        self.store = EventStore(db)
        self.context = context or Context()

    # --- the one way in --------------------------------------------------------------

    def handle(self, command: Mapping[str, Any]) -> Outcome:
        """Run one command given as a mapping with a ``type`` (JSON or form data)."""
        kind = command.get("type")
        if not isinstance(kind, str):
            raise Invalid({"type": "is required"})
        from tracker.handlers import HANDLERS, duels

        handler = HANDLERS.get(kind)
        if handler is None:
            if "duel_id" in command:
                return duels.duel_command(self, command)
            raise Invalid({"type": f"unknown command {kind!r}"})
        return handler(self, command)

    def append(self, stream: str, campaign_id: str, expected: int | None, command: Mapping[str, Any],
               decide: Callable[[dict | None], list]) -> Outcome:
        """Decide on the stream's state and append at the expected version, then project: one
        write transaction, so a refused or conflicting command appends nothing."""
        command_id = command.get("command_id") or None
        if command_id is not None and not isinstance(command_id, str):
            raise Invalid({"command_id": "must be text"})
        with write_transaction(self.db):
            self.authorize(stream, campaign_id, creating=expected == 0)
            earlier = self.store.already_appended(command_id)
            if earlier:
                return Outcome(earlier[0].stream, earlier, replayed=True)
            version, state = self.state_of(stream)
            if expected is not None and expected != version:
                raise Conflict(stream, expected, version)
            events = decide(state)
            metadata = {"campaign_id": campaign_id, "recorded_at": self.context.now(),
                        "actor": self.context.actor, "command": command.get("type"),
                        "command_id": command_id, "decision": version + 1}
            recorded = self.store.append(stream, version, events, metadata, command_id, checked=True)
            projector = Projector(self.db, self.store, known={stream: (version, state)})
            projector.apply_all(recorded)
            projector.flush()
        return Outcome(stream, recorded)

    def authorize(self, stream: str, campaign_id: str, creating: bool = False) -> None:
        """Every write passes here: a GM writes to their own account and to campaigns they own or
        co-GM (or that belong to the whole instance); the command line writes anywhere. Who may
        open a new account is the web's policy (first start, or signups allowed)."""
        actor = self.context.actor
        if not actor:
            return
        if stream.startswith("gm-"):
            if stream != f"gm-{actor}" and not creating:
                raise Forbidden("not your account")
            return
        row = self.db.execute("SELECT owner FROM campaigns WHERE id = ?", [campaign_id]).fetchone()
        if row is None:
            if stream == f"campaign-{campaign_id}":
                return  # creating it
            raise NotFound("no such campaign")
        if row[0] and not self.db.execute("SELECT 1 FROM campaign_access WHERE gm_id = ? AND campaign_id = ?",
                                          [actor, campaign_id]).fetchone():
            raise Forbidden("no such campaign")

    def version(self, stream: str) -> int:
        """The stream's current version (what a form must send as ``expected_version``)."""
        return self.state_of(stream)[0]

    def state_of(self, stream: str) -> tuple[int, dict | None]:
        """A stream's version and folded state, from the read model (no replay)."""
        row = self.db.execute("SELECT version, state FROM stream_states WHERE stream = ?", [stream]).fetchone()
        return (row[0], loads(row[1])) if row else (self.store.version(stream), None)

    def existing(self, stream: str, campaign_id: str | None = None) -> dict:
        """The stream's state, or NotFound."""
        _, state = self.state_of(stream)
        if state is None or (campaign_id and state.get("campaign_id", campaign_id) != campaign_id):
            raise NotFound(f"no such {stream.split('-', 1)[0]}")
        return state
