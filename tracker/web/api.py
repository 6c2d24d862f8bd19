"""The JSON API, version 1 (``/api/v1``; the unversioned ``/api`` paths are the same routes, kept
as aliases): one endpoint takes any command; every projection is readable as JSON; a duel read
carries each step's numbers, the legal next actions and the assumptions; a duel, a campaign and a
table display can be followed by long-polling "changed since version N"."""
import threading
from collections import OrderedDict
from urllib.parse import quote, urlencode

from flask import Blueprint, Response, current_app, g, jsonify, request

from tracker.i18n import current_language

from tracker import rules
from tracker.application import policy
from tracker.domain.accounts import token_digest
from tracker.bootstrap.db import get_db
from tracker.application.commands.names import canonical
from tracker.domain.errors import NotFound
from tracker.projections import queries
from tracker.projections.duel_read import next_actions, read_and_state
from tracker.rules import json_schema, legal
from tracker.rules.base import Invalid
from tracker.rules.fields import LARGEST_INT
from tracker.rules.text import t
from tracker.backup.strictjson import BadJSON
from tracker.web import access, openapi, problems, service, streams
from tracker.web.inputs import int_arg, json_body
from tracker.web.longpoll import hint, requested_wait, wait_for
from tracker.web.player import open_link, shared_url, sign

bp = Blueprint("api", __name__)
VERSION = "v1"
PREFIX, OLD_PREFIX = f"/api/{VERSION}", "/api"


def init_app(app) -> None:
    """Serve the API under /api/v1, and the same routes under the old unversioned /api."""
    app.register_blueprint(bp, url_prefix=PREFIX, name="api_v1")
    app.register_blueprint(bp, url_prefix=OLD_PREFIX, name="api")


@bp.after_request
def _point_old_paths_to_v1(response):
    """An old unversioned path answers as before, naming its /api/v1 successor."""
    if request.blueprint == "api":
        # The path as the client sent it, percent-encoded: decoded, a %0a in it would break the header.
        successor = quote(PREFIX + request.path[len(OLD_PREFIX):], safe="/")
        links = [response.headers["Link"]] if response.headers.get("Link") else []
        response.headers["Link"] = ", ".join([*links, f'<{successor}>; rel="successor-version"'])
    return response


PAGE, LARGEST_PAGE = 100, 1000


def _paged(name: str, rows: list[dict], key: str = "id"):
    """One page of a list, in its order: at most ``limit`` rows (100 unless asked, 1 to 1000)
    after the row whose ``key`` is ``cursor``; when more follow, a ``Link: <…>; rel="next"``
    header (RFC 8288) to the next page and ``next_cursor`` in the body (else ``null``)."""
    limit = int_arg("limit", default=PAGE, minimum=1)
    if limit > LARGEST_PAGE:
        raise Invalid({"limit": t("at most {largest} a page", largest=LARGEST_PAGE)})
    cursor = request.args.get("cursor")
    start = 0
    if cursor:
        keys = [str(row[key]) for row in rows]
        if cursor not in keys:
            raise Invalid({"cursor": t("is not a row of this list: send the next_cursor of the page before")})
        start = keys.index(cursor) + 1
    page = rows[start:start + limit]
    more = start + limit < len(rows)
    next_cursor = str(page[-1][key]) if more and page else None
    response = jsonify({name: page, "next_cursor": next_cursor})
    if next_cursor is not None:
        response.headers["Link"] = _next_link(cursor=next_cursor, limit=limit)
    return response


def _next_link(**changed) -> str:
    """The ``rel="next"`` link: this request's path and query with ``changed`` set."""
    query = {**request.args.to_dict(), **{k: str(v) for k, v in changed.items()}}
    return f'<{quote(request.path, safe="/")}?{urlencode(query)}>; rel="next"'


@bp.post("/commands")
def commands():
    """Run one command; answer with the events it appended, the stream's version and, for a
    duel, its status and legal next actions (so a client needs no read between two commands)."""
    try:
        body = json_body()
    except BadJSON as bad:
        message = t("the body is {problem}", problem=str(bad))
        return problems.problem(422, "invalid", message, {"body": message})
    if not isinstance(body, dict):
        message = t("send one JSON object with a \"type\"")
        return problems.problem(422, "invalid", message, {"body": message})
    _refuse_unknown_fields(body)
    outcome = service(policy.API).handle(body)
    secret = {"secret": outcome.secret} if outcome.secret else {}  # a new API token, shown this once
    answer = {"stream": outcome.stream, "id": outcome.key, "version": _version_after(outcome), **secret,
              "replayed": outcome.replayed, "events": _as_the_api_sees(outcome.events), **_next_step(outcome)}
    link = next((r.data for r in outcome.events if r.type == "PlayerLinkIssued"), None)
    if link is not None:
        answer["url"] = _player_url(link)
    return answer, 200 if outcome.replayed else 201


def _version_after(outcome) -> int:
    """The stream's version once the command's events were appended (the last of its own events:
    a command may append to other streams after it)."""
    return max((r.version for r in outcome.events if r.stream == outcome.stream), default=outcome.version)


def _next_step(outcome) -> dict:
    """What a client needs for its next command without reading again: the stream's version now
    (``current_version``, the next ``expected_version``: the same as ``version`` unless the command
    was replayed and others logged since) and, for a duel, its legal next actions as its read gives
    them to the GM (``legal_actions``)."""
    db = get_db()
    current = {"current_version": queries.stream_version(db, outcome.stream) if outcome.stream else None}
    if not outcome.stream or not outcome.stream.startswith("duel-"):
        return current
    try:
        row, actions, state = next_actions(db, outcome.key, lambda state: policy.as_seated(db, state))
    except NotFound:  # a duel no more (its start retracted): its stream's version alone
        return current
    return {"current_version": row["version"], "status": row["status"],
            "legal_actions": policy.offered_to_the_gm(db, state, actions)}


def _refuse_unknown_fields(body: dict) -> None:
    """A field the command does not take is refused, naming it, before anything runs: never
    ignored (a ``"pubic": true`` typo would log a private note). The fields are the ones the
    OpenAPI description declares (``openapi.declared_fields``); the old names of ``RENAMED`` are
    read as their new ones first. A command the API cannot place (no such type, a duel not found
    or not the GM's) is left to the service, which answers for it."""
    kind = body.get("type")
    if not isinstance(kind, str):
        return
    body = canonical(body)
    declared = openapi.declared_fields(kind, body, ruleset=_ruleset_of_duel(body.get("duel_id")))
    if declared is None:
        return
    errors = {name: t("is not a field of {command}: remove it (see its description)", command=kind)
              for name in body if name not in declared}
    errors.update(_unknown_in_blocks(kind, body))
    duelists = body.get("duelists") if kind == "StartDuel" else None
    if isinstance(duelists, list) and any(isinstance(d, dict) and set(d) - {"character_id", "side"} for d in duelists):
        errors["duelists"] = t("each duelist takes only a character_id and a side")
    if errors:
        raise Invalid(errors)


def _unknown_in_blocks(kind: str, body: dict) -> dict:
    """The fields a stats block or a duel's set-up does not take, as their JSON Schemas say
    (``additionalProperties: false``): a stats block of no ruleset, a key no sheet or set-up has."""
    errors = {}
    blocks = {}
    if kind in ("CreateCharacter", "EditCharacter") and isinstance(body.get("stats"), dict):
        for name, block in body["stats"].items():
            module = rules.RULESETS.get(name)
            if module is None:
                errors[f"stats.{name}"] = t("is not a field of {command}: remove it (see its description)",
                                             command="stats")
            elif isinstance(block, dict):
                blocks[f"stats.{name}"] = (block, module.STATS)
    module = rules.RULESETS.get(body.get("ruleset")) if isinstance(body.get("ruleset"), str) else None
    if kind == "StartDuel" and module is not None and isinstance(body.get("setup"), dict):
        blocks["setup"] = (body["setup"], module.SETUP)
    for where, (block, fields) in blocks.items():
        known = {f.name for f in fields}
        for name in block:
            if name not in known:
                errors[f"{where}.{name}"] = t("is not a field of {command}: remove it (see its description)",
                                              command=where)
    return errors


def _ruleset_of_duel(duel_id) -> str | None:
    """The ruleset of a duel the GM may open (for another GM's, None: its answer is the 404)."""
    if not isinstance(duel_id, str):
        return None
    found = queries.duel_ruleset(get_db(), duel_id)
    if found is None or not access.may_open(g.gm["id"], found[0]):
        return None
    return found[1]


def _as_the_api_sees(events) -> list[dict]:
    """The events a command appended, each as the API may see it (``rules.event_seen_by``, the
    view the event pages use): no sealed choice, no hand dealt to a seat, no shuffled pile."""
    db, states = get_db(), {}
    for r in events:
        if r.stream.startswith("duel-") and r.stream not in states:
            states[r.stream] = queries.stream_state(db, r.stream)
    return [{"position": r.position, "stream": r.stream, "version": r.version, "type": r.type,
             "data": rules.event_seen_by(r.type, r.data, "api", states.get(r.stream))} for r in events]


PLAYER_PAGES = {"display": "player.display", "recap": "player.recap", "seat": "seats.show"}


def _player_url(link: dict) -> str:
    kind = link.get("link_kind", link.get("kind"))  # a replayed answer may hold an old event's shape
    return shared_url(PLAYER_PAGES[kind], token=sign(link["link_id"]))


@bp.get("/me")
def me():
    """Who this token acts for: the GM (id, username), the token (id, label, scope) and the
    campaigns it may open, each with the GM's role there (``owner`` or ``co-gm``)."""
    db = get_db()
    token = queries.token_in_force(db, token_digest(request.headers["Authorization"][7:].strip()))
    roles = {policy.OWNER: "owner", policy.CO_GM: "co-gm"}
    scope = access.scope()
    return {"gm": {"id": g.gm["id"], "username": g.gm["username"]},
            "token": {"id": token["id"], "label": token["label"], "read_only": scope.read_only,
                      "campaign_id": scope.campaign_id or None} if token else None,
            "campaigns": [{"id": c["id"], "name": c["name"], "ruleset": c["ruleset"],
                           "role": roles.get(policy.role_in(db, g.gm["id"], c["id"]), "co-gm")}
                          for c in _campaigns(db)]}


def _campaigns(db) -> list[dict]:
    """The campaigns the GM may open that this token reaches (``policy.in_scope``)."""
    return [c for c in queries.campaigns(db, g.gm["id"]) if policy.in_scope(access.scope(), c["id"])]


@bp.get("/rulesets")
def rulesets():
    """List every ruleset with its kinds and the JSON Schemas of its sheet and set-up."""
    return {"rulesets": [_ruleset(module) for module in rules.RULESETS.values()]}


@bp.get("/rulesets/<ruleset>")
def ruleset(ruleset):
    """One ruleset: its kinds and the JSON Schemas of its sheet and set-up."""
    module = rules.RULESETS.get(ruleset)
    if module is None:
        raise NotFound(t("no such ruleset"))
    return _ruleset(module)


def _ruleset(module) -> dict:
    return {"name": module.NAME, "title": module.TITLE, "kinds": dict(module.KINDS),
            "schemas": json_schema.ruleset_schemas(module)}


@bp.get("/campaigns")
def campaigns():
    """List the campaigns, a page at a time (``_paged``)."""
    return _paged("campaigns", _campaigns(get_db()))


@bp.get("/campaigns/<campaign_id>/characters")
def characters(campaign_id):
    """The campaign's characters by name, a page at a time."""
    db = get_db()
    queries.campaign(db, campaign_id)
    return _paged("characters", queries.characters(db, campaign_id))


@bp.get("/campaigns/<campaign_id>/sessions")
def sessions(campaign_id):
    """The campaign's sessions, the latest first, a page at a time."""
    db = get_db()
    queries.campaign(db, campaign_id)
    return _paged("sessions", queries.sessions(db, campaign_id))


@bp.get("/campaigns/<campaign_id>/duels")
def duels(campaign_id):
    """The campaign's duels, the latest first, a page at a time."""
    db = get_db()
    queries.campaign(db, campaign_id)
    return _paged("duels", queries.duels_of_campaign(db, campaign_id, limit=LARGEST_INT))


@bp.get("/campaigns/<campaign_id>")
def campaign(campaign_id):
    """A campaign with its characters, sessions and recent duels."""
    db = get_db()
    return {"campaign": queries.campaign(db, campaign_id),
            "characters": queries.characters(db, campaign_id),
            "sessions": queries.sessions(db, campaign_id),
            "duels": queries.duels_of_campaign(db, campaign_id, limit=1000),
            "position": queries.campaign_position(db, campaign_id)}


@bp.get("/campaigns/<campaign_id>/log")
def log(campaign_id):
    """A page of the campaign's log (newest first; pass ?before=position for the next page)."""
    db = get_db()
    queries.campaign(db, campaign_id)
    limit = int_arg("limit", default=50, minimum=1)
    if limit > LARGEST_PAGE:
        raise Invalid({"limit": t("at most {largest} a page", largest=LARGEST_PAGE)})
    page = queries.log_page(db, campaign_id, category=request.args.get("category") or None,
                            type_name=request.args.get("type") or None,
                            subject=request.args.get("subject") or None,
                            before=int_arg("before"), limit=limit)
    response = jsonify(page)
    if page["next_before"] is not None:
        response.headers["Link"] = _next_link(before=page["next_before"])
    return response


@bp.get("/characters/<character_id>")
def character(character_id):
    """A character sheet."""
    return queries.character_sheet(get_db(), character_id)


@bp.get("/sessions/<session_id>")
def session(session_id):
    """A session and its duels."""
    db = get_db()
    return {"session": queries.session(db, session_id), "duels": queries.duels_of_session(db, session_id)}


def _read(db, duel_id: str, audience: str, steps_since: int | None = None,
          history_before: int | None = None) -> dict:
    """The duel read, its legal actions as the policy lets the GM send them (a seated side's own
    choices are the player's): the same list the duel page draws."""
    read, whole = read_and_state(db, duel_id, audience, steps_since, history_before,
                                 lambda state: policy.as_seated(db, state))
    if audience == legal.GM:
        read["legal_actions"] = policy.offered_to_the_gm(db, whole, read["legal_actions"])
    return read


@bp.get("/duels/<duel_id>")
def duel(duel_id):
    """A duel as the GM sees it through the API: its row, state (nothing sealed), steps, legal next
    actions and assumptions; the latest history lines and their steps (``history_before`` pages back,
    ``earlier`` says from where); with ``steps_since``, every step after it. ETag and If-None-Match
    as ``_tagged_read`` says."""
    return _tagged_read(duel_id, legal.GM)


def _tagged_read(duel_id: str, audience: str):
    """A duel read with its ETag, or 304 and no body when ``If-None-Match`` names that ETag.

    The tag is derived from versions, never from the body, so a 304 costs three small lookups and
    no read: the duel stream's version and the campaign log's position (a seat taken or a link
    revoked changes what the GM is offered without moving the duel), the audience, the language
    (the assumptions are in words) and the ``steps_since`` or ``history_before`` asked for. Weak (``W/``): the same tag
    promises the same meaning, not the same bytes."""
    db = get_db()
    since, before = int_arg("steps_since"), int_arg("history_before")
    found = queries.duel_ruleset(db, duel_id)
    if found is None:
        queries.duel(db, duel_id)  # its 404
    version = queries.stream_version(db, f"duel-{duel_id}")
    position = queries.campaign_position(db, found[0])
    tag = f"duel-{duel_id}.v{version}.p{position}.{audience}.{current_language()}" + (
        "" if since is None else f".s{since}") + ("" if before is None else f".b{before}")
    if request.if_none_match.contains_weak(tag):
        response = Response(status=304)
    else:
        response = jsonify(_read(db, duel_id, audience, since, before))
    response.set_etag(tag, weak=True)
    response.vary.add("Accept-Language")
    response.headers["Cache-Control"] = "private, no-cache"  # keep it, but ask again every time
    return response


@bp.get("/duels/<duel_id>/changes")
def duel_changes(duel_id):
    """The duel once its version passed ``since`` (waiting up to ``wait`` seconds for it)."""
    return _follow_duel(duel_id, legal.GM)


@bp.get("/duels/<duel_id>/stream")
def duel_stream(duel_id):
    """The duel's changes as server-sent events, as the GM sees them through the API."""
    return _stream_duel(duel_id, legal.GM)


@bp.get("/campaigns/<campaign_id>/changes")
def campaign_changes(campaign_id):
    """The campaign's log entries after position ``since`` (waiting up to ``wait`` seconds for one)."""
    queries.campaign(get_db(), campaign_id)
    since, wait = int_arg("since", default=0), requested_wait()
    changed = wait_for(lambda: queries.campaign_position(get_db(), campaign_id) > since, wait, f"campaign:{campaign_id}")
    refused = _access_after_the_wait()
    if refused is not None:
        return refused
    entries = queries.log_since(get_db(), campaign_id, since) if changed else []
    # At most a page of entries: ``position`` is the last one sent, so the next call gets the rest.
    return hint({"changed": changed, "position": max([since] + [e["position"] for e in entries]), "entries": entries})


@bp.get("/campaigns/<campaign_id>/stream")
def campaign_stream(campaign_id):
    """The campaign's new log entries as server-sent events, ``id:`` the log position."""
    queries.campaign(get_db(), campaign_id)

    def changes(after):
        after = after or 0
        while True:
            entries = queries.log_since(get_db(), campaign_id, after)
            if not entries:
                return
            after = entries[-1]["position"]
            yield after, "entries", {"position": after, "entries": entries}

    return streams.event_stream(f"campaign:{campaign_id}", changes, streams.resume_point(), _still_allowed)


@bp.get("/display/<token>")
def display(token):
    """A duel as its table display shows it (a player link, no API token): the public view, and
    no action; with ``since``, once its version passed it (waiting up to ``wait`` seconds)."""
    duel_id = open_link(token, "display")["target"]
    if request.args.get("since") is None:
        return _tagged_read(duel_id, legal.TABLE)
    return _follow_duel(duel_id, legal.TABLE)


@bp.get("/display/<token>/stream")
def display_stream(token):
    """The duel's changes as server-sent events, as its table display shows them."""
    return _stream_duel(open_link(token, "display")["target"], legal.TABLE)


def _follow_duel(duel_id: str, audience: str):
    """The long-poll's answer: once the version passed ``since``, the read with only the steps
    after it (``steps_since`` = ``since`` unless asked otherwise; ``whole=true``: the whole read)."""
    stream = f"duel-{duel_id}"
    queries.duel(get_db(), duel_id)
    since, wait = int_arg("since", default=0), requested_wait()
    steps_since = None if _whole() else int_arg("steps_since", default=since)
    changed = wait_for(lambda: queries.stream_version(get_db(), stream) > since, wait, stream)
    refused = _access_after_the_wait()
    if refused is not None:
        return refused
    if not changed:
        return hint({"changed": False, "version": since, "duel": None})
    read = _followed_read(duel_id, audience, steps_since)
    return {"changed": True, "version": read["version"], "duel": read}


# The reads followers were last sent, by what they are drawn from: when a command wakes the
# twenty followers of a duel, they all ask for the same read (most were at the same version), and
# it is drawn once. The key holds everything a read depends on (as the ETag's: the duel's
# version, its campaign's log position, audience, language, steps_since), so a hit is the read
# itself, never an older one. Never mutated once drawn.
_drawn: "OrderedDict[tuple, dict]" = OrderedDict()
_drawn_lock = threading.Lock()
DRAWN = 256


def _followed_read(duel_id: str, audience: str, steps_since: int | None) -> dict:
    db = get_db()
    campaign = queries.duel_ruleset(db, duel_id)[0]
    key = (current_app.config["DATABASE"], duel_id, queries.stream_version(db, f"duel-{duel_id}"),
           queries.campaign_position(db, campaign), audience, current_language(), steps_since)
    with _drawn_lock:
        read = _drawn.get(key)
    if read is None:
        read = _read(db, duel_id, audience, steps_since)
        with _drawn_lock:
            _drawn[key] = read
            while len(_drawn) > DRAWN:
                _drawn.popitem(last=False)
    return read


def _whole() -> bool:
    """``whole=true`` asks a follow for the whole read (every step), not only what is new."""
    asked = request.args.get("whole", "false")
    if asked not in ("true", "false"):
        raise Invalid({"whole": t("is true or false")})
    return asked == "true"


def _stream_duel(duel_id: str, audience: str):
    """A duel's server-sent events: each ``duel`` event is ``{"version", "duel"}``, the read with only
    the steps after the version the client had (the first, with no ``Last-Event-ID`` nor ``since``,
    the whole read), ``id:`` its version."""
    stream = f"duel-{duel_id}"
    queries.duel(get_db(), duel_id)
    whole = _whole()

    def changes(after):
        if after is not None and queries.stream_version(get_db(), stream) <= after:
            return
        read = _followed_read(duel_id, audience, None if whole else after)
        yield read["version"], "duel", {"version": read["version"], "duel": read}

    return streams.event_stream(stream, changes, streams.resume_point(), _still_allowed)


def _access_after_the_wait():
    """A wait may outlast the access it began with (a link, a token or a co-GM revoked meanwhile):
    checked again, as at the start, before anything is answered."""
    if request.endpoint.endswith((".display", ".display_stream")):
        open_link(request.view_args["token"], "display")  # NotFound once revoked
        return None
    return access.guard()


def _still_allowed() -> bool:
    """For a stream, between two events: the access it began with still holds."""
    try:
        return _access_after_the_wait() is None
    except NotFound:  # a revoked link, a campaign no longer shared (Forbidden is a NotFound)
        return False


@bp.get("/openapi.json")
def openapi_description():
    """The OpenAPI 3.1 description of this API: every endpoint and every command."""
    return openapi.description()
