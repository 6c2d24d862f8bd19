"""Fuzzing every command through the JSON API, every form route, and the path and query string of
every GET route: random, malformed, huge and unknown values, wrong types, numbers beyond 64 bits,
lone surrogates and bytes that are not UTF-8, commands against finished or another GM's duels.
Whatever arrives, the answer is never a 5xx, and a command that is not accepted leaves the log
exactly as it was."""
import json
import logging
import random
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from bench.driver import hand_fields, random_value
from tests.conftest import GM_ID, logged_in, register_gm
from tracker import rules
from tracker.cli import demo
from tracker.domain import workspace
from tracker.bootstrap.db import open_db
from tracker.application.handlers import HANDLERS

FUZZ = dict(deadline=None, derandomize=True,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

# A duel of each real ruleset: its sample duellists under its usual sample set-up.
DUELS = {module.NAME: (module.samples.DUELISTS, module.samples.SETUPS[0]) for module in rules.shipped()}

scalars = (st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
           | st.sampled_from(["", " ", "0", "-1", "1e309", "<script>alert(1)</script>", "../../etc", "\x00", "ñ" * 3]))
junk = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=8)
huge = st.sampled_from([10_000, 200_000, 1_000_000]).map(lambda n: "<b>é</b>" * (n // 8))
# Each mutation: what to do, which key (by index into the command's keys), and a value.
mutations = st.lists(st.tuples(st.sampled_from(["set", "drop", "add", "huge", "target", "version"]),
                               st.integers(0, 50), junk, huge), max_size=3)

# A Foundry NPC's export (tests/fixtures/imports), for ImportCharacter: its fields are mutated as any command's.
IMPORTED = (Path(__file__).resolve().parents[1] / "fixtures" / "imports" / "goblin-warrior.json").read_text()


class World:
    """A GM's campaign with a live duel of each ruleset, finished duels, and another GM's duel."""

    def __init__(self, app):
        self.app, self.client = app, logged_in(app)
        self.db = open_db(app.config["DATABASE"])
        self.alarms = []  # what reached the last-resort handler: a check is missing somewhere
        alarm = logging.Handler(logging.ERROR)
        alarm.emit = self.alarms.append
        app.logger.addHandler(alarm)
        self.campaign, self.session = self.workspace(self.client)
        self.live = {name: self.start(name) for name in DUELS}
        self.finished = {name: self.finish(self.start(name)) for name in DUELS}
        register_gm(app, "gmother", "other")
        self.other = logged_in(app, "gmother")
        self.other_campaign, other_session = self.workspace(self.other)
        self.foreign = self.start("pirate", self.other, other_session, self.other_campaign)

    def api(self, body, client=None):
        response = (client or self.client).post("/api/commands", json=body)
        assert response.status_code == 201, response.json
        return response.json["id"]

    def workspace(self, client):
        campaign = self.api({"type": "CreateCampaign", "name": "Fuzz", "ruleset": "rocet"}, client)
        session = self.api({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                            "title": "Dawn"}, client)
        return campaign, session

    def start(self, ruleset, client=None, session=None, campaign=None):
        sheets, setup = DUELS[ruleset]
        ids = [self.api({"type": "CreateCharacter", "campaign_id": campaign or self.campaign,
                         **sheet}, client) for sheet in sheets]
        return self.api({"type": "StartDuel", "session_id": session or self.session, "ruleset": ruleset,
                         "duelists": [{"character_id": ids[0], "side": "a"}, {"character_id": ids[1], "side": "b"}],
                         "setup": setup}, client)

    def finish(self, duel_id):
        self.api({"type": "Yield", "duel_id": duel_id, "side": "a", "expected_version": self.version(duel_id)})
        return duel_id

    def version(self, duel_id):
        row = self.db.execute("SELECT version FROM stream_states WHERE stream = ?", [f"duel-{duel_id}"]).fetchone()
        return row[0] if row else 0

    def state(self, duel_id):
        row = self.db.execute("SELECT state FROM stream_states WHERE stream = ?", [f"duel-{duel_id}"]).fetchone()
        return json.loads(row[0])

    def live_duel(self, ruleset):
        """The ruleset's running duel, starting a fresh one when the last has ended."""
        if self.state(self.live[ruleset]).get("outcome"):
            self.live[ruleset] = self.start(ruleset)
        return self.live[ruleset]

    def duel_command(self, ruleset, rng):
        """A command of the ruleset built from its fields, as bench/driver.py plays them: often legal."""
        duel_id = self.live_duel(ruleset)
        state, module = self.state(duel_id), rules.get(ruleset)
        legal = module.actions(state)
        name = rng.choice(legal if legal and rng.random() < 0.8 else list(module.COMMANDS))
        command = {"type": name, "duel_id": duel_id, "expected_version": self.version(duel_id)}
        fields = module.COMMANDS[name].FIELDS
        for field in fields:
            command[field.name] = random_value(field, rng)
            if field.kind == "character":
                command[field.name] = rng.choice(state["duelists"])["id"]
        hand_fields(state, command, fields, rng)
        return command

    def targets(self):
        """Ids a mutated command may point at instead: finished, foreign, missing or malformed."""
        return [*self.finished.values(), self.foreign, self.other_campaign, "nope", "", "x" * 65, "../duel"]

    def log(self):
        """The log's size and last position: equal before and after means nothing was appended."""
        return self.db.execute("SELECT COUNT(*), COALESCE(MAX(position), 0) FROM events").fetchone()


@pytest.fixture
def world(app):
    world = World(app)
    yield world
    world.db.close()


def mutate(command, changes, targets=("nope",)):
    """Apply the drawn mutations to a copy of a (mostly valid) command."""
    command = dict(command)
    for kind, index, value, text in changes:
        keys = sorted(command) or ["type"]
        key = keys[index % len(keys)]
        if kind == "set":
            command[key] = value
        elif kind == "drop":
            command.pop(key, None)
        elif kind == "add":
            command[f"unknown_{index}"] = value
        elif kind == "huge":
            command[key] = text
        elif kind == "target":
            for name in ("duel_id", "campaign_id", "session_id", "character_id"):
                if name in command:
                    command[name] = targets[index % len(targets)]
        elif kind == "version":
            command["expected_version"] = value
    return command


def as_form(command):
    """The command as a browser would post it: text values, a list where a field repeats."""
    form = {}
    for key, value in command.items():
        if value is None or value is False:
            continue
        if isinstance(value, dict):
            for inner, item in value.items():
                form[f"{key}.{inner}"] = json.dumps(item) if isinstance(item, (dict, list)) else str(item)
        elif isinstance(value, list):
            form[key] = [json.dumps(v) if isinstance(v, (dict, list)) else str(v) for v in value]
        else:
            form[key] = "on" if value is True else str(value)
    return form


def check(world, send):
    """Send one request; never a 5xx, never the safety net, and when it is refused the log is as it was."""
    before = world.log()
    response = send()
    assert response.status_code < 500
    assert not world.alarms, [record.getMessage() for record in world.alarms]
    if response.status_code >= 400:
        assert world.log() == before, f"a refused request ({response.status_code}) appended"
    return response


@pytest.mark.parametrize("ruleset", list(DUELS))
@settings(max_examples=60, **FUZZ)
@given(seed=st.integers(0, 2**32), changes=mutations)
def test_duel_commands_through_the_api(world, ruleset, seed, changes):
    command = mutate(world.duel_command(ruleset, random.Random(seed)), changes, world.targets())
    check(world, lambda: world.client.post("/api/commands", json=command))


@pytest.mark.parametrize("ruleset", list(DUELS))
@settings(max_examples=40, **FUZZ)
@given(seed=st.integers(0, 2**32), changes=mutations, htmx=st.booleans())
def test_duel_commands_through_the_forms(world, ruleset, seed, changes, htmx):
    command = mutate(world.duel_command(ruleset, random.Random(seed)), changes, world.targets())
    url = f"/duels/{command.pop('duel_id', world.live[ruleset])}/do/{command.pop('type', 'Nothing')}"
    headers = {"HX-Request": "true"} if htmx else {}
    check(world, lambda: world.client.post(url, data=as_form(command), headers=headers))


def workspace_commands(world):
    """One plausible command of each workspace and account type, to mutate."""
    character = world.db.execute("SELECT id FROM characters WHERE campaign_id = ? LIMIT 1",
                                 [world.campaign]).fetchone()[0]
    duel = world.live["pirate"]
    position = world.db.execute("SELECT MAX(position) FROM events WHERE stream = ?", [f"duel-{duel}"]).fetchone()[0]
    version = lambda stream: world.db.execute("SELECT COALESCE(MAX(version), 0) FROM events WHERE stream = ?",
                                              [stream]).fetchone()[0]
    campaign = {"name": "Season <i>2</i>", "ruleset": "pirate", "notes": "n"}
    session = {"number": 2, "date": "2026-12-01", "title": "Night"}
    return {
        "CreateCampaign": campaign,
        "EditCampaign": {**campaign, "campaign_id": world.campaign,
                         "expected_version": version(f"campaign-{world.campaign}")},
        "ChangeCampaignRules": {"campaign_id": world.campaign, "ruleset": "pirate",
                                "insults": "Pulla | +1 | 1d6", "expected_version": version(f"campaign-{world.campaign}")},
        "CreateCharacter": {**demo.CHARACTERS[2], "campaign_id": world.campaign},
        "EditCharacter": {**demo.CHARACTERS[2], "character_id": character,
                          "expected_version": version(f"character-{character}")},
        "ImportCharacter": {"campaign_id": world.campaign, "json": IMPORTED},
        "PlanSession": {**session, "campaign_id": world.campaign},
        "CloseSession": {"session_id": world.session},
        "EditSession": {**session, "session_id": world.session,
                        "expected_version": version(f"session-{world.session}")},
        "RetractEvent": {"position": position, "reason": "misread", "expected_version": version(f"duel-{duel}")},
        "RestoreRetraction": {"position": position, "reason": "by mistake", "expected_version": version(f"duel-{duel}")},
        "RecoverCharacter": {"character_id": character, "ruleset": "pirate", "recovery": "rest"},
        "AdjustTrack": {"character_id": character, "ruleset": "pirate", "track": "PV", "amount": -1,
                        "reason": "a scratch", "expected_version": version(f"character-{character}")},
        "RestParty": {"session_id": world.session},
        "StartDuel": {"session_id": world.session, "ruleset": "pirate", "setup": DUELS["pirate"][1],
                      "duelists": [{"character_id": character, "side": "a"}, {"character_id": character, "side": "b"}]},
        "NoteDuel": {"duel_id": duel, "text": "A <b>note</b>", "about": 2, "public": True},
        "TakeOverSeat": {"duel_id": duel, "side": "a"},
        "AdjustDuelTrack": {"duel_id": duel, "character_id": world.db.execute(
            "SELECT character_id FROM duelists WHERE duel_id = ? AND side = 'a'", [duel]).fetchone()[0],
                            "track": "PV", "amount": -1, "reason": "a <i>scratch</i>",
                            "expected_version": version(f"duel-{duel}")},
        "RegisterGM": {"username": "newgm", "password": "long enough password"},
        "IssueApiToken": {"label": "fuzz"},
        "ChangePassword": {"current_password": "correct horse battery", "new_password": "another long password"},
        "EndSession": {"session_id": "gmtest-session"},
        "EndAllSessions": {},
        "RevokeApiToken": {"token_id": "gmothertok"},
        "ShareCampaign": {"campaign_id": world.campaign, "username": "other"},
        "UnshareCampaign": {"campaign_id": world.campaign, "gm_id": "gmother"},
        "IssuePlayerLink": {"kind": "display", "target": duel},
        "RevokePlayerLink": {"link_id": "nope"},
        "SetCampaignLanguage": {"campaign_id": world.campaign, "language": "es",
                                "expected_version": version(f"campaign-{world.campaign}")},
        "ChooseLanguage": {"language": "es"},
    }


@settings(max_examples=150, **FUZZ)
@given(kind=st.sampled_from(sorted(HANDLERS)), changes=mutations)
def test_workspace_commands_through_the_api(world, kind, changes):
    command = mutate({"type": kind, **workspace_commands(world)[kind]}, changes, world.targets())
    check(world, lambda: world.client.post("/api/commands", json=command))


@settings(max_examples=60, **FUZZ)
@given(body=junk | huge | st.binary(max_size=200), content_type=st.sampled_from(
    ["application/json", "text/plain", "application/x-www-form-urlencoded", ""]))
def test_any_body_through_the_api(world, body, content_type):
    data = body if isinstance(body, bytes) else json.dumps(body)
    check(world, lambda: world.client.post("/api/commands", data=data, content_type=content_type))


def form_routes(app):
    return sorted((rule.rule, rule.endpoint) for rule in app.url_map.iter_rules()
                  if "POST" in rule.methods and not rule.endpoint.startswith("api."))


FIELD_NAMES = sorted({f.name for f in (*workspace.CAMPAIGN_FIELDS, *workspace.CHARACTER_FIELDS,
                                       *workspace.SESSION_FIELDS)}
                     | {f"{m.NAME}.{f.name}" for m in rules.RULESETS.values() for f in m.STATS}
                     | {f.name for m in rules.RULESETS.values() for f in m.SETUP}
                     | {"ruleset", "side_a", "side_b", "expected_version", "reason", "next", "label",
                        "username", "password", "gm_id", "kind", "target", "stakes", "judge", "challenger",
                        "current_password", "new_password"})


@settings(max_examples=150, **FUZZ)
@given(route=st.integers(0, 100), args=st.integers(0, 100), known=st.booleans(),
       fields=st.dictionaries(st.sampled_from(FIELD_NAMES), scalars | huge, max_size=6),
       changes=mutations, htmx=st.booleans())
def test_every_form_route(world, route, args, known, fields, changes, htmx):
    rule, endpoint = form_routes(world.app)[route % len(form_routes(world.app))]
    url = rule
    for name in ("campaign_id", "character_id", "session_id", "duel_id", "token_id", "position", "command"):
        pool = {"campaign_id": [world.campaign], "character_id": [], "session_id": [world.session],
                "duel_id": list(world.live.values()), "token_id": ["gmothertok"], "position": ["1", "999999"],
                "command": [c for m in rules.RULESETS.values() for c in m.COMMANDS]}[name]
        if name == "character_id":
            pool = [world.db.execute("SELECT id FROM characters WHERE campaign_id = ? LIMIT 1",
                                     [world.campaign]).fetchone()[0]]
        if name not in ("position", "command"):
            pool = pool + world.targets()[:-3]  # path segments cannot be empty or hold a slash
        url = url.replace(f"<{name}>", str(pool[args % len(pool)])).replace(f"<int:{name}>",
                                                                          str(pool[args % len(pool)]))
    base = {}
    if known:
        commands = workspace_commands(world)
        base = next((commands[k] for k in commands if k.lower().startswith(endpoint.split(".")[1][:4])), {})
    form = as_form(mutate({**base, **fields}, changes, world.targets()))
    headers = {"HX-Request": "true"} if htmx else {}
    check(world, lambda: logged_in(world.app).post(url, data=form, headers=headers))


def same_data(left, right):
    try:
        return [json.loads(line) for line in left] == [json.loads(line) for line in right]
    except ValueError:
        return False


def damaged(lines, how, i, j, text):
    """The exported file with one kind of damage: each must be refused whole."""
    i, j = i % len(lines), j % len(lines)
    if how == "truncated":
        whole = "\n".join(lines)
        return whole[:i * len(whole) // len(lines) + j % 40]
    if how == "reordered":
        i, j = (i, j) if i != j else (i, (i + 1) % len(lines))
        lines = list(lines)
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "duplicated":
        lines = lines[:i + 1] + [lines[i]] + lines[i + 1:]
    elif how == "tampered":
        line = lines[i]
        at = j % len(line)
        lines = lines[:i] + [line[:at] + (text or "x") + line[at + 1:]] + lines[i + 1:]
    return "\n".join(lines) + "\n"


@settings(max_examples=60, **FUZZ)
@given(how=st.sampled_from(["truncated", "reordered", "duplicated", "tampered"]), i=st.integers(0, 10**6),
       j=st.integers(0, 10**6), text=st.text(min_size=1, max_size=3))
def test_a_damaged_backup_is_refused_whole_through_the_web(world, how, i, j, text):
    import io

    lines = world.client.get(f"/campaigns/{world.campaign}/backup.jsonl").get_data(as_text=True).splitlines()
    body = damaged(lines, how, i, j, text)
    if same_data(body.splitlines(), lines):
        return  # the "damage" changed no fact (a character replaced by itself, a space between fields)
    response = check(world, lambda: world.client.post("/import", data={"log": (io.BytesIO(body.encode()), "b.jsonl")},
                                                      content_type="multipart/form-data"))
    assert response.status_code == 422, how
    assert "Nothing was imported." in response.get_data(as_text=True)


# --- every GET route: hostile path parameters and query strings --------------------------------

# Every query-string parameter the app reads, found in its code so a new one is fuzzed too, and a
# few it does not read.
QUERY_NAMES = sorted({name for path in (Path(__file__).resolve().parents[2] / "tracker").rglob("*.py")
                      for name in re.findall(r'(?:args\.get|int_arg)\(\s*"(\w+)"', path.read_text())}
                     | {"per_page", "cursor", "after", "position", "from", "to", "filters", "q"})
# Values as they travel: ("text", s) is percent-encoded as UTF-8; ("escaped", s) is already
# percent-encoded (a lone surrogate's bytes); ("raw", b) goes into the address as raw bytes.
HOSTILE = ([("text", v) for v in ("0", "-1", "1", "2", "999999", str(2**63 - 1), str(2**63), str(2**64),
                                  str(10**30), "1e30", "1.5", "NaN", "-0", "+1", "٣", "²", "x" * 5000, "9" * 5000,
                                  "🤺", "𝔇𝔲𝔢𝔩", "", " ", "..", "<script>alert(1)</script>", "nope", "\x00")]
           + [("escaped", v) for v in ("%ED%A0%80", "%ED%B0%80x", "%F0%9F%98%80", "%FF", "%00", "%2F", "%")]
           + [("raw", v) for v in (b"\xed\xa0\x80", b"\xff\xfe", b"\xc3")])
# The sweep's share: what once reached a 500 (numbers beyond 64 bits, digits int() refuses, lone
# surrogates, bytes that are not UTF-8) and text that must pass (non-BMP, long, empty).
SWEEP = [("text", str(2**63)), ("text", str(10**30)), ("text", "9" * 5000), ("text", "1e30"), ("text", "²"),
         ("text", "-1"), ("text", "🤺"), ("text", "x" * 5000), ("text", ""), ("escaped", "%ED%A0%80"),
         ("escaped", "%FF"), ("raw", b"\xed\xa0\x80")]
query_values = (st.sampled_from(HOSTILE) | st.tuples(st.just("text"), st.text(max_size=12))
                | st.tuples(st.just("raw"), st.binary(max_size=6)))


def get_routes(app):
    """Every route a GET reaches, as its rule (``/events/<int:position>``)."""
    return sorted(rule.rule for rule in app.url_map.iter_rules() if "GET" in rule.methods)


def encoded(value) -> str:
    """A value as it appears in a URL, or raw bytes as a WSGI server hands them on (latin-1)."""
    how, text = value
    if how == "raw":
        return text.decode("latin-1")
    return text if how == "escaped" else quote(text, safe="")


def player_tokens(world):
    """A live display link, a live recap link and a revoked one, as the players' URLs carry them."""
    from tracker.web.player import sign

    world.api({"type": "IssuePlayerLink", "kind": "display", "target": world.live["pirate"]})
    world.api({"type": "IssuePlayerLink", "kind": "recap", "target": world.session})
    world.api({"type": "IssuePlayerLink", "kind": "display", "target": world.finished["pirate"]})
    links = [row[0] for row in world.db.execute("SELECT link_id FROM player_links ORDER BY rowid")]
    assert world.client.post("/api/commands", json={"type": "RevokePlayerLink", "link_id": links[-1]}).status_code == 201
    with world.app.app_context():
        return [sign(link) for link in links]


def import_job(world) -> str:
    """A campaign import of the GM's, finished (its page sends the GM to the new campaign)."""
    import time

    from tracker.web import import_jobs

    job = import_jobs.Job("fuzzjob", GM_ID, lines=10, done=20, campaign_id=world.campaign, ended_at=time.time())
    import_jobs._jobs[job.id] = job
    return job.id


def real_path_values(world, tokens):
    """For each path parameter, values that name something real (of this GM or another)."""
    character = world.db.execute("SELECT id FROM characters WHERE campaign_id = ? LIMIT 1",
                                 [world.campaign]).fetchone()[0]
    position = world.db.execute("SELECT MAX(position) FROM events").fetchone()[0]
    duels = [*world.live.values(), *world.finished.values(), world.foreign]
    return {"campaign_id": [world.campaign, world.other_campaign], "character_id": [character],
            "session_id": [world.session], "duel_id": duels, "position": ["1", str(position)],
            "version": ["1", "2"], "stream": [f"duel-{duels[0]}", f"campaign-{world.campaign}"],
            "token": tokens, "fmt": ["md", "html", "json"], "filename": ["style.css"],
            "job_id": [import_job(world)], "ruleset": [module.NAME for module in rules.shipped()]}


@pytest.fixture
def get_world(world):
    """The fuzzing world, with player links, real path values and a client nobody logged in with."""
    world.tokens = player_tokens(world)
    world.real = real_path_values(world, world.tokens)
    world.anonymous = world.app.test_client()
    return world


def fill(world, rule, choose) -> str:
    """The route's path with each parameter filled by ``choose(converter, name, pool of real values)``."""
    path = rule
    for converter, name in re.findall(r"<(?:(\w+):)?(\w+)>", rule):
        value = choose(converter, name, world.real[name])
        path = path.replace(f"<{converter}:{name}>" if converter else f"<{name}>", value or "x")
    return path


def hostile_for(converter, values=HOSTILE):
    """Hostile path values: any for a text parameter, number-like ones for an ``int`` (the others
    never match the route)."""
    return [encoded(v) for v in values if v[0] != "raw" and (converter != "int" or v[1][-1:].isdigit())]


def get(world, path, query, who="gm", htmx=False):
    """One GET: never a 5xx or the safety net, never an append, and an error always says why."""
    query_string = "&".join(f"{quote(name)}={encoded(value)}" for name, value in query.items())
    client = {"gm": world.client, "other gm": world.other, "anonymous": world.anonymous}[who]
    headers = {"HX-Request": "true"} if htmx else {}
    before = world.log()
    response = check(world, lambda: client.get(path, headers=headers, environ_overrides={"QUERY_STRING": query_string}))
    assert world.log() == before, f"GET {path} appended"
    if response.status_code >= 400 and path.startswith("/api/"):
        assert response.json["error"] and (response.json.get("message") or response.json.get("errors")), path
    elif response.status_code >= 400:
        assert response.get_data(), f"GET {path}: an error without a message"
    if response.mimetype == "text/event-stream":
        response.close()  # a follow's stream stays open for minutes: closed, as a browser leaves it
    return response


INT_NAMES = {name for path in (Path(__file__).resolve().parents[2] / "tracker").rglob("*.py")
             for name in re.findall(r'int_arg\(\s*"(\w+)"', path.read_text())}


def test_every_get_route_with_each_hostile_value_everywhere(get_world):
    """A sweep: each hostile value in every query parameter at once (as the GM, another GM or
    nobody, in turn), then in the text ones alone (so a refused number does not hide them), then
    in each path parameter."""
    world = get_world
    principals = ["gm", "anonymous", "other gm"]
    for rule in get_routes(world.app):
        # The first real value of each parameter; a recap route takes the recap link.
        first = lambda converter, name, pool: pool[1] if name == "token" and "recap" in rule else pool[0]
        real = fill(world, rule, first)
        for turn, value in enumerate(SWEEP):
            get(world, real, dict.fromkeys(QUERY_NAMES, value), principals[turn % len(principals)])
            get(world, real, dict.fromkeys(set(QUERY_NAMES) - INT_NAMES, value))
        for converter, name in re.findall(r"<(?:(\w+):)?(\w+)>", rule):
            for hostile in hostile_for(converter, SWEEP):
                get(world, fill(world, rule, lambda c, n, pool: hostile if n == name else first(c, n, pool)), {})


@settings(max_examples=300, **FUZZ)
@given(data=st.data(), real=st.booleans(),
       query=st.fixed_dictionaries({}, optional={name: query_values for name in QUERY_NAMES}),
       who=st.sampled_from(["gm", "other gm", "anonymous"]), htmx=st.booleans())
def test_every_get_route_with_hostile_paths_and_query_strings(get_world, data, real, query, who, htmx):
    """Any GET route, its path real or hostile, any mix of query parameters, as anyone."""
    world = get_world
    rule = data.draw(st.sampled_from(get_routes(world.app)), label="route")
    path = fill(world, rule, lambda converter, name, pool: data.draw(
        st.sampled_from(pool + ([] if real else hostile_for(converter))), label=name))
    get(world, path, query, who, htmx)
