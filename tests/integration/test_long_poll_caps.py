"""Live followers never starve the GM, on the production server as `make run` starts it: with
more followers waiting than the server has threads for pages (long-polls, event streams), the GM's
page and commands answer at once, and every follower is sent the change; an event stream sends
each change once, ``id:`` its version; a follower over the caps is answered at once, with a
``Retry-After``. (The figures under load are bench/follow_load.py's, not a timed test's.)"""
import http.client
import http.cookiejar
import json
import random
import re
import threading
import time
import urllib.parse
import urllib.request

from bench.server import Client, Server, Table, campaign_with_session, gm_with_token, start_duel

PAGE_THREADS = 4


def logged_in(port: int):
    """A browser logged in as the GM gm_with_token registered."""
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    page = browser.open(f"http://127.0.0.1:{port}/login", timeout=30).read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    body = urllib.parse.urlencode({"username": "bench", "password": "correct horse battery", "csrf_token": token})
    browser.open(f"http://127.0.0.1:{port}/login", body.encode(), timeout=30).read()
    return browser


def events(response, count: int) -> list[dict]:
    """The next ``count`` events of an open event stream: each its id, name and data."""
    found, event = [], {}
    while len(found) < count:
        raw = response.readline()
        assert raw, "the stream ended"
        line = raw.decode().rstrip("\n")
        if line == "":
            if "data" in event:
                found.append(event)
            event = {}
        elif not line.startswith(":"):
            name, _, value = line.partition(": ")
            event[name] = json.loads(value) if name == "data" else value
    return found


def open_stream(port: int, path: str, headers: dict | None = None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
    return connection, response


def test_more_followers_than_threads_wait_and_the_gm_still_answers_at_once(tmp_path):
    path = str(tmp_path / "follow.db")
    _, token = gm_with_token(path)
    with Server(path, threads=PAGE_THREADS) as server:
        gm = Client(server.port, token)
        duel = start_duel(gm, *campaign_with_session(gm), "rocet")
        display = gm.command({"type": "IssuePlayerLink", "link_kind": "display", "target": duel})[1]["url"]
        display = display.rsplit("/", 2)[-2]
        table = Table(gm, duel, random.Random(7))
        version, answers = table.version, []

        def follow(path):
            status, body = Client(server.port, token, timeout=30).get(path)
            answers.append((status, body))

        paths = [f"/api/v1/display/{display}?since={version}&wait=20"] * 12 + \
                [f"/api/v1/duels/{duel}/changes?since={version}&wait=20"] * 12
        followers = [threading.Thread(target=follow, args=(p,)) for p in paths]
        for thread in followers:
            thread.start()
        streams = [open_stream(server.port, f"/api/v1/duels/{duel}/stream?since={version}",
                               {"Authorization": f"Bearer {token}"}) for _ in range(4)]
        time.sleep(1)
        assert answers == []  # 24 long-polls and 4 streams wait, on 4 page threads

        browser = logged_in(server.port)
        started = time.monotonic()
        assert browser.open(f"http://127.0.0.1:{server.port}/duels/{duel}", timeout=10).status == 200
        assert table.send(table.next_command())[0] == 201
        assert time.monotonic() - started < 2  # seconds on a loaded machine, not the 20 s of a wait

        for thread in followers:
            thread.join(timeout=10)
        assert len(answers) == len(paths)
        for status, body in answers:
            assert status == 200 and body["changed"] and body["version"] == table.version
            # Only what changed: the steps after the follower's version, not the whole duel's.
            assert body["duel"]["steps_since"] == version
            assert all(step["at"] > version for step in body["duel"]["steps"])
        for connection, response in streams:
            [event] = events(response, 1)
            assert event["id"] == str(table.version) and event["data"]["duel"]["steps_since"] == version
            connection.close()


def test_an_event_stream_sends_each_change_once_and_resumes_from_last_event_id(tmp_path):
    path = str(tmp_path / "stream.db")
    _, token = gm_with_token(path)
    with Server(path, threads=PAGE_THREADS) as server:
        gm = Client(server.port, token)
        campaign, session = campaign_with_session(gm)
        duel = start_duel(gm, campaign, session, "rocet")
        table = Table(gm, duel, random.Random(3))
        auth = {"Authorization": f"Bearer {token}"}
        connection, response = open_stream(server.port, f"/api/v1/duels/{duel}/stream", auth)
        [first] = events(response, 1)  # no resume point: the whole read first
        assert first["event"] == "duel" and first["data"]["duel"]["steps_since"] is None
        seen = [int(first["id"])]
        for _ in range(3):
            assert table.send(table.next_command())[0] == 201
            [event] = events(response, 1)
            assert int(event["id"]) == table.version == event["data"]["version"]
            assert event["data"]["duel"]["steps_since"] == seen[-1]  # only what came after
            seen.append(table.version)
        connection.close()

        assert table.send(table.next_command())[0] == 201  # while no one listens
        connection, response = open_stream(server.port, f"/api/v1/duels/{duel}/stream",
                                           {**auth, "Last-Event-ID": str(seen[-1])})
        [missed] = events(response, 1)
        assert int(missed["id"]) == table.version and missed["data"]["duel"]["steps_since"] == seen[-1]
        connection.close()

        log, answer = open_stream(server.port, f"/api/v1/campaigns/{campaign}/stream", auth)
        [entries] = events(answer, 1)
        assert entries["event"] == "entries" and entries["data"]["entries"]
        assert int(entries["id"]) == entries["data"]["entries"][-1]["position"]
        log.close()


def test_followers_over_the_caps_are_answered_at_once_with_retry_after(tmp_path):
    path = str(tmp_path / "caps.db")
    _, token = gm_with_token(path)
    # 8 followers' threads: 4 may wait, 2 of them from one address; the rest are answered at once.
    with Server(path, threads=PAGE_THREADS, follow_threads=8) as server:
        gm = Client(server.port, token)
        duel = start_duel(gm, *campaign_with_session(gm), "rocet")
        version = gm.get(f"/api/v1/duels/{duel}")[1]["version"]
        answered = []

        def follow():
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            started = time.monotonic()
            connection.request("GET", f"/api/v1/duels/{duel}/changes?since={version}&wait=4",
                               headers={"Authorization": f"Bearer {token}"})
            response = connection.getresponse()
            response.read()
            answered.append((time.monotonic() - started, response.getheader("Retry-After")))
            connection.close()

        followers = [threading.Thread(target=follow) for _ in range(6)]
        for thread in followers:
            thread.start()
        for thread in followers:
            thread.join(timeout=20)
        at_once = [retry for took, retry in answered if took < 2]
        assert len(answered) == 6 and at_once == ["1"] * 4, answered
