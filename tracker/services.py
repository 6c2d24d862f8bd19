"""The service layer: turn a command into events, append them and project them, atomically.

Every write goes through ``handle``: inside one write transaction it checks the command id
(a retried command appends once), checks the expected stream version (a stale form is a
``Conflict``), asks the pure rules to decide, appends, and updates the read models.
Ids, the clock and the dice roller live here, never in the rules.
"""
from __future__ import annotations

import datetime as dt
import random
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from tracker import accounts, rules, workspace
from tracker.projections.engine import Projector
from tracker.rules.base import Dice, Field, Invalid, Refused, parse_command, parse_fields
from tracker.store import Conflict, EventStore, Recorded, loads, write_transaction


class NotFound(Exception):
    """The command names something that does not exist (or not in this campaign)."""


class Forbidden(NotFound):
    """The actor may not touch this campaign. Told apart from NotFound only in the log: the web
    answers 404 either way, so nobody learns what exists in another GM's campaign."""


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
        handler = HANDLERS.get(kind)
        if handler is None:
            if "duel_id" in command:
                return self.duel_command(command)
            raise Invalid({"type": f"unknown command {kind!r}"})
        return handler(self, command)

    def _append(self, stream: str, campaign_id: str, expected: int | None, command: Mapping[str, Any],
                decide: Callable[[dict | None], list]) -> Outcome:
        command_id = command.get("command_id") or None
        if command_id is not None and not isinstance(command_id, str):
            raise Invalid({"command_id": "must be text"})
        with write_transaction(self.db):
            self.authorize(stream, campaign_id, creating=expected == 0)
            earlier = self.store.already_appended(command_id)
            if earlier:
                return Outcome(earlier[0].stream, earlier, replayed=True)
            version, state = self._state(stream)
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
        return self._state(stream)[0]

    def _state(self, stream: str) -> tuple[int, dict | None]:
        row = self.db.execute("SELECT version, state FROM stream_states WHERE stream = ?", [stream]).fetchone()
        return (row[0], loads(row[1])) if row else (self.store.version(stream), None)

    def _existing(self, stream: str, campaign_id: str | None = None) -> dict:
        _, state = self._state(stream)
        if state is None or (campaign_id and state.get("campaign_id", campaign_id) != campaign_id):
            raise NotFound(f"no such {stream.split('-', 1)[0]}")
        return state

    # --- workspace -------------------------------------------------------------------

    def create_campaign(self, command: Mapping[str, Any]) -> Outcome:
        clean = workspace.parse_campaign(command)
        campaign_id = command.get("campaign_id") or self.context.new_id()
        stream = f"campaign-{_key(campaign_id, 'campaign_id')}"
        return self._append(stream, campaign_id, 0, command,
                            lambda _: [workspace.CampaignCreated(campaign_id=campaign_id, owner=self.context.actor,
                                                                 **clean)])

    def edit_campaign(self, command: Mapping[str, Any]) -> Outcome:
        campaign_id = _key(command.get("campaign_id"), "campaign_id")
        self._existing(f"campaign-{campaign_id}")
        clean = workspace.parse_campaign(command)
        return self._append(f"campaign-{campaign_id}", campaign_id, _expected(command), command,
                            lambda _: [workspace.CampaignEdited(**clean)])

    def change_campaign_rules(self, command: Mapping[str, Any]) -> Outcome:
        campaign_id = _key(command.get("campaign_id"), "campaign_id")
        self._existing(f"campaign-{campaign_id}")
        ruleset, settings = workspace.parse_campaign_rules(command.get("ruleset"), command)
        return self._append(f"campaign-{campaign_id}", campaign_id, _expected(command), command,
                            lambda _: [workspace.CampaignRulesChanged(ruleset=ruleset, settings=settings)])

    def create_character(self, command: Mapping[str, Any]) -> Outcome:
        campaign_id = _key(command.get("campaign_id"), "campaign_id")
        self._existing(f"campaign-{campaign_id}")
        clean = workspace.parse_character(command)
        character_id = self.context.new_id()
        return self._append(f"character-{character_id}", campaign_id, 0, command,
                            lambda _: [workspace.CharacterCreated(character_id=character_id,
                                                                  campaign_id=campaign_id, **clean)])

    def edit_character(self, command: Mapping[str, Any]) -> Outcome:
        character_id = _key(command.get("character_id"), "character_id")
        state = self._existing(f"character-{character_id}")
        clean = workspace.parse_character(command)
        return self._append(f"character-{character_id}", state["campaign_id"], _expected(command), command,
                            lambda _: [workspace.CharacterEdited(**clean)])

    def plan_session(self, command: Mapping[str, Any]) -> Outcome:
        campaign_id = _key(command.get("campaign_id"), "campaign_id")
        self._existing(f"campaign-{campaign_id}")
        clean = workspace.parse_session(command)
        session_id = self.context.new_id()
        return self._append(f"session-{session_id}", campaign_id, 0, command,
                            lambda _: [workspace.SessionPlanned(session_id=session_id,
                                                                campaign_id=campaign_id, **clean)])

    def edit_session(self, command: Mapping[str, Any]) -> Outcome:
        session_id = _key(command.get("session_id"), "session_id")
        state = self._existing(f"session-{session_id}")
        clean = workspace.parse_session(command)
        return self._append(f"session-{session_id}", state["campaign_id"], _expected(command), command,
                            lambda _: [workspace.SessionEdited(**clean)])

    def retract(self, command: Mapping[str, Any]) -> Outcome:
        """Retract an event, named by its global position."""
        clean = parse_fields((Field("position", "Event", "int", minimum=1),
                              Field("reason", "Reason", "text", required=False, maximum=500)), command)
        target = self.store.get(clean["position"])
        if target is None:
            raise NotFound("no such event")
        stream = self.store.read_stream(target.stream)
        retracted = {v for r in stream if r.type == "EventRetracted" for v in r.event.versions}
        decided_with = [(r.version, r.type) for r in stream
                        if r.metadata.get("decision") == target.metadata.get("decision", target.version)]
        return self._append(target.stream, target.campaign_id, _expected(command), command,
                            lambda _: workspace.decide_retraction(target.type, target.version, decided_with,
                                                                  retracted, clean["reason"] or ""))

    # --- accounts and access --------------------------------------------------------

    def register_gm(self, command: Mapping[str, Any]) -> Outcome:
        from werkzeug.security import generate_password_hash

        clean = accounts.parse_signup(command)
        if self.db.execute("SELECT 1 FROM gms WHERE username = ?", [clean["username"]]).fetchone():
            raise Invalid({"username": "is taken"})
        gm_id = self.context.new_id()
        digest = generate_password_hash(clean["password"], method=self.context.password_method)
        return self._append(f"gm-{gm_id}", "", 0, command, lambda _: [accounts.GMRegistered(
            gm_id=gm_id, username=clean["username"], password_hash=digest)])

    def issue_api_token(self, command: Mapping[str, Any]) -> Outcome:
        clean = parse_fields((Field("label", "Label", "text", required=False, maximum=100),), command)
        token = secrets.token_urlsafe(32)
        token_id = self.context.new_id()
        outcome = self._append(f"gm-{self.context.actor}", "", None, command, lambda _: [accounts.ApiTokenIssued(
            token_id=token_id, token_hash=token_digest(token), label=clean["label"] or "")])
        return Outcome(outcome.stream, outcome.events, outcome.replayed, secret=token)

    def revoke_api_token(self, command: Mapping[str, Any]) -> Outcome:
        token_id = _key(command.get("token_id"), "token_id")
        if not self.db.execute("SELECT 1 FROM api_tokens WHERE token_id = ? AND gm_id = ?",
                               [token_id, self.context.actor]).fetchone():
            raise NotFound("no such token")
        return self._append(f"gm-{self.context.actor}", "", None, command,
                            lambda _: [accounts.ApiTokenRevoked(token_id=token_id)])

    def share_campaign(self, command: Mapping[str, Any]) -> Outcome:
        campaign_id = _key(command.get("campaign_id"), "campaign_id")
        state = self._existing(f"campaign-{campaign_id}")
        username = str(command.get("username") or "").strip()
        row = self.db.execute("SELECT id, username FROM gms WHERE username = ?", [username]).fetchone()
        gm = {"id": row[0], "username": row[1]} if row else None
        return self._append(f"campaign-{campaign_id}", campaign_id, None, command,
                            lambda _: accounts.decide_share(state, self.context.actor, gm))

    def unshare_campaign(self, command: Mapping[str, Any]) -> Outcome:
        campaign_id = _key(command.get("campaign_id"), "campaign_id")
        state = self._existing(f"campaign-{campaign_id}")
        gm_id = str(command.get("gm_id") or "")
        if self.context.actor != state["owner"] or gm_id not in state["co_gms"]:
            raise Refused("only the owner can remove a co-GM who has access")
        return self._append(f"campaign-{campaign_id}", campaign_id, None, command,
                            lambda _: [accounts.CoGMRemoved(gm_id=gm_id)])

    def issue_player_link(self, command: Mapping[str, Any]) -> Outcome:
        kind = command.get("kind")
        target = _key(command.get("target"), "target")
        if kind not in ("display", "recap"):
            raise Invalid({"kind": "must be display or recap"})
        table = "duels" if kind == "display" else "sessions"
        row = self.db.execute(f"SELECT campaign_id FROM {table} WHERE id = ?", [target]).fetchone()
        if row is None:
            raise NotFound(f"no such {'duel' if kind == 'display' else 'session'}")
        link_id = secrets.token_hex(8)
        return self._append(f"campaign-{row[0]}", row[0], None, command,
                            lambda _: [accounts.PlayerLinkIssued(link_id=link_id, kind=kind, target=target)])

    def revoke_player_link(self, command: Mapping[str, Any]) -> Outcome:
        link_id = _key(command.get("link_id"), "link_id")
        row = self.db.execute("SELECT campaign_id FROM player_links WHERE link_id = ?", [link_id]).fetchone()
        if row is None:
            raise NotFound("no such link")
        return self._append(f"campaign-{row[0]}", row[0], None, command,
                            lambda _: [accounts.PlayerLinkRevoked(link_id=link_id)])

    # --- duels -----------------------------------------------------------------------

    def start_duel(self, command: Mapping[str, Any]) -> Outcome:
        session_id = _key(command.get("session_id"), "session_id")
        session = self._existing(f"session-{session_id}")
        name = command.get("ruleset")
        if not isinstance(name, str) or name not in rules.RULESETS:
            raise Invalid({"ruleset": "choose one of " + ", ".join(rules.RULESETS)})
        module = rules.get(name)
        common = parse_fields(START_FIELDS, command)
        duelists = self._duelists(module, session["campaign_id"], command)
        duel_id = self.context.new_id()
        header = {"duel_id": duel_id, "campaign_id": session["campaign_id"], "session_id": session_id,
                  "stakes": common["stakes"] or "", "judge": common["judge"] or "",
                  "challenger": common["challenger"] or ""}
        setup = command.get("setup") if isinstance(command.get("setup"), dict) else command
        dice = self._dice({}, server_roll=True)
        return self._append(f"duel-{duel_id}", session["campaign_id"], 0, command,
                            lambda _: module.start(header, setup, duelists, dice))

    def _duelists(self, module, campaign_id: str, command: Mapping[str, Any]) -> list[dict]:
        """Snapshot each chosen character as the rules need them: stats and current points."""
        chosen = command.get("duelists")
        if not isinstance(chosen, list):  # a form: side_a / side_b hold character ids
            chosen = [{"character_id": cid, "side": side} for side in ("a", "b")
                      for cid in _as_list(command.get(f"side_{side}")) if cid]
        duelists, errors = [], {}
        for entry in chosen:
            if not isinstance(entry, dict) or entry.get("side") not in ("a", "b"):
                raise Invalid({"duelists": "each duelist needs a character_id and a side (a or b)"})
            row = self.db.execute("SELECT id, name, rank, stats FROM characters WHERE id = ? AND campaign_id = ?",
                                  [str(entry.get("character_id")), campaign_id]).fetchone()
            if row is None:
                errors[f"side_{entry['side']}"] = "choose a character of this campaign"
                continue
            if any(d["id"] == row[0] for d in duelists):  # the read models hold one row per duelist
                errors[f"side_{entry['side']}"] = "a character can take only one place in a duel"
                continue
            stats = loads(row[3]).get(module.NAME)
            duelists.append({"id": row[0], "name": row[1], "side": entry["side"], "rank": row[2],
                             "stats": stats, "current": self._current(module, row[0], stats)})
        for side in ("a", "b"):
            if not any(d["side"] == side for d in duelists) and f"side_{side}" not in errors:
                errors[f"side_{side}"] = "choose a duelist"
        if errors:
            raise Invalid(errors)
        return duelists

    def _current(self, module, character_id: str, stats: dict | None) -> dict:
        lost = dict(self.db.execute("SELECT track, lost FROM track_totals WHERE character_id = ?",
                                    [character_id]).fetchall())
        return {t["track"]: (stats or {}).get(t["max_stat"], 0) - (lost.get(t["track"], 0) if t["persists"] else 0)
                for t in module.TRACKS}

    def duel_command(self, command: Mapping[str, Any]) -> Outcome:
        duel_id = _key(command.get("duel_id"), "duel_id")
        version, state = self._state(f"duel-{duel_id}")
        if state is None:
            raise NotFound("no such duel")
        module = rules.get(state["ruleset"])
        cls = module.COMMANDS.get(command.get("type"))
        if cls is None:
            raise Invalid({"type": f"{module.TITLE} duels have no command {command.get('type')!r}"})
        parsed = parse_command(cls, command)
        typed = {name[5:]: value for name, value in vars(parsed).items()
                 if name.startswith("dice_") and value}
        dice = self._dice(typed, server_roll=bool(getattr(parsed, "server_roll", False)))

        def decide(current: dict | None) -> list:
            events = module.decide(current, parsed, dice)
            extra = dice.leftover()
            if extra:
                raise Refused("more dice were typed than the rules used: " +
                              "; ".join(f"{who}: {' '.join(map(str, v))}" for who, v in extra.items()),
                              field=f"dice_{next(iter(extra))}")
            return events

        return self._append(f"duel-{duel_id}", state["campaign_id"], _expected(command), command, decide)

    def _dice(self, typed: dict, server_roll: bool) -> Dice:
        rng = self.context.rng
        return Dice(typed, source=(lambda sides: rng.randint(1, sides)) if server_roll else None,
                    shuffle=lambda n: rng.sample(range(n), n))


START_FIELDS = (
    Field("stakes", "Stakes", "text", required=False, maximum=2000),
    Field("judge", "Judge", "text", required=False, maximum=200),
    Field("challenger", "Who challenged", "choice", required=False,
          choices=(("", "nobody in particular"), ("a", "Side A challenged"), ("b", "Side B challenged"))),
)


def token_digest(token: str) -> str:
    """How an API token is kept: its SHA-256, so a leaked database leaks no usable token."""
    import hashlib

    return hashlib.sha256(token.encode()).hexdigest()


def _key(value: Any, name: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 64 or not value.replace("_", "").isalnum():
        raise Invalid({name: "is required"} if not value else {name: "is not a valid id"})
    return value


def _expected(command: Mapping[str, Any]) -> int:
    value = command.get("expected_version")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise Invalid({"expected_version": "is required (the version the form was opened at)"}) from None
    if number < 0:
        raise Invalid({"expected_version": "must be 0 or more"})
    return number


def _as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


HANDLERS: dict[str, Callable[[Service, Mapping[str, Any]], Outcome]] = {
    "CreateCampaign": Service.create_campaign,
    "EditCampaign": Service.edit_campaign,
    "ChangeCampaignRules": Service.change_campaign_rules,
    "CreateCharacter": Service.create_character,
    "EditCharacter": Service.edit_character,
    "PlanSession": Service.plan_session,
    "EditSession": Service.edit_session,
    "RetractEvent": Service.retract,
    "StartDuel": Service.start_duel,
    "RegisterGM": Service.register_gm,
    "IssueApiToken": Service.issue_api_token,
    "RevokeApiToken": Service.revoke_api_token,
    "ShareCampaign": Service.share_campaign,
    "UnshareCampaign": Service.unshare_campaign,
    "IssuePlayerLink": Service.issue_player_link,
    "RevokePlayerLink": Service.revoke_player_link,
}
