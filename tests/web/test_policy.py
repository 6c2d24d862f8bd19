"""The access policy and command ids, attacked as a hostile user of a shared install would: a
command id belongs to whoever sent it and to the command it named, one table decides who may send
which command through which door, and first start is claimed by whoever holds the set-up code."""
import threading
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest

from tests.conftest import GM_ID, count_events, fixed_context, logged_in, register_gm
from tracker import create_app, rules
from tracker.application import policy, setup_code
from tracker.bootstrap.db import open_db
from tracker.application.handlers import HANDLERS
from tracker.application.services import REUSED

PASSWORD = "a long enough password"


def gms(app) -> list[str]:
    db = open_db(app.config["DATABASE"])
    try:
        return [row[0] for row in db.execute("SELECT username FROM gms ORDER BY username")]
    finally:
        db.close()


def campaign(client, name="Mine", **extra):
    return client.post("/api/commands", json={"type": "CreateCampaign", "name": name, "ruleset": "rocet", **extra})


def logged_in_as(client) -> str | None:
    with client.session_transaction() as session:
        return session.get("gm_id")


# --- command ids --------------------------------------------------------------------------------

def test_the_same_command_id_from_another_gm_runs_as_that_gms_own_command(app, client):
    mine = campaign(client, "Alice's", command_id="c-0001")
    register_gm(app, "gmrival", "rival")
    rival = logged_in(app, "gmrival")
    theirs = campaign(rival, "Bob's", command_id="c-0001")
    assert theirs.status_code == 201 and theirs.json["replayed"] is False
    assert theirs.json["id"] != mine.json["id"]
    assert theirs.json["events"][0]["data"]["name"] == "Bob's"
    assert [c["name"] for c in rival.get("/api/campaigns").json["campaigns"]] == ["Bob's"]
    identical = campaign(rival, "Alice's", command_id="c-0001x")
    again = campaign(client, "Alice's", command_id="c-0001")
    assert again.status_code == 200 and again.json["events"] == mine.json["events"]
    assert identical.json["id"] != mine.json["id"]


def test_a_command_id_reused_for_another_command_is_refused_never_replayed(app, client):
    first = campaign(client, "First", command_id="c-1").json
    before = count_events(app)
    for other in ({"type": "CreateCampaign", "name": "Second", "ruleset": "rocet"},
                  {"type": "EditCampaign", "campaign_id": first["id"], "name": "Renamed", "ruleset": "rocet",
                   "expected_version": 1},
                  {"type": "IssueApiToken", "label": "x"}):
        response = client.post("/api/commands", json={**other, "command_id": "c-1"})
        assert response.status_code == 422, other
        assert response.json["errors"] == {"command_id": REUSED}
        assert "events" not in response.json
    assert count_events(app) == before


def test_the_same_command_on_another_target_is_another_command(app, client):
    one = campaign(client, "One").json["id"]
    two = campaign(client, "Two").json["id"]
    edit = {"type": "EditCampaign", "name": "Same words", "ruleset": "rocet", "expected_version": 1,
            "command_id": "edit-1"}
    assert client.post("/api/commands", json={**edit, "campaign_id": one}).status_code == 201
    again = client.post("/api/commands", json={**edit, "campaign_id": one, "expected_version": 2})
    assert again.status_code == 200 and again.json["replayed"] is True
    elsewhere = client.post("/api/commands", json={**edit, "campaign_id": two})
    assert elsewhere.status_code == 422 and elsewhere.json["errors"] == {"command_id": REUSED}


def test_a_command_id_longer_than_64_characters_is_refused(app, client):
    before = count_events(app)
    response = campaign(client, command_id="x" * 65)
    assert response.status_code == 422 and "command_id" in response.json["errors"]
    assert count_events(app) == before
    assert campaign(client, command_id="x" * 64).status_code == 201


def test_an_anonymous_setup_with_a_gms_command_id_never_logs_in_as_that_gm(app, client, anonymous):
    app.config["OPEN_SIGNUP"] = True
    token = client.post("/api/commands", json={"type": "IssueApiToken", "label": "bot", "command_id": "t-1"})
    assert token.json["stream"] == f"gm-{GM_ID}"
    response = anonymous.post("/setup", data={"username": "mallory", "password": PASSWORD, "command_id": "t-1"})
    assert response.status_code == 302
    assert logged_in_as(anonymous) not in (None, GM_ID)
    assert anonymous.get("/api/campaigns").status_code == 401


def test_a_resent_signup_logs_nobody_in(app, anonymous):
    app.config["OPEN_SIGNUP"] = True
    signup = {"username": "alice", "password": PASSWORD, "command_id": "signup-1"}
    assert app.test_client().post("/setup", data=signup).status_code == 302
    again = anonymous.post("/setup", data={**signup, "password": "another password entirely"})
    assert again.status_code in (302, 422) and logged_in_as(anonymous) is None
    other = anonymous.post("/setup", data={**signup, "username": "eve"})
    assert other.status_code == 422 and str(REUSED) in other.get_data(as_text=True)
    assert gms(app) == ["alice", "gm"]


def test_init_db_upgrades_an_old_log_and_its_command_ids_stay_with_their_gm(tmp_path):
    """A database from before scoped command ids: init-db indexes the ids its events carry, a GM's
    retry still replays, and another GM sending the same id gets a command of their own."""
    import sqlite3

    from tracker.eventstore import store
    from tracker import bootstrap
    from tracker.application.services import Context

    path = str(tmp_path / "old.db")
    old = sqlite3.connect(path)
    old.executescript(store.SCHEMA.split("CREATE TABLE IF NOT EXISTS commands")[0])
    # an event as an older Touché wrote it: metadata actor and command id, no principal or fingerprint
    old.execute("INSERT INTO events (stream, version, type, schema, data, metadata, command_id) VALUES"
                " ('campaign-old1', 1, 'CampaignCreated', 1, ?, ?, 'c-0001')",
                [store.dumps({"campaign_id": "old1", "name": "Old", "ruleset": "rocet", "notes": "", "owner": "gma"}),
                 store.dumps({"campaign_id": "old1", "actor": "gma", "command": "CreateCampaign",
                              "command_id": "c-0001", "decision": 1, "recorded_at": "2026-11-29T20:00:00+00:00"})])
    old.commit()
    old.close()
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t"})
    runner = app.test_cli_runner()
    assert runner.invoke(args=["init-db"]).exit_code == 0
    assert runner.invoke(args=["rebuild"]).exit_code == 0
    db = open_db(path)
    try:
        assert db.execute("SELECT principal, command_id FROM commands").fetchall() == [("gm:gma", "c-0001")]
        assert db.execute("PRAGMA user_version").fetchone()[0] == store.STORE_VERSION
        body = {"type": "CreateCampaign", "name": "Anything", "ruleset": "rocet", "command_id": "c-0001"}
        assert bootstrap.service(db, Context(actor="gma", door=policy.API)).handle(body).replayed
        theirs = bootstrap.service(db, Context(actor="gmb", door=policy.API, new_id=lambda: "new1")).handle(body)
        assert not theirs.replayed and theirs.key == "new1"
        with pytest.raises(Exception, match="command_id"):
            bootstrap.service(db, Context(actor="gma", door=policy.API)).handle({"type": "IssueApiToken", "command_id": "c-0001"})
    finally:
        db.close()


# --- one table, every door ----------------------------------------------------------------------

def test_the_policy_table_covers_every_command_and_refuses_the_rest():
    assert set(HANDLERS) <= set(policy.POLICY)
    duel_commands = {name for module in rules.RULESETS.values() for name in module.COMMANDS}
    assert not duel_commands & set(HANDLERS)
    assert all(policy.rule_for(name) is policy.POLICY[policy.DUEL_COMMAND] for name in duel_commands)
    consequences = {name for name, row in policy.POLICY.items() if row.doors == {policy.CONSEQUENCE}}
    assert consequences == {"AssignOwnerlessCampaigns"}  # no route reaches them: only a handler appends them
    assert set(policy.POLICY) - set(HANDLERS) == {policy.DUEL_COMMAND, policy.SEAT_CHOICE} | consequences
    assert policy.rule_for("DropEverything") is None
    for name, row in policy.POLICY.items():
        assert row.who <= set(policy.PRINCIPALS) and row.doors <= set(policy.DOORS), name
        assert policy.PLAYER_LINK not in row.who, f"a player link is read-only, yet may send {name}"


def test_a_logged_in_gm_can_never_register_gms_through_the_api(app, client):
    response = client.post("/api/commands", json={"type": "RegisterGM", "username": "sock", "password": PASSWORD})
    assert response.status_code == 403 and response.json["error"] == "forbidden"
    assert gms(app) == ["gm"]


@pytest.fixture
def duel(client):
    def made(body):
        response = client.post("/api/commands", json=body)
        assert response.status_code == 201, response.json
        return response.json["id"]

    campaign_id = made({"type": "CreateCampaign", "name": "Duels", "ruleset": "rocet"})
    a, b = (made({"type": "CreateCharacter", "campaign_id": campaign_id, "name": n, "rank": "pj",
                  "stats": {"rocet": {"des": "d8", "int": "d8", "pg_max": 10, "pm_max": 10, "weapons": "Sable | Espada | 2"}}}) for n in ("A", "B"))
    session = made({"type": "PlanSession", "campaign_id": campaign_id, "number": 1, "date": "2026-11-29",
                    "title": "t"})
    return made({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "weapon_type": "Espada",
                 "duelists": [{"character_id": a, "side": "a"}, {"character_id": b, "side": "b"}]})


def test_the_duel_action_route_takes_only_that_duels_commands(app, client, duel):
    before = count_events(app)
    for command, form in (("RegisterGM", {"username": "sock", "password": PASSWORD}),
                          ("CreateCampaign", {"name": "Sneaky", "ruleset": "rocet"}),
                          ("IssueApiToken", {"label": "sneaky"})):
        response = client.post(f"/duels/{duel}/do/{command}", data=form)
        assert response.status_code == 403, command
    assert client.post(f"/duels/{duel}/do/Explode", data={}).status_code == 422
    assert count_events(app) == before and gms(app) == ["gm"]
    played = client.post(f"/duels/{duel}/do/Yield", data={"side": "b", "expected_version": client.get(f"/api/duels/{duel}").json["version"]})
    assert played.status_code == 302 and count_events(app) == before + 1


def test_only_the_owner_shares_a_campaign_and_nobody_retracts_an_account(app, client):
    owned = campaign(client, "Shared").json["id"]
    register_gm(app, "gmco", "co")
    register_gm(app, "gmthird", "third")
    assert client.post("/api/commands", json={"type": "ShareCampaign", "campaign_id": owned,
                                              "username": "co"}).status_code == 201
    co = logged_in(app, "gmco")
    response = co.post("/api/commands", json={"type": "ShareCampaign", "campaign_id": owned, "username": "third"})
    assert response.status_code == 403
    registered = 1  # the GM's own GMRegistered is the log's first event
    response = co.post("/api/commands", json={"type": "RetractEvent", "position": registered, "expected_version": 2})
    assert response.status_code in (403, 404)


def test_the_web_never_acts_as_the_command_line(app):
    from tracker.web import service

    with app.test_request_context("/"), pytest.raises(ValueError):
        service(policy.COMMAND_LINE)


# --- first start --------------------------------------------------------------------------------

@pytest.fixture
def fresh(tmp_path):
    """An app on a database with no GM yet."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "fresh.db"), "SECRET_KEY": "t",
                       "WTF_CSRF_ENABLED": False, "SERVICE_CONTEXT": fixed_context()})


def test_first_start_needs_the_set_up_code(fresh, capsys):
    visitor = fresh.test_client()
    page = visitor.get("/setup")
    assert page.status_code == 200 and "Set-up code" in page.get_data(as_text=True)
    code = setup_code.read(fresh)
    assert code and code in capsys.readouterr().err
    import os
    import stat

    assert stat.S_IMODE(os.stat(setup_code.path_for(fresh)).st_mode) == 0o600
    for wrong in ({}, {"code": ""}, {"code": code[:-1] + ("y" if code.endswith("x") else "x")}):
        response = visitor.post("/setup", data={"username": "stranger", "password": PASSWORD, **wrong})
        assert response.status_code == 422
        assert "set-up code" in response.get_data(as_text=True)
    assert gms(fresh) == []
    response = visitor.post("/setup", data={"username": "owner", "password": PASSWORD, "code": code})
    assert response.status_code == 302 and logged_in_as(visitor)
    assert gms(fresh) == ["owner"] and not setup_code.read(fresh)
    assert fresh.test_client().get("/setup").headers["Location"].startswith("/login")


def test_open_signup_needs_no_code_once_a_gm_exists(fresh):
    fresh.config["OPEN_SIGNUP"] = True
    code, _ = setup_code.issue(fresh)
    assert fresh.test_client().post("/setup", data={"username": "first", "password": PASSWORD,
                                                    "code": "nope"}).status_code == 422
    assert fresh.test_client().post("/setup", data={"username": "first", "password": PASSWORD,
                                                    "code": code}).status_code == 302
    assert fresh.test_client().post("/setup", data={"username": "second", "password": PASSWORD}).status_code == 302
    assert gms(fresh) == ["first", "second"]


def test_the_command_line_prints_the_set_up_code_and_still_creates_gms(fresh):
    runner = fresh.test_cli_runner()
    result = runner.invoke(args=["setup-code", "--url", "http://127.0.0.1:5000"])
    assert f"http://127.0.0.1:5000/setup?code={setup_code.read(fresh)}" in result.output
    result = runner.invoke(args=["create-gm", "boss", "--password", PASSWORD])
    assert result.exit_code == 0 and gms(fresh) == ["boss"]
    assert "no set-up code" in runner.invoke(args=["setup-code"]).output


def test_six_simultaneous_first_start_posts_make_exactly_one_gm(tmp_path):
    from bench.server import Server

    path = str(tmp_path / "race.db")
    open_db(path).close()
    with Server(path, threads=6) as server:
        base = f"http://127.0.0.1:{server.port}"
        browsers = []
        for _ in range(6):
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
            form = opener.open(f"{base}/setup").read().decode()
            csrf = form.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
            browsers.append((opener, csrf))
        with open(tmp_path / "setup_code") as f:
            code = f.read().strip()
        start, answers = threading.Barrier(6), []

        def post(number, opener, csrf):
            body = urllib.parse.urlencode({"csrf_token": csrf, "code": code, "username": f"gm{number}",
                                           "password": PASSWORD}).encode()
            start.wait()
            try:
                answers.append(opener.open(f"{base}/setup", data=body).status)
            except urllib.error.HTTPError as error:
                answers.append(error.code)

        threads = [threading.Thread(target=post, args=(n, *b)) for n, b in enumerate(browsers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        server.stop()
        assert "Traceback" not in server.errors()
    db = open_db(path)
    try:
        assert db.execute("SELECT COUNT(*) FROM gms").fetchone()[0] == 1
        assert db.execute("SELECT COUNT(*) FROM events WHERE type = 'GMRegistered'").fetchone()[0] == 1
    finally:
        db.close()
    assert len(answers) == 6 and set(answers) <= {200}, answers  # every redirect followed to a page


# --- the documented table -----------------------------------------------------------------------

def policy_rows() -> list[str]:
    """The access-policy table as docs/security.md must show it, one Markdown row per command."""
    def listed(names, order):
        return ", ".join(name for name in order if name in names)

    return [f"| {name if name in (policy.DUEL_COMMAND, policy.SEAT_CHOICE) else f'`{name}`'} | {' '.join(row.streams)} | {listed(row.who, policy.PRINCIPALS)} | "
            f"{listed(row.doors, policy.DOORS)} | {row.note} |".replace("  |", " |")
            for name, row in policy.POLICY.items()]


def test_docs_security_shows_the_policy_table_as_the_code_has_it():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "security.md").read_text()
    section = text.split("## The access policy", 1)[1].split("\n## ", 1)[0]
    table = [line for line in section.splitlines() if line.startswith("|") and not line.startswith("|---")]
    documented = table[1:]  # after the header
    expected = policy_rows()
    assert documented == expected, "docs/security.md's policy table should read:\n" + "\n".join(expected)
    for heading in ("## Accounts and sessions", "## Imports and backups", "## Limits"):
        assert f"\n{heading}\n" in text
