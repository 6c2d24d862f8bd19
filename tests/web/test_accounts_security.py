"""Accounts and sessions under attack: where the login may send a browser, guessing passwords,
telling usernames apart by time, sessions that must end on the server, and the smaller hardening
(file modes, caching, first API token, player-link addresses, the demo's owner)."""
import os
import stat
import time
from urllib.parse import urlsplit

import pytest

from tests.conftest import FAST_HASH, GM_PASSWORD, count_events, logged_in, register_gm
from tracker import bootstrap, create_app
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker.projections.rebuild import rebuild
from tracker.application.services import Context
from tracker.eventstore.store import EventStore


def log_in(client, username="gm", password=GM_PASSWORD, next_=None, address="203.0.113.7"):
    url = "/login" + (f"?next={next_}" if next_ is not None else "")
    return client.post(url, data={"username": username, "password": password},
                       environ_base={"REMOTE_ADDR": address})


# --- where the login sends the browser -----------------------------------------------------

TRICKS = ["//evil.example/", "https://evil.example/", "/\\evil.example", "\\\\evil.example", "/\tevil.example",
          "/%09/evil.example", "/%5Cevil.example", "/\n/evil.example", "%2F%2Fevil.example", "/%2F/evil.example",
          "javascript:alert(1)", "http:/evil.example", " //evil.example", "/\x00/evil.example"]


@pytest.mark.parametrize("target", TRICKS)
def test_login_never_follows_next_to_another_site(app, target):
    from urllib.parse import quote

    response = log_in(app.test_client(), next_=quote(target, safe="/%:"))
    assert response.status_code == 302
    assert response.headers["Location"] == "/", target


def test_login_follows_next_within_the_site(app):
    response = log_in(app.test_client(), next_="/campaigns/abc?tab=log")
    assert response.headers["Location"] == "/campaigns/abc?tab=log"
    assert not urlsplit(response.headers["Location"]).netloc


# --- guessing passwords ------------------------------------------------------------------------

@pytest.fixture
def strict(app):
    """The app with low login limits, as an install could set them."""
    app.config.update(LOGIN_LIMIT_PER_ACCOUNT="3 per minute", LOGIN_LIMIT_PER_ADDRESS="5 per minute")
    return app


def test_failed_logins_to_one_account_are_throttled_from_any_address(strict):
    client = strict.test_client()
    for i in range(3):
        assert log_in(client, password="guess", address=f"198.51.100.{i}").status_code == 401
    blocked = log_in(client, address="198.51.100.99")  # even the right password, from elsewhere
    assert blocked.status_code == 429
    assert "Too many failed logins" in blocked.text and int(blocked.headers["Retry-After"]) > 0


def test_failed_logins_from_one_address_are_throttled_whatever_the_account(strict):
    client = strict.test_client()
    for i in range(5):
        assert log_in(client, username=f"someone{i}", password="guess").status_code == 401
    assert log_in(client).status_code == 429
    assert log_in(client, address="192.0.2.1").status_code == 302  # another address still logs in


def test_successful_logins_are_never_throttled(strict):
    for _ in range(10):
        assert log_in(strict.test_client()).status_code == 302


def test_the_limits_come_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TOUCHE_LOGIN_LIMIT_ACCOUNT", "2 per hour")
    monkeypatch.setenv("TOUCHE_LOGIN_LIMIT_ADDRESS", "7 per hour")
    monkeypatch.setenv("TOUCHE_RATELIMIT_STORAGE", "memory://")
    app = create_app({"DATABASE": str(tmp_path / "env.db"), "SECRET_KEY": "s"})
    assert app.config["LOGIN_LIMIT_PER_ACCOUNT"] == "2 per hour"
    assert app.config["LOGIN_LIMIT_PER_ADDRESS"] == "7 per hour"
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"


def test_an_unknown_username_takes_as_long_as_a_wrong_password(tmp_path):
    slow = "pbkdf2:sha256:300000"  # slow enough that a skipped hash check would show
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False, "SESSION_COOKIE_SECURE": False,
                      "SERVICE_CONTEXT": Context(password_method=slow)})
    db = open_db(app.config["DATABASE"])
    bootstrap.service(db, Context(password_method=slow)).handle({"type": "RegisterGM", "username": "gm",
                                                                          "password": GM_PASSWORD})
    db.close()
    client = app.test_client()
    log_in(client, username="nobody", password="warm-up")  # the dummy hash is made once

    def timed(username):
        start = time.perf_counter()
        assert log_in(client, username=username, password="wrong password").status_code == 401
        return time.perf_counter() - start

    # Interleaved, best of five: on a busy machine noise only ever adds time, so the minimum is the cost.
    pairs = [(timed("nobody"), timed("gm")) for _ in range(5)]
    unknown, wrong = min(p[0] for p in pairs), min(p[1] for p in pairs)
    assert 0.5 < unknown / wrong < 2, (unknown, wrong)


def change_password(client, current, api=False):
    fields = {"current_password": current, "new_password": "a brand new secret"}
    if api:
        return client.post("/api/commands", json={"type": "ChangePassword", **fields})
    return client.post("/settings/password", data=fields)


@pytest.mark.parametrize("api", [False, True], ids=["page", "api"])
def test_wrong_current_passwords_are_throttled_like_logins(strict, api):
    client = logged_in(strict)
    before = count_events(strict)
    for _ in range(3):
        assert change_password(client, "a wrong guess", api).status_code == 422
    blocked = change_password(client, GM_PASSWORD, api)  # the right one too, once past the limit
    assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) > 0
    assert "Too many wrong current passwords. Wait a few minutes, then try again." in blocked.text
    if api:
        assert blocked.get_json()["errors"] == {"current_password": blocked.get_json()["message"]}
    assert count_events(strict) == before
    assert log_in(strict.test_client(), password="guess").status_code == 429  # the same account's guesses


def test_right_current_passwords_are_never_throttled(strict):
    client = logged_in(strict)
    for _ in range(3):
        refused = client.post("/settings/password", data={"current_password": GM_PASSWORD, "new_password": "short"})
        assert refused.status_code == 422
    assert change_password(client, GM_PASSWORD).status_code == 302


# --- sessions end on the server --------------------------------------------------------------

def session_cookie(client) -> str:
    return client.get_cookie("session").value


def with_cookie(app, value):
    client = app.test_client()
    client.set_cookie("session", value)
    return client


def test_logout_ends_the_session_for_a_saved_copy_of_its_cookie(app):
    client = app.test_client()
    assert log_in(client).status_code == 302
    saved = session_cookie(client)
    assert with_cookie(app, saved).get("/").status_code == 200
    client.post("/logout")
    stolen = with_cookie(app, saved).get("/")
    assert stolen.status_code == 302 and "/login" in stolen.headers["Location"]


def test_logout_ends_only_that_session(app):
    laptop, phone = app.test_client(), app.test_client()
    log_in(laptop), log_in(phone)
    laptop.post("/logout")
    assert phone.get("/").status_code == 200


def test_log_out_everywhere_ends_every_session(app):
    laptop, phone = app.test_client(), app.test_client()
    log_in(laptop), log_in(phone)
    assert laptop.post("/settings/sessions/end").status_code == 302
    assert laptop.get("/").status_code == 302 and phone.get("/").status_code == 302
    assert log_in(app.test_client()).status_code == 302  # logging in again works


def test_changing_the_password_ends_every_other_session(app):
    laptop, phone = app.test_client(), app.test_client()
    log_in(laptop), log_in(phone)
    assert "Change your password" in laptop.get("/settings/password").text
    changed = laptop.post("/settings/password", data={"current_password": GM_PASSWORD,
                                                      "new_password": "a brand new secret"})
    assert changed.status_code == 302
    assert phone.get("/").status_code == 302  # the other device is logged out
    assert laptop.get("/").status_code == 200  # this browser stays in, on a new session
    assert log_in(app.test_client()).status_code == 401
    assert log_in(app.test_client(), password="a brand new secret").status_code == 302


def test_a_password_change_needs_the_current_password_and_appends_nothing_when_refused(app, client):
    before = count_events(app)
    refused = client.post("/settings/password", data={"current_password": "a wrong guess",
                                                      "new_password": "short"})
    assert refused.status_code == 422
    assert 'id="e-current_password">is not your current password<' in refused.text
    assert 'id="e-new_password">' in refused.text
    assert count_events(app) == before


def test_a_cookie_without_a_server_session_is_refused(app):
    client = app.test_client()
    with client.session_transaction() as session:
        session["gm_id"] = "gmtest"  # what a cookie held before sessions could be ended
    assert client.get("/").status_code == 302


def test_session_read_models_rebuild_identically(app):
    laptop, phone = app.test_client(), app.test_client()
    log_in(laptop), log_in(phone)
    phone.post("/logout")
    laptop.post("/settings/password", data={"current_password": GM_PASSWORD, "new_password": "a brand new secret"})
    laptop.post("/logout")
    db = open_db(app.config["DATABASE"])
    tables = ("session_generations", "ended_sessions", "gms")
    before = {t: db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables}
    assert before["ended_sessions"] and before["session_generations"] == [("gmtest", 1)]
    rebuild(db, EventStore(db))
    assert {t: db.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in tables} == before
    db.close()


def test_the_fold_forgets_ended_sessions_once_their_cookies_have_expired_anyway():
    from tracker.domain import accounts

    state = accounts.evolve(None, accounts.GMRegistered(gm_id="g", username="gm", password_hash="h"), 1)
    state = accounts.evolve(state, accounts.GMLoggedOut(session_id="old", ended_at="2026-01-01T00:00:00.000+00:00",
                                                        expires_at="2026-02-01T00:00:00.000+00:00"), 2)
    state = accounts.evolve(state, accounts.GMLoggedOut(session_id="new", ended_at="2026-03-01T00:00:00.000+00:00",
                                                        expires_at="2026-04-01T00:00:00.000+00:00"), 3)
    assert state["ended_sessions"] == {"new": "2026-04-01T00:00:00.000+00:00"}
    state = accounts.evolve(state, accounts.GMSessionsEnded(), 4)
    assert state["sessions_generation"] == 1 and state["ended_sessions"] == {}
    state = accounts.evolve(state, accounts.GMPasswordChanged(password_hash="h2"), 5)
    assert state["sessions_generation"] == 2 and state["password_hash"] == "h2"


def test_sessions_through_the_api(app, client):
    ended = client.post("/api/commands", json={"type": "EndSession", "session_id": "gmtest-session"})
    assert ended.status_code == 201 and ended.json["events"][0]["type"] == "GMLoggedOut"
    assert client.get("/").status_code == 302  # that was this client's session
    everywhere = client.post("/api/commands", json={"type": "EndAllSessions"})
    assert everywhere.json["events"][0]["type"] == "GMSessionsEnded"


# --- smaller hardening -------------------------------------------------------------------------

def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_secret_key_and_the_database_are_readable_by_their_owner_only(tmp_path):
    from tracker import _instance_secret

    old = os.umask(0o022)
    try:
        _instance_secret(str(tmp_path / "instance"))
        db = open_db(str(tmp_path / "instance" / "tracker.db"))
        bootstrap.service(db, Context(password_method=FAST_HASH)).handle({"type": "RegisterGM", "username": "gm",
                                                                          "password": GM_PASSWORD})
        files = [tmp_path / "instance" / name for name in ("secret_key", "tracker.db", "tracker.db-wal",
                                                          "tracker.db-shm")]
        assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
        db.close()
    finally:
        os.umask(old)


def test_logged_in_pages_and_the_new_token_page_are_never_cached(app, client, anonymous):
    for response in (client.get("/"), client.get("/settings"), client.post("/settings/tokens", data={"label": "x"}),
                     client.get("/api/campaigns")):
        assert response.headers["Cache-Control"] == "no-store", response.request.path
    assert "no-store" not in anonymous.get("/login").headers.get("Cache-Control", "")


def test_the_api_returns_a_new_token_once_and_it_works(app, client):
    answer = client.post("/api/commands", json={"type": "IssueApiToken", "label": "bot"})
    assert answer.status_code == 201 and answer.json["secret"]
    bot = app.test_client()
    assert bot.get("/api/campaigns", headers={"Authorization": f"Bearer {answer.json['secret']}"}).status_code == 200
    assert answer.json["secret"] not in str(answer.json["events"])  # the log keeps its hash only


def test_issue_token_on_the_command_line_prints_a_working_token(app, runner):
    result = runner.invoke(args=["issue-token", "gm", "my dice bot"])
    assert result.exit_code == 0, result.output
    token = result.output.strip()
    response = app.test_client().get("/api/campaigns", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    unknown = runner.invoke(args=["issue-token", "nobody"])
    assert unknown.exit_code != 0 and "no GM has the username" in unknown.output


def test_player_links_use_the_configured_base_url_never_the_host_header(app, client):
    app.config["BASE_URL"] = "https://touche.example"
    campaign = client.post("/api/commands", json={"type": "CreateCampaign", "name": "C", "ruleset": "rocet"}).json["id"]
    session = client.post("/api/commands", json={"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                                  "date": "2026-11-29", "title": "S"}).json["id"]
    client.post("/api/commands", json={"type": "IssuePlayerLink", "kind": "recap", "target": session})
    forged = app.test_client()
    with forged.session_transaction(base_url="http://evil.example") as cookie:
        cookie.update(gm_id="gmtest", session_id="s", generation=0)
    page = forged.get(f"/sessions/{session}", base_url="http://evil.example")
    assert page.status_code == 200
    assert "https://touche.example/play/" in page.text and "evil.example" not in page.text


def test_the_base_url_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TOUCHE_BASE_URL", "https://duels.example/")
    assert create_app({"DATABASE": str(tmp_path / "b.db"), "SECRET_KEY": "s"}).config["BASE_URL"] == \
        "https://duels.example"
    monkeypatch.delenv("TOUCHE_BASE_URL")
    monkeypatch.setenv("PORT", "8080")
    assert create_app({"DATABASE": str(tmp_path / "b.db"), "SECRET_KEY": "s"}).config["BASE_URL"] == \
        "http://127.0.0.1:8080"


def test_a_demo_seeded_before_any_gm_belongs_to_the_first_gm_to_register(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "d.db"), "SECRET_KEY": "t",
                      "WTF_CSRF_ENABLED": False, "SESSION_COOKIE_SECURE": False,
                      "SERVICE_CONTEXT": Context(password_method=FAST_HASH)})
    db = open_db(app.config["DATABASE"])
    campaign = demo.seed(db)
    db.close()
    register_gm(app, gm_id="first", username="first")
    register_gm(app, gm_id="second", username="second")
    owner, second = logged_in(app, "first"), logged_in(app, "second")
    assert owner.get(f"/campaigns/{campaign}").status_code == 200
    assert second.get(f"/campaigns/{campaign}").status_code == 404
    refused = second.post("/api/commands", json={"type": "EditCampaign", "campaign_id": campaign, "name": "Mine",
                                                 "ruleset": "rocet", "expected_version": 1})
    assert refused.status_code == 404
    db = open_db(app.config["DATABASE"])
    before = db.execute("SELECT * FROM campaign_access ORDER BY 1, 2").fetchall()
    assert before == [(campaign, "first", "owner")]
    rebuild(db, EventStore(db))
    assert db.execute("SELECT * FROM campaign_access ORDER BY 1, 2").fetchall() == before
    db.close()


def test_a_demo_seeded_after_a_gm_exists_is_that_gms(app):
    db = open_db(app.config["DATABASE"])
    campaign = demo.seed(db)
    assert db.execute("SELECT owner FROM campaigns WHERE id = ?", [campaign]).fetchone()[0] == "gmtest"
    db.close()
    register_gm(app, gm_id="second", username="second")
    assert logged_in(app, "second").get(f"/campaigns/{campaign}").status_code == 404
