"""Two real app servers (waitress processes) on one PostgreSQL, as behind a reverse proxy: what
one logs, the other serves at once, live pages included; a stale version or a retried command
is told apart across them exactly as within one; a login made on one holds on the other (the
secret key comes from the environment); and time travel, which remembers states per process,
never shows through one a moment that a retraction through the other changed."""
import http.client
import random
import re
import threading
import uuid

import pytest

from bench.server import Client, Server, Table, campaign_with_session, created, gm_with_token, start_duel

pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


@pytest.fixture
def servers(new_database, monkeypatch):
    url = new_database("shared")
    monkeypatch.setenv("FLASK_SECRET_KEY", "one key for every app server")
    _, token = gm_with_token(url)
    first, second = Server(url, threads=4).start(), Server(url, threads=4)
    try:
        second.start()
        yield Client(first.port, token), Client(second.port, token), (first, second)
    finally:
        for server in (first, second):
            server.stop()
            assert "Traceback" not in server.errors()


def test_a_change_through_one_server_is_seen_live_through_the_other(servers):
    one, two, _ = servers
    campaign, session = campaign_with_session(one)
    status, body = two.get(f"/api/campaigns/{campaign}/changes?since=0")
    since = body["position"]
    answer = {}

    def follow():  # a live page waiting on the second server
        follower = Client(two.port, two.token)
        answer["reply"] = follower.get(f"/api/campaigns/{campaign}/changes?since={since}&wait=20")
        follower.close()

    waiting = threading.Thread(target=follow)
    waiting.start()
    character = created(one.command({"type": "CreateCharacter", "campaign_id": campaign, "name": "Inés",
                                     "rank": "pj", "stats": {}}))
    waiting.join(25)
    status, body = answer["reply"]
    assert status == 200 and body["changed"]
    assert [e["position"] for e in body["entries"]] == [e["position"] for e in character["events"]]
    assert two.get(f"/api/characters/{character['id']}")[1]["character"]["name"] == "Inés"


def test_conflicts_and_command_ids_hold_across_servers(servers):
    one, two, _ = servers
    campaign, _ = campaign_with_session(one)
    edit = {"type": "EditCampaign", "campaign_id": campaign, "name": "Renamed", "ruleset": "rocet",
            "expected_version": 1}
    assert one.command(edit)[0] == 201
    status, body = two.command({**edit, "name": "Renamed again"})
    assert status == 409 and "changed since you opened it" in body["message"]

    command = {"type": "CreateCharacter", "campaign_id": campaign, "name": "Once", "rank": "pj", "stats": {},
               "command_id": uuid.uuid4().hex}
    first = one.command(command)
    again = two.command(command)
    assert (first[0], again[0]) == (201, 200) and again[1]["replayed"]
    assert [e["position"] for e in again[1]["events"]] == [e["position"] for e in first[1]["events"]]


def _login(port: int) -> str:
    """Log in through a server's form, as a browser does; the session cookie."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", "/login")
    response = connection.getresponse()
    page, cookie = response.read().decode(), response.getheader("Set-Cookie", "").split(";")[0]
    csrf = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    connection.request("POST", "/login", f"username=bench&password=correct+horse+battery&csrf_token={csrf}",
                       {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    response = connection.getresponse()
    response.read()
    assert response.status == 302, response.status
    connection.close()
    return response.getheader("Set-Cookie").split(";")[0]


def _page(port: int, path: str, cookie: str) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers={"Cookie": cookie})
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    assert response.status == 200, (response.status, text[:300])
    return text


def test_a_login_and_time_travel_hold_across_servers(servers):
    one, two, (first, second) = servers
    campaign, session = campaign_with_session(one)
    duel = start_duel(one, campaign, session, "pirate")
    table = Table(one, duel, random.Random(3))
    status, body = table.send(table.next_command())
    assert status == 201, body
    turn = body["events"][0]["position"]
    cookie = _login(first.port)  # logged in through the first, browsing through the second
    before = _page(second.port, f"/duels/{duel}/travel", cookie)  # its states remembered there
    latest = two.get(f"/api/duels/{duel}")[1]["version"]
    retracted = one.command({"type": "RetractEvent", "position": turn, "reason": "misread the die",
                             "expected_version": latest})
    assert retracted[0] == 201, retracted
    after = _page(second.port, f"/duels/{duel}/travel", cookie)
    assert "Retracted" not in before and "Retracted" in after
