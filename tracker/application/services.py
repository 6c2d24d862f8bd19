"""The service layer: turn a command into events, append them and project them, atomically.

Every write goes through ``handle``: it checks the command against the access policy
(``tracker.application.policy``: the door it came through), parses it into its typed command
(``tracker.application.commands``) and hands it to its handler, from the table the service was built with
(``tracker.bootstrap``: this layer never imports the handlers). Inside one write transaction
``append`` checks who may write to the stream, the command id (a retried command appends once)
and the expected stream version (a stale form is a ``Conflict``), asks the pure rules to decide,
appends, and updates the read models. Ids, the clock and the dice
roller live here, never in the rules.
"""
from __future__ import annotations

import datetime as dt
import random
import secrets
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from tracker.application import commands, policy
from tracker.application.commands import Command
from tracker.application.commands.base import same_command
from tracker.application.commands.names import canonical
from tracker.domain.errors import Forbidden, NotFound, no_such
from tracker.projections.engine import Projector
from tracker.rules.base import Invalid
from tracker.rules.text import t
from tracker.eventstore.store import LEGACY, Conflict, EventStore, Recorded, load_state, write_transaction

__all__ = ["Context", "Forbidden", "NotFound", "Outcome", "Service"]

# Constant SQL run on the connection itself: sqlite3 keeps each prepared, once, for every command.
STATE = "SELECT version, state FROM stream_states WHERE stream = ?"
VERSION = "SELECT version FROM stream_states WHERE stream = ?"


@dataclass
class Context:
    """Who is acting, and the sources of ids, time and dice the rules must not touch.

    ``actor`` is the logged-in GM's id, empty for an anonymous visitor. ``door`` is where the
    command came in (``tracker.application.policy.DOORS``): code in this process (the command line, the demo,
    scripts) is the command line, which may do anything; the web always names its own door.
    ``open_signup`` and ``setup_code_ok`` are what the web knows about signing up."""

    actor: str = ""
    door: str = policy.COMMAND_LINE
    open_signup: bool = False
    setup_code_ok: bool = False
    seat: str = ""  # a player's seat acting (its link id), through the seat page
    scope: policy.Scope = policy.FULL  # what the API token acting may do (``policy.Scope``)
    now: Callable[[], str] = lambda: dt.datetime.now(dt.timezone.utc).isoformat(timespec="milliseconds")
    new_id: Callable[[], str] = lambda: secrets.token_hex(6)
    rng: random.Random = field(default_factory=random.SystemRandom)
    password_method: str = "scrypt"  # werkzeug's default; tests pick a cheap one
    guesses: Any = None  # the limits on password guesses (tracker.application.guesses.Guesses: the web's); None: unlimited
    fingerprint_key: bytes = b""  # the install's key for command fingerprints (commands.base.fingerprint_key)


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


Handler = Callable[["Service", Command], "Outcome"]


class Service:
    """Runs commands on one database. ``handlers`` maps each command type (and the policy's
    ``DUEL_COMMAND`` row, for every duel's own commands) to its handler."""

    def __init__(self, db, context: Context | None, handlers: Mapping[str, Handler]):
        self.db = db
        self.store = EventStore(db)
        self.context = context or Context()
        self.handlers = handlers
        self.recording_at = ""  # the time of the append under way, once its decide runs
        self._read: dict[str, tuple[int, dict | None]] = {}  # the states this command has read

    # --- the one way in --------------------------------------------------------------

    def handle(self, message: Mapping[str, Any]) -> Outcome:
        """Run one command given as a mapping with a ``type`` (JSON or form data)."""
        message = canonical(message)  # old field names read as their current ones
        kind = message.get("type")
        if not isinstance(kind, str):
            raise Invalid({"type": t("is required")})
        rule = policy.check_door(kind, self.context)
        duel = policy.is_duel_command(rule)
        command = commands.parse(kind, message, duel=duel, key=self.context.fingerprint_key)
        policy.check_named(self.db, self.context, command)
        handler = self.handlers.get(policy.DUEL_COMMAND if duel else kind)
        if handler is None:
            raise Invalid({"type": t("unknown command {command}", command=repr(kind))})
        self._read = {}
        try:
            return handler(self, command)
        finally:
            self._read = {}

    def append(self, stream: str, campaign_id: str, expected: int | None, command: Command,
               decide: Callable[[dict | None], list]) -> Outcome:
        """Decide on the stream's state and append at the expected version, then project: one
        write transaction, so a refused or conflicting command appends nothing."""
        command_id, fingerprint, kind = command.command_id, command.fingerprint, command.kind
        with write_transaction(self.db):
            policy.check_stream(self.db, self.context, kind, stream, campaign_id, creating=expected == 0,
                                fields=getattr(command, "fields", None))
            principal = policy.scope_of(self.context)
            if command_id:
                earlier = self.store.earlier_command(principal, command_id)
                if earlier is not None:
                    return replay(earlier, kind, command, self.context.fingerprint_key)
            # The state the handler read before the write lock, if it read one, is decided on
            # without reading its version again: the event's insert at the next version is the
            # check (UNIQUE(stream, version) takes no row if the stream moved meanwhile), and only
            # then is the state read anew, under the lock, and the command decided again.
            known = self._read.get(stream)
            fresh = known is None or known[1] is None
            version, state = self.state_of(stream) if fresh else known
            while True:
                stale = expected is not None and expected != version
                if stale and not self._only_seat_choices(stream, state, expected):
                    if fresh:
                        raise Conflict(stream, expected, version)
                    version, state, fresh = *self.state_of(stream), True
                    continue
                # The moment is taken before deciding, so a rule that waits on the log's times (a
                # treatment once an hour) decides with the very time its events are recorded at.
                self.recording_at = self.context.now()
                events = decide(state)
                if not events and not fresh and self._moved(stream, version):
                    version, state, fresh = *self.state_of(stream), True
                    continue  # nothing to insert, so nothing checked: decided again on the state as it is
                metadata = {"campaign_id": campaign_id, "recorded_at": self.recording_at,
                            "actor": self.context.actor, "command": kind, "command_id": command_id,
                            "decision": version + 1}
                if command_id:
                    metadata.update(principal=principal, fingerprint=fingerprint)
                try:
                    recorded = self.store.append(stream, version, events, metadata, command_id, checked=True)
                except Conflict:
                    if fresh:
                        raise
                    version, state, fresh = *self.state_of(stream), True
                    continue
                break
            if command_id:
                self.store.remember_command(principal, command_id, fingerprint, stream, recorded)
            projector = Projector(self.db, self.store, known={stream: (version, state)})
            projector.apply_all(recorded)
            projector.flush()
        return Outcome(stream, recorded)

    def _only_seat_choices(self, stream: str, state: dict | None, expected: int) -> bool:
        """True when everything appended since ``expected`` is a seat's sealed choice, which no form
        drawn before it can have decided on (nobody saw it): a GM's form filled in while a player
        tapped is decided on the state as it now stands, by the rules, never refused as stale."""
        from tracker import rules

        module = rules.RULESETS.get(state.get("ruleset")) if isinstance(state, dict) else None
        beside = getattr(module, "SEAT_CHOICE_EVENTS", ())
        if not beside or expected < 1:
            return False
        since = [r for r in self.store.read_stream(stream) if r.version > expected]
        return bool(since) and all(r.type in beside for r in since)

    def as_consequence(self) -> "Service":
        """The same service acting as Touché itself, for what a handler appends as the consequence of
        the command it is running (its own row in the policy table; no route can send it)."""
        return Service(self.db, replace(self.context, door=policy.CONSEQUENCE, actor=""), self.handlers)

    def version(self, stream: str) -> int:
        """The stream's current version (what a form must send as ``expected_version``)."""
        return self.state_of(stream)[0]

    def state_of(self, stream: str) -> tuple[int, dict | None]:
        """A stream's version and folded state, from the read model (no replay); kept for the rest
        of the command, so the handler's read and the append's do not decode it twice."""
        row = self.db.conn.execute(STATE, (stream,)).fetchone()
        found = (row[0], load_state(row[1])) if row else (self.store.version(stream), None)
        self._read[stream] = found
        return found

    def _moved(self, stream: str, version: int) -> bool:
        """True when the stream is no longer at ``version`` (asked under the write lock)."""
        row = self.db.conn.execute(VERSION, (stream,)).fetchone()
        return row is None or row[0] != version

    def existing(self, stream: str, campaign_id: str | None = None) -> dict:
        """The stream's state, or NotFound."""
        _, state = self.state_of(stream)
        if state is None or (campaign_id and state.get("campaign_id", campaign_id) != campaign_id):
            raise NotFound(no_such(stream.split("-", 1)[0]))
        return state


# --- command ids --------------------------------------------------------------------------

REUSED = t("this command id was already used for another command")


def replay(earlier: tuple[str, str, list[Recorded]], kind: str, command: Command, key: bytes) -> Outcome:
    """The earlier outcome of the same command, or Invalid when the id named another command.
    A command appended before fingerprints existed is known by its type alone; one appended before
    they were keyed, by the bare SHA-256 it was kept with."""
    known, stream, events = earlier
    same = known == LEGACY + kind if known.startswith(LEGACY) else same_command(known, command.said, key)
    if not same:
        raise Invalid({"command_id": REUSED})
    return Outcome(stream, events, replayed=True)
