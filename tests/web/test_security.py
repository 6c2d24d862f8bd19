"""Who may see and do what, checked over every route the app has: nobody without a login, no GM
in another's campaign, no player link that writes; every user's text comes back escaped, and
every answer carries the security headers."""
import re

import pytest

from tests.conftest import logged_in, register_gm
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker.web.access import OPEN_ENDPOINTS, SECURITY_HEADERS

XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def api(client, **body):
    response = client.post("/api/commands", json=body)
    assert response.status_code == 201, response.json
    return response.json


@pytest.fixture
def campaign(client):
    """The logged-in GM's campaign, every text in it an XSS attempt, with a duel under way."""
    campaign = api(client, type="CreateCampaign", name=XSS, ruleset="pirate", notes=XSS)["id"]
    fighters = [api(client, type="CreateCharacter", campaign_id=campaign,
                    **dict(demo.CHARACTERS[i], name=f"{XSS} {i}", player=XSS, notes=XSS))["id"] for i in (2, 3)]
    session = api(client, type="PlanSession", campaign_id=campaign, number=1, date="2026-11-29", title=XSS,
                  notes=XSS)["id"]
    duel = api(client, type="StartDuel", session_id=session, ruleset="pirate", stakes=XSS, judge=XSS,
               duelists=[{"character_id": fighters[0], "side": "a"}, {"character_id": fighters[1], "side": "b"}],
               setup={"kind": "sword", "sword_victory": "hits", "hits": 3})
    link = api(client, type="IssuePlayerLink", kind="display", target=duel["id"])["events"][0]["data"]["link_id"]
    return {"campaign_id": campaign, "character_id": fighters[0], "session_id": session, "duel_id": duel["id"],
            "position": duel["events"][0]["position"], "stream": f"duel-{duel['id']}", "version": 1,
            "command": "Yield", "fmt": "md", "link_id": link, "token_id": "nope"}


def routes(app, method):
    return sorted((rule.rule, rule.endpoint) for rule in app.url_map.iter_rules()
                  if method in rule.methods and rule.endpoint != "static")


def url(rule, ids):
    """The rule with its parameters filled from ``ids``; None if it takes one we have no value for."""
    names = re.findall(r"<(?:\w+:)?(\w+)>", rule)
    if any(name not in ids for name in names):
        return None
    return re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(ids[m.group(1)]), rule)


def log_size(app):
    db = open_db(app.config["DATABASE"])
    try:
        return db.execute("SELECT COUNT(*), MAX(position) FROM events").fetchone()
    finally:
        db.close()


def assert_secure(response):
    for name, value in SECURITY_HEADERS.items():
        assert response.headers.get(name) == value, (response.request.path, name)


def guarded(endpoint):
    return endpoint not in OPEN_ENDPOINTS and not endpoint.startswith("player.")


def test_every_route_without_a_login_redirects_to_it_or_refuses(app, anonymous, campaign):
    before = log_size(app)
    for method in ("GET", "POST"):
        for rule, endpoint in routes(app, method):
            target = url(rule, campaign)
            if target is None or not guarded(endpoint):
                continue
            response = anonymous.open(target, method=method)
            assert_secure(response)
            if rule.startswith("/api/"):
                assert response.status_code == 401 and response.json["error"] == "unauthorized", target
            else:
                assert response.status_code == 302, target
                assert response.headers["Location"].startswith("/login?next="), target
    assert log_size(app) == before


def test_the_api_takes_a_live_token_never_the_session_cookie(app, client, campaign):
    cookie_only = logged_in(app)
    del cookie_only.environ_base["HTTP_AUTHORIZATION"]
    assert cookie_only.get("/api/campaigns").status_code == 401
    assert cookie_only.post("/api/commands", json={"type": "CreateCampaign", "name": "x",
                                                   "ruleset": "pirate"}).status_code == 401
    wrong = app.test_client()
    wrong.environ_base["HTTP_AUTHORIZATION"] = "Bearer not-a-token"
    assert wrong.get("/api/campaigns").status_code == 401
    api(client, type="RevokeApiToken", token_id="gmtesttok")
    assert client.get("/api/campaigns").status_code == 401


def test_login_never_redirects_off_site(app, anonymous):
    from tests.conftest import GM_PASSWORD

    for target in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
        response = anonymous.post(f"/login?next={target}", data={"username": "gm", "password": GM_PASSWORD})
        assert response.status_code == 302
        assert not response.headers["Location"].startswith(("//", "http", "/\\")), target


def test_a_player_link_reads_but_can_never_write(app, anonymous, campaign):
    from tracker.web.player import sign

    with app.test_request_context():
        token = sign(campaign["link_id"])
    player_routes = [(rule.rule, rule.methods) for rule in app.url_map.iter_rules() if rule.endpoint.startswith("player.")]
    assert all(methods <= {"GET", "HEAD", "OPTIONS"} for _, methods in player_routes)
    before = log_size(app)
    display = url("/play/<token>/display", {"token": token})
    if any(rule == "/play/<token>/display" for rule, _ in player_routes):
        assert anonymous.get(display).status_code == 200
        assert anonymous.post(display).status_code == 405
    with_link = app.test_client()
    with_link.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    assert with_link.post("/api/commands", json={"type": "Yield", "duel_id": campaign["duel_id"], "side": "a",
                                                 "expected_version": 1}).status_code == 401
    assert with_link.post(f"/duels/{campaign['duel_id']}/do/Yield", data={"side": "a"}).status_code == 302
    assert log_size(app) == before


def test_one_gm_can_neither_read_nor_write_anothers_campaign(app, campaign):
    register_gm(app, "gmrival", "rival")
    rival = logged_in(app, "gmrival")
    before, tried = log_size(app), 0
    for method in ("GET", "POST"):
        for rule, endpoint in routes(app, method):
            target = url(rule, campaign)
            if target is None or not guarded(endpoint) or target == rule:
                continue
            response = rival.open(target, method=method, data={"expected_version": 1, "side": "a", "name": "x"})
            assert response.status_code == 404, (method, target, response.status_code)
            assert_secure(response)
            tried += 1
    assert tried >= 30
    for body in ({"type": "EditCampaign", "campaign_id": campaign["campaign_id"], "name": "mine", "ruleset": "pirate",
                  "expected_version": 1},
                 {"type": "CreateCharacter", "campaign_id": campaign["campaign_id"], "name": "spy", "rank": "pj"},
                 {"type": "PlanSession", "campaign_id": campaign["campaign_id"], "number": 2, "date": "2026-12-01",
                  "title": "t"},
                 {"type": "Yield", "duel_id": campaign["duel_id"], "side": "a", "expected_version": 1},
                 {"type": "RetractEvent", "position": campaign["position"] + 1, "expected_version": 1},
                 {"type": "ShareCampaign", "campaign_id": campaign["campaign_id"], "username": "rival"},
                 {"type": "IssuePlayerLink", "kind": "display", "target": campaign["duel_id"]},
                 {"type": "RevokePlayerLink", "link_id": campaign["link_id"]}):
        response = rival.post("/api/commands", json=body)
        assert response.status_code in (404, 422), (body["type"], response.json)
    assert log_size(app) == before
    assert rival.get("/api/campaigns").json["campaigns"] == []
    assert XSS not in rival.get("/").get_data(as_text=True) and "&lt;script&gt;" not in rival.get("/").get_data(as_text=True)


def test_a_shared_campaign_opens_to_the_co_gm_only(app, client, campaign):
    register_gm(app, "gmco", "co")
    api(client, type="ShareCampaign", campaign_id=campaign["campaign_id"], username="co")
    co = logged_in(app, "gmco")
    assert co.get(f"/campaigns/{campaign['campaign_id']}").status_code == 200
    assert co.post("/api/commands", json={"type": "PlanSession", "campaign_id": campaign["campaign_id"],
                                          "number": 2, "date": "2026-12-01", "title": "t"}).status_code == 201
    register_gm(app, "gmthird", "third")
    assert logged_in(app, "gmthird").get(f"/campaigns/{campaign['campaign_id']}").status_code == 404


def test_every_page_escapes_what_users_wrote(app, client, campaign):
    from tracker.web.player import sign

    with app.test_request_context():
        token = sign(campaign["link_id"])
    seen = 0
    for rule, endpoint in routes(app, "GET"):
        target = url(rule, {**campaign, "token": token})
        if target is None:
            continue
        response = client.get(target)
        assert_secure(response)
        if response.status_code != 200 or response.mimetype.startswith(("application/json", "text/event-stream")):
            response.close()  # a follow's stream stays open for minutes: closed, as a browser leaves it
            continue  # JSON carries text as strings: safe as it is (and served as JSON, with nosniff)
        body = response.get_data(as_text=True)
        if response.mimetype == "text/html":
            assert "<script>alert" not in body and "<img src=x" not in body, target
        else:  # Markdown and plain text escape a tag with a backslash
            assert not re.search(r"(?<!\\)<(script|img)", body), target
        seen += 1
    assert seen >= 10
    page = client.get(f"/duels/{campaign['duel_id']}").get_data(as_text=True)
    assert "&lt;script&gt;alert(" in page


def test_errors_and_redirects_carry_the_security_headers_too(app, client, anonymous):
    for response in (client.get("/no/such/page"), client.get("/campaigns/nope"), anonymous.get("/"),
                     anonymous.get("/health"), client.post("/api/commands", json={"type": "Explode"}),
                     anonymous.get("/static/htmx.min.js")):
        assert_secure(response)
    assert "'unsafe-inline'" not in SECURITY_HEADERS["Content-Security-Policy"]


def test_the_session_cookie_is_http_only_same_site_and_secure_by_default(tmp_path):
    from tracker import create_app

    production = create_app({"DATABASE": str(tmp_path / "p.db"), "SECRET_KEY": "s"})
    assert production.config["SESSION_COOKIE_SECURE"] is True
    assert production.config["SESSION_COOKIE_HTTPONLY"] is True
    assert production.config["SESSION_COOKIE_SAMESITE"] == "Lax"
