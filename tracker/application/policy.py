"""The access policy: which principal may issue which command, on which stream, through which door.

One table, ``POLICY``, one row per command type (a duel's own commands share the row
``DUEL_COMMAND``). ``Service`` checks every command against it, whatever route brought it: the
door as the command comes in, and who may write to the stream inside the write transaction, so
what it reads (the campaign's owner, whether any GM exists yet) cannot change before the append.
A command type missing from the table is refused. Adding a command means adding its row here.

An API token may be scoped (``Scope``): a read-only token is in no row, so it sends nothing and
only reads; a token for one campaign sends only the rows that name ``CAMPAIGN_TOKEN``, on that
campaign's streams, and reads only that campaign (``may_read``): any other is not found.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Protocol

from tracker.domain.errors import Denied, Forbidden, NotFound
from tracker.projections import queries
from tracker.rules.base import Invalid
from tracker.rules.duel import chosen_on_seats
from tracker.rules.text import join, t


class Context(Protocol):
    """What the policy reads of who is acting (``tracker.application.services.Context`` is one)."""

    actor: str
    door: str
    open_signup: bool
    setup_code_ok: bool
    seat: str  # the seat link's id, when a player's seat is acting
    scope: "Scope"  # what the API token acting may do (an unscoped token, a page or the CLI: ``FULL``)


@dataclass(frozen=True)
class Scope:
    """What an API token may do: everything its GM may (the default), or only read, and/or only
    in one campaign. Kept in the token's own event (``ApiTokenIssued``)."""

    read_only: bool = False
    campaign_id: str = ""  # "" for every campaign the GM may open


FULL = Scope()

# Who acts.
ANONYMOUS = "anonymous visitor"
GM = "logged-in GM"  # any GM; on an account stream only their own
OWNER = "campaign owner"
CO_GM = "co-GM"
PLAYER_LINK = "player link"  # a table display or player recap link: read-only, issues nothing
SEAT = "player seat"  # a player's seat link: their own duelist's choices, nothing else
COMMAND_LINE = "command line"
TOUCHE = "Touché itself"  # what the install decides as a consequence of another command, never from outside
STRANGER = "stranger"  # a GM with no part in the campaign: it does not exist for them
CAMPAIGN_TOKEN = "one-campaign token"  # an API token limited to one campaign: that campaign's commands only
READ_ONLY_TOKEN = "read-only token"  # an API token that only reads: in no row, it sends nothing
PRINCIPALS = (ANONYMOUS, GM, OWNER, CO_GM, CAMPAIGN_TOKEN, READ_ONLY_TOKEN, PLAYER_LINK, SEAT, COMMAND_LINE, TOUCHE)

# Where a command comes in.
SETUP_PAGE = "set-up page"  # /setup
PAGES = "GM pages"  # the forms whose route fixes the command type
DUEL_PAGE = "duel action route"  # /duels/<id>/do/<command>: the type comes from the URL
API = "JSON API"  # POST /api/commands: the type comes from the body
SEAT_PAGE = "seat page"  # /seat/<token>/do/<command>: a player's seat
CONSEQUENCE = "consequence"  # appended by a handler after another command's events, in its transaction
DOORS = (SETUP_PAGE, PAGES, DUEL_PAGE, API, SEAT_PAGE, COMMAND_LINE, CONSEQUENCE)

DUEL_COMMAND = "a duel's own command"  # every ruleset's commands (Play, Strike, Insult…)
SEAT_CHOICE = "a duelist's own choice"  # the few a ruleset lets a seat send (ChooseCard, Discard…)


@dataclass(frozen=True)
class Rule:
    """Who may issue one command, on which kinds of stream, through which doors."""

    streams: tuple[str, ...]
    who: frozenset[str]
    doors: frozenset[str]
    note: str = ""


def rule(streams: str, who: set[str], doors: set[str], note: str = "") -> Rule:
    return Rule(tuple(streams.split()), frozenset(who), frozenset(doors), note)


TEAM = {OWNER, CO_GM, CAMPAIGN_TOKEN, COMMAND_LINE}
EVERYWHERE = {PAGES, API, COMMAND_LINE}

POLICY: dict[str, Rule] = {
    "RegisterGM": rule("gm", {ANONYMOUS, COMMAND_LINE}, {SETUP_PAGE, COMMAND_LINE},
                       "anonymous only on first start (with the set-up code) or while signup is open"),
    "AssignOwnerlessCampaigns": rule("campaign", {TOUCHE}, {CONSEQUENCE},
                                     "when the first GM registers, campaigns nobody owns (the demo) become theirs"),
    "ChangePassword": rule("gm", {GM, COMMAND_LINE}, {PAGES, API, COMMAND_LINE},
                           "on the GM's own account, with the current password; ends every session"),
    "EndSession": rule("gm", {GM}, {PAGES, API}, "logging out: ends that one browser session"),
    "EndAllSessions": rule("gm", {GM, COMMAND_LINE}, {PAGES, API, COMMAND_LINE},
                           "log out everywhere: ends every session of the GM's own account"),
    "ChooseLanguage": rule("gm", {GM}, {PAGES, API}, "on the GM's own account: the language Touché speaks to them"),
    "IssueApiToken": rule("gm", {GM, COMMAND_LINE}, EVERYWHERE, "on the GM's own account"),
    "RevokeApiToken": rule("gm", {GM, COMMAND_LINE}, EVERYWHERE, "on the GM's own account"),
    "CreateCampaign": rule("campaign", {GM, COMMAND_LINE}, EVERYWHERE, "the GM becomes its owner"),
    "EditCampaign": rule("campaign", TEAM, EVERYWHERE),
    "ChangeCampaignRules": rule("campaign", TEAM, EVERYWHERE),
    "SetCampaignLanguage": rule("campaign", TEAM, EVERYWHERE, "what the campaign's players see, and its recaps"),
    "ShareCampaign": rule("campaign", {OWNER, COMMAND_LINE}, EVERYWHERE),
    "UnshareCampaign": rule("campaign", {OWNER, COMMAND_LINE}, EVERYWHERE),
    "IssuePlayerLink": rule("campaign", TEAM, EVERYWHERE),
    "RevokePlayerLink": rule("campaign", TEAM, EVERYWHERE),
    "CreateCharacter": rule("character", TEAM, EVERYWHERE),
    "EditCharacter": rule("character", TEAM, EVERYWHERE),
    "ImportCharacter": rule("character", TEAM, EVERYWHERE,
                            "a new character of the campaign, or the one the same export (or its page) made before"),
    "PlanSession": rule("session", TEAM, EVERYWHERE),
    "EditSession": rule("session", TEAM, EVERYWHERE),
    "CloseSession": rule("session", TEAM, EVERYWHERE, "the session's seats stop working; retracting it reopens"),
    "StartDuel": rule("duel", TEAM, EVERYWHERE),
    "NoteDuel": rule("duel", TEAM, EVERYWHERE, "the GM's note on a duel or one of its moments"),
    "TakeOverSeat": rule("duel", TEAM, EVERYWHERE, "the side a player's seat played is the GM's again"),
    "AdjustDuelTrack": rule("duel", TEAM, EVERYWHERE, "a running duel's track, by the tracks its ruleset offers"),
    "RetractEvent": rule("campaign character session duel", TEAM, EVERYWHERE, "on the retracted event's stream"),
    "RestoreRetraction": rule("campaign character session duel", TEAM, EVERYWHERE,
                              "on the retraction's stream; only while nothing stands after it"),
    "RecoverCharacter": rule("character", TEAM, EVERYWHERE),
    "AdjustTrack": rule("character", TEAM, EVERYWHERE),
    "RestParty": rule("character", TEAM, EVERYWHERE, "a rest on each resting character's stream, in one transaction"),
    DUEL_COMMAND: rule("duel", TEAM, {DUEL_PAGE, API, COMMAND_LINE},
                       "only the commands of that duel's ruleset; a seat command (a card, a skill, an insult, a "
                       "reaction) only for a side no live seat plays, in a duel whose players choose on their "
                       "phones (its legal actions offer only those sides and duelists); in a duel the GM records, "
                       "a seat only watches and the GM acts for every side"),
    SEAT_CHOICE: rule("duel", {SEAT}, {SEAT_PAGE},
                      "only the ruleset's seat commands, for the seat's own duelist, in a running duel of the "
                      "seat's session, while neither the seat is revoked nor the session closed"),
}


# Who acts and through which door, as a refusal names them to the reader (the table above keeps
# the English names docs/security.md shows).
SAID = {ANONYMOUS: t("anonymous visitor"), GM: t("logged-in GM"), OWNER: t("campaign owner"), CO_GM: t("co-GM"),
        CAMPAIGN_TOKEN: t("one-campaign token"), READ_ONLY_TOKEN: t("read-only token"),
        PLAYER_LINK: t("player link"), SEAT: t("player seat"), COMMAND_LINE: t("command line"),
        TOUCHE: t("Touché itself"), STRANGER: t("stranger"), SETUP_PAGE: t("set-up page"), PAGES: t("GM pages"),
        DUEL_PAGE: t("duel action route"), API: t("JSON API"), SEAT_PAGE: t("seat page"),
        CONSEQUENCE: t("consequence")}


def _said(name: str):
    return SAID.get(name, name)


def rule_for(kind: str, door: str = "") -> Rule | None:
    """The command's row, or None when the table does not list it (and so it is refused). Through a
    seat's door, a ruleset's seat command is a duelist's own choice."""
    from tracker import rules

    if door == SEAT_PAGE and any(kind in getattr(module, "SEAT_COMMANDS", {}) for module in rules.RULESETS.values()):
        return POLICY[SEAT_CHOICE]
    if kind in POLICY:
        return POLICY[kind]
    if any(kind in module.COMMANDS for module in rules.RULESETS.values()):
        return POLICY[DUEL_COMMAND]
    return None


def is_duel_command(found: Rule) -> bool:
    """True for the rows of a duel's own commands (typed by the duel's ruleset)."""
    return found is POLICY[DUEL_COMMAND] or found is POLICY[SEAT_CHOICE]


def principal_of(context: Context) -> str:
    """Who the context acts as, before any campaign is looked at."""
    if context.door == COMMAND_LINE:
        return COMMAND_LINE
    if context.door == CONSEQUENCE:
        return TOUCHE
    if context.door == SEAT_PAGE:
        return SEAT
    return GM if context.actor else ANONYMOUS


def scope_of(context: Context) -> str:
    """The principal a command id belongs to: one GM, one seat, the anonymous visitor, or the command line."""
    principal = principal_of(context)
    if principal == SEAT:
        return f"seat:{context.seat}"
    return f"gm:{context.actor}" if principal == GM else principal


def check_door(kind: str, context: Context) -> Rule:
    """Refuse a command the table does not list, or one that came through a door it may not use."""
    found = rule_for(kind, context.door)
    if found is None:
        raise Invalid({"type": t("unknown command {command}", command=repr(kind))})
    if context.door not in found.doors:
        raise Denied(t("{command} cannot be sent through the {door}", command=kind, door=_said(context.door)))
    _check_token(context, found, kind)
    return found


def _scope(context: Context) -> Scope:
    """The scope of the API token acting; ``FULL`` for everyone else (a token scopes only its GM)."""
    if principal_of(context) != GM:
        return FULL
    return getattr(context, "scope", None) or FULL


def _check_token(context: Context, found: Rule, kind: str) -> None:
    """A read-only token sends nothing; a one-campaign token only the rows naming it."""
    scope = _scope(context)
    if scope.read_only:
        raise Denied(t("this API token is read-only: it reads, and sends no command ({command})", command=kind))
    if scope.campaign_id and CAMPAIGN_TOKEN not in found.who:
        raise Denied(t("this API token is for one campaign: it cannot send {command}", command=kind))


def in_scope(scope: Scope, campaign_id: str) -> bool:
    """True when a token of ``scope`` reaches the campaign (every one, unless it is for one)."""
    return not scope.campaign_id or campaign_id == scope.campaign_id


def may_read(db, gm_id: str, campaign_id: str, scope: Scope = FULL) -> bool:
    """True when the GM owns or co-GMs the campaign (or it belongs to the whole instance), and the
    token reading, if it is for one campaign, is for this one: else the campaign does not exist."""
    return in_scope(scope, campaign_id) and role_in(db, gm_id, campaign_id) != STRANGER


def may_scope(db, gm_id: str, campaign_id: str) -> bool:
    """True when the GM may make a token for the campaign: one they may open."""
    return role_in(db, gm_id, campaign_id) not in (None, STRANGER)


def check_stream(db, context: Context, kind: str, stream: str, campaign_id: str, creating: bool,
                 fields: Mapping[str, Any] | None = None) -> None:
    """Refuse the write unless the table lets this principal write this command to this stream.
    Runs inside the append's write transaction. ``fields``: what a duel's command says (a seat's
    command is checked against the side it speaks for)."""
    found = check_door(kind, context)
    category = stream.split("-", 1)[0]
    if category not in found.streams:
        raise Forbidden(t("{command} cannot write to a {stream}", command=kind, stream=category))
    principal = principal_of(context)
    if principal in (COMMAND_LINE, TOUCHE):
        return
    if principal == SEAT:
        _check_seat(db, context.seat, kind, stream, fields or {})
        return
    if principal == ANONYMOUS:
        if ANONYMOUS not in found.who:
            raise Denied(t("log in first"))
        _check_signup(db, context)
        return
    if category == "gm":
        if GM not in found.who or stream != f"gm-{context.actor}":
            raise Forbidden(t("not your account"))
        return
    if not in_scope(_scope(context), campaign_id):
        raise NotFound(t("no such campaign"))
    role = role_in(db, context.actor, campaign_id)
    if role is None:
        if creating and stream == f"campaign-{campaign_id}" and GM in found.who:
            return
        raise NotFound(t("no such campaign"))
    if role == STRANGER:
        raise Forbidden(t("no such campaign"))
    if role not in found.who and GM not in found.who:  # any GM may try: the stream's version answers
        allowed = join([_said(name) for name in PRINCIPALS if name in found.who and name != COMMAND_LINE],
                       " / ")
        raise Denied(t("a {role} cannot send {command}: only the {allowed} can", role=_said(role), command=kind,
                       allowed=allowed))
    if found is POLICY[DUEL_COMMAND]:
        _check_not_seated(db, kind, stream, fields or {})


def check_named(db, context: Context, command: Any) -> None:
    """Before anything reads what a GM's command names, each id it names must be something in a
    campaign the GM may open: another GM's duel, character, session, event or player link is
    answered exactly as one that does not exist (a 404), so no refusal tells that it exists, nor
    what it is (its ruleset, its fields). Who may write is still ``check_stream``'s to say."""
    found = rule_for(command.kind, context.door)
    if principal_of(context) != GM or found is None or "gm" in found.streams:  # an account's own session_id…
        return
    from tracker.domain.errors import no_such

    for name, value in _named(command):
        if not isinstance(value, str | int) or isinstance(value, bool) or value == "":
            continue
        campaign_id = (queries.campaign_of_link(db, value) if name == "link_id"
                       else queries.campaign_of(db, name, value))
        if campaign_id == "":  # an event of no campaign (the GM's own account): the command says what it may do
            continue
        if campaign_id is None or role_in(db, context.actor, campaign_id) in (None, STRANGER) \
                or not in_scope(_scope(context), campaign_id):
            raise NotFound(no_such(name.removesuffix("_id")))


def _named(command: Any):
    """The (kind, id) pairs a command names: its fields called as ``queries.CAMPAIGN_OF``'s ids, a
    player link's target, and a link to revoke."""
    for name in queries.CAMPAIGN_OF:
        if name != "stream" and hasattr(command, name):
            yield name, getattr(command, name)
    if type(command).__name__ == "IssuePlayerLink":
        yield ("duel_id" if command.link_kind == "display" else "session_id"), command.target
    if hasattr(command, "link_id"):
        yield "link_id", command.link_id


def _check_seat(db, link_id: str, kind: str, stream: str, fields: Mapping[str, Any]) -> None:
    """A seat sends only its own duelist's choices, in a running duel of its session, while it is
    in force and the session open: read here, inside the write transaction, so a revocation or a
    closed session stops the very next tap."""
    from tracker import rules

    seat = queries.live_seat(db, link_id) if link_id else None
    if seat is None:
        raise Forbidden(t("this seat no longer works: the GM revoked it"))
    if queries.session_closed(db, seat["session_id"]):
        raise Forbidden(t("this session is closed: its seats no longer work"))
    state = queries.stream_state(db, stream)
    if state is None or state.get("session_id") != seat["session_id"]:
        raise Forbidden(t("a seat acts only in the duels of its own session"))
    if state.get("outcome"):
        raise Forbidden(t("this duel is over"))
    side = next((d["side"] for d in state["duelists"] if d["id"] == seat["character_id"]), None)
    if side is not None and side in state.get("taken_over", ()):
        raise Forbidden(t("the GM took over your seat in this duel"))
    speaks_for = getattr(rules.get(state["ruleset"]), "SEAT_COMMANDS", {}).get(kind)
    if side is None or speaks_for is None:
        raise Forbidden(t("a seat acts only in the duels its own character fights"))
    if speaks_for(state, fields) != side:
        raise Forbidden(t("a seat makes only its own duelist's choices"))
    duelist = fields.get("duelist")  # partners share a side: a seat names only its own character
    if duelist is not None and duelist != seat["character_id"]:
        raise Forbidden(t("a seat makes only its own duelist's choices"))


def seated_sides(db, state: Mapping[str, Any]) -> dict[str, str]:
    """The sides of a running duel a live seat plays (and the GM has not taken over), each with
    the name of a player who plays it: the GM does not make those sides' choices. In a duel whose
    choices the GM records, a seat only watches: the GM acts for every side."""
    if (state.get("outcome") or not chosen_on_seats(state)
            or queries.session_closed(db, state["session_id"])):
        return {}
    seated = {row["character_id"]: row["name"] for row in queries.seats_of_session(db, state["session_id"])}
    sides: dict[str, str] = {}
    for duelist in state["duelists"]:
        if duelist["id"] in seated and duelist["side"] not in state.get("taken_over", ()):
            sides.setdefault(duelist["side"], seated[duelist["id"]])
    return sides


def as_seated(db, state: Mapping[str, Any]) -> dict:
    """The duel's state as a live read of it stands now: with ``seated``, the sides a live seat
    plays (``seated_sides``), for a ruleset whose own secrets follow the seats (Rocèt hides from
    the GM only the hand of a side a player's seat plays)."""
    return {**state, "seated": sorted(seated_sides(db, state))}


def offered_to_the_gm(db, state: Mapping[str, Any], actions: list[dict]) -> list[dict]:
    """The legal actions less those this table would refuse the GM: a seated side's own choices
    (the player makes them on their phone until the GM takes the seat over)."""
    from tracker import rules

    speaks = getattr(rules.get(state["ruleset"]), "SEAT_COMMANDS", {})
    seated = seated_sides(db, state) if speaks else {}
    if not seated:
        return actions
    seats = {row["character_id"] for row in queries.seats_of_session(db, state["session_id"])}
    # A duelist is the player's when a live seat plays their side and it is theirs (partners share a side).
    players = {d["id"] for d in state["duelists"] if d["side"] in seated and d["id"] in seats}
    narrowed = (_for_the_gm(action, seated, players) if action["type"] in speaks else action for action in actions)
    return [action for action in narrowed if action is not None]


def _for_the_gm(action: dict, seated: Mapping[str, str], players: set[str]) -> dict | None:
    """A seat command as the GM may send it: its ``side`` and ``duelist`` choices less the ones a
    phone plays (a default among them moves to the first left); None when nothing is left."""
    if action.get("side") in seated:
        return None
    fields = dict(action.get("fields") or {})
    for name, taken in (("side", seated), ("duelist", players)):
        field = fields.get(name)
        if not field or not field.get("choices"):
            continue
        left = [choice for choice in field["choices"] if choice not in taken]
        if not left:
            return None
        if left != field["choices"]:
            fields[name] = {**field, "choices": left}
            if "default" in field and field["default"] not in left:
                fields[name]["default"] = left[0]
    return {**action, "fields": fields}


def _check_not_seated(db, kind: str, stream: str, fields: Mapping[str, Any]) -> None:
    """While a live seat plays a side, its seat commands are the player's alone: the GM sending
    one would silently replace the player's (sealed) choice. Taking over the seat hands them back."""
    from tracker import rules

    state = queries.stream_state(db, stream)
    if state is None:
        return  # the handler answers for a duel that does not exist
    speaks_for = getattr(rules.get(state["ruleset"]), "SEAT_COMMANDS", {}).get(kind)
    if speaks_for is None:
        return
    seated = seated_sides(db, state)
    if not seated:
        return
    duelist = fields.get("duelist")
    names = {d["id"]: d for d in state["duelists"]}
    if isinstance(duelist, str) and duelist in names:  # one of partners: only a seated one is the player's
        side = names[duelist]["side"]
        seats = {row["character_id"]: row["name"] for row in queries.seats_of_session(db, state["session_id"])}
        if side in seated and duelist in seats:
            raise Denied(_seated_refusal(seats[duelist]))
        return
    side = speaks_for(state, fields)
    if side in seated:
        raise Denied(_seated_refusal(seated[side]))


def _seated_refusal(name: str):
    return t("{name} plays this side from their seat; take over the seat to act for them", name=name)


def role_in(db, gm_id: str, campaign_id: str) -> str | None:
    """The GM's role in the campaign: OWNER, CO_GM, STRANGER, or None when there is no campaign.
    A campaign nobody owns (made on the command line, like the demo) is open to every GM as a co-GM."""
    owner = queries.campaign_owner(db, campaign_id)
    if owner is None:
        return None
    if not owner:
        return CO_GM
    if owner == gm_id:
        return OWNER
    return CO_GM if queries.shared_with(db, gm_id, campaign_id) else STRANGER


def _check_signup(db, context: Context) -> None:
    """An anonymous visitor registers on first start with the set-up code, or while signup is open."""
    first_start = not queries.has_gm(db)
    if first_start:
        if not context.setup_code_ok:
            raise Invalid({"code": t("is not this Touché's set-up code: it is printed in the console where "
                                     "Touché was started (or run `flask --app tracker setup-code`)")})
    elif not context.open_signup:
        raise Denied(t("signup is closed: ask a GM of this Touché, or use `flask --app tracker create-gm`"))
