"""An evening on one server (issue 30, item 5): N tables at once, each with a GM logging a duel
over the JSON API at table pace, two to four players' seats choosing in sealed duels on their seat
links (Rocèt and pirate wit duels, as on phones), a table display following the sealed duel, and
one API follower long-polling the campaign's ``/changes``. Every client speaks HTTP to the
production server (waitress, as `make run` starts it: ``python -m tracker.web.serve``, 16 threads),
each table from its own loopback address (127.0.0.x), as each table's phones would be.

Printed beside the targets: the GM's command p50/p99 (p99 < 100 ms), the seat-to-rival "has
chosen" latency p50/p90 (from a seat's POST to the rival seat's poll showing "<name> has chosen.";
p90 < 1.5 s), errors (0), acknowledged commands missing from the log at the end (0), and the CPU
seconds of the server processes (and of PostgreSQL's) beside the wall time.

    .venv/bin/python bench/evening.py [--sqlite | --postgresql] [--tables N | --find-max]
                                      [--seconds 60] [--pace 3] [--seats 2,4]

``--sqlite`` (the default): one server on a SQLite file. ``--postgresql``: two app servers on one
throwaway PostgreSQL cluster (Debian's server, ``make postgres``), the clients of each table spread
over both. ``--find-max`` steps N up (10, 20, 35, 50, 70 unless ``--steps``) on a fresh store each
time and reports the largest N that held every target. Not a timed test: the smoke test in
tests/integration/test_evening_bench.py runs one table for a few seconds and checks only errors
and losses.
"""
from __future__ import annotations

import argparse
import html
import http.client
import json
import multiprocessing
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
import uuid

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import report  # noqa: E402
from bench.server import Server, Table, gm_with_token, shipped_rulesets, start_duel  # noqa: E402

SECRET = "loopback"  # the SECRET_KEY bench.server.Server gives the app (FLASK_SECRET_KEY wins, as in tracker): links are signed with it
SEALED_CHOICES = {"ChooseCard", "ChooseInsult", "ChooseSkill"}
ROCET = {"rocet": {"des": "d8", "int": "d8", "pg_max": 30, "pm_max": 20, "weapons": "Ropera | Espada | 3"}}
PIRATE = [{"pirate": {"atq": "5", "def": "13", "pv": "12", "comunicacion": "4", "sab": "12", "car": "10",
                      "iniciativa": "2", "weapons": "Sable | sword | 1d8\nPistola de chispa | pistol | 1d10 | 15"}},
          {"pirate": {"atq": "3", "def": "12", "pv": "9", "comunicacion": "2", "sab": "11", "car": "8",
                      "iniciativa": "1", "weapons": "Espada ropera | sword | 1d6\nPistola | pistol | 1d8 | 10"}}]
SEALED_SETUPS = {"rocet": {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada", "choices": "sealed"},
                 "pirate": {"kind": "wit", "exchanges": 3, "choices": "sealed"}}
LINES = ("You fight like a dairy farmer.", "I have met sharper spoons.", "Your sword is a butter knife.")
TARGETS = {"gm_p99": 100.0, "chosen_p90": 1.5}
STEPS = (10, 20, 35, 50, 70)


def sign(link_id: str) -> str:
    from itsdangerous import URLSafeSerializer

    return URLSafeSerializer(os.environ.get("FLASK_SECRET_KEY") or SECRET, salt="player-link").dumps(link_id)


# --- HTTP: one keep-alive connection from one loopback address, with a cookie jar ---------------

class Http:
    def __init__(self, port: int, source: str, token: str = "", timeout: float = 60):
        self.port, self.source, self.token, self.timeout = port, source, token, timeout
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None
        self.last_ms = 0.0  # the last request's wall time, sent to answered
        self.retry_after = 0  # the last answer's Retry-After, in seconds (0 without one)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None) -> tuple[int, str, object]:
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout,
                                                         source_address=(self.source, 0))
        headers = dict(headers or {})
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        started = time.perf_counter()
        try:
            self.connection.request(method, path, body, headers)
            response = self.connection.getresponse()
            text = response.read().decode()
        except BaseException:
            self.close()
            raise
        self.last_ms = (time.perf_counter() - started) * 1000
        self.retry_after = int(response.getheader("Retry-After") or 0)
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        data: object = text
        if response.getheader("Content-Type", "").startswith(("application/json", "application/problem+json")):
            data = json.loads(text)
        return response.status, text, data

    def get(self, path: str, headers: dict | None = None):
        return self.request("GET", path, headers=headers)

    def post_form(self, path: str, fields: dict, headers: dict | None = None):
        return self.request("POST", path, urllib.parse.urlencode(fields).encode(),
                            {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})})

    def command(self, body: dict):
        """The JSON API's POST /api/commands, as bench.server.Client.command answers it."""
        status, _, data = self.request("POST", "/api/commands", json.dumps(body).encode(),
                                       {"Content-Type": "application/json"})
        return status, data

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Api:
    """An Http as bench.server.Client speaks (status and JSON), for bench.server.Table and start_duel."""

    def __init__(self, http: Http):
        self.http = http

    def get(self, path: str):
        status, _, data = self.http.get(path)
        return status, data

    def command(self, body: dict):
        return self.http.command(body)


def created(answer) -> dict:
    status, body = answer
    if status != 201:
        raise RuntimeError(f"expected 201, got {status}: {body}")
    return body


# --- what one table shares between its clients ---------------------------------------------------

class Tally:
    """What one client saw: statuses, errors (a 5xx, a 4xx that is no refusal, a broken
    connection), acknowledged commands, latencies."""

    def __init__(self):
        self.statuses: dict[str, int] = {}
        self.times: dict[str, list[float]] = {}  # milliseconds of each kind of request, by answer
        self.errors: list[str] = []
        self.gm_ms: list[float] = []
        self.chosen_s: list[float] = []
        self.unseen = 0  # a choice the rival answered before any poll showed it
        self.acked_gm: list[tuple[str, int]] = []  # (command id, events appended)
        self.acked_seat: list[str] = []  # the command id's prefix the seat sent (drawn-tap)
        self.refused = 0  # a seat's tap the duel had moved past (409 or 422): a race, not an error
        self.requests = 0
        self.rematches = 0
        self.cut_short = 0  # a follower's long-poll answered at once: over the server's long-poll caps

    def count(self, what: str, status: int, ms: float | None = None) -> None:
        key = f"{what} {status}"
        self.statuses[key] = self.statuses.get(key, 0) + 1
        self.requests += 1
        if ms is not None:
            self.times.setdefault(key, []).append(ms)

    def as_dict(self) -> dict:
        return dict(vars(self))


class TableState:
    def __init__(self, index: int):
        self.index = index
        self.lock = threading.Lock()
        self.posted: dict[str, float] = {}  # a side's sealed choice posted at (monotonic), until its rival sees it
        self.ended: set[str] = set()  # sealed duels whose end a seat saw, for the GM to start a rematch
        self.displays: dict[int, str] = {}  # pair -> the display token of its current sealed duel
        self.timed_from = 0.0  # monotonic: latencies before it (the warm-up) are not counted

    def timed(self) -> bool:
        return time.monotonic() >= self.timed_from


def table_setup(http: Http, index: int, seats: int) -> dict:
    """As the table's GM, over the API: a campaign, a session, ``seats`` player characters paired in
    sealed duels (Rocèt, or pirate wit at every other table), a seat link for each, a display link
    for each sealed duel; and the GM's own duel (the shipped rulesets in turn) in the same session."""
    ruleset = ("rocet", "pirate")[index % 2] if "pirate" in shipped_rulesets() else "rocet"
    campaign = created(http.command({"type": "CreateCampaign", "name": f"Table {index}", "ruleset": ruleset,
                                     "language": "en"}))["id"]
    session = created(http.command({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                    "date": "2026-12-03", "title": "An evening"}))["id"]
    pairs = []
    for pair in range(seats // 2):
        people = []
        for side, name in zip("ab", ("Ana", "Bea") if pair == 0 else ("Cai", "Dov")):
            stats = ROCET if ruleset == "rocet" else PIRATE["ab".index(side)]
            people.append({"name": f"{name} {index}", "side": side,
                           "id": created(http.command({"type": "CreateCharacter", "campaign_id": campaign,
                                                       "name": f"{name} {index}", "rank": "pj",
                                                       "stats": stats}))["id"]})
        for person in people:
            link = created(http.command({"type": "IssuePlayerLink", "kind": "seat", "target": session,
                                         "character_id": person["id"]}))
            person["token"] = sign(link["events"][0]["data"]["link_id"])
        pairs.append({"people": people})
    return {"ruleset": ruleset, "campaign": campaign, "session": session, "pairs": pairs}


def sealed_duel(http: Http, table: dict, pair: dict) -> tuple[str, str]:
    """A sealed duel between the pair's characters, and its display link's token."""
    a, b = pair["people"]
    duel = created(http.command({"type": "StartDuel", "session_id": table["session"], "ruleset": table["ruleset"],
                                 "setup": SEALED_SETUPS[table["ruleset"]],
                                 "duelists": [{"character_id": a["id"], "side": "a"},
                                              {"character_id": b["id"], "side": "b"}]}))["id"]
    link = created(http.command({"type": "IssuePlayerLink", "kind": "display", "target": duel}))
    return duel, sign(link["events"][0]["data"]["link_id"])


# --- the clients --------------------------------------------------------------------------------

def gm_loop(http: Http, table: dict, shared: TableState, tally: Tally, rng: random.Random, pace: float,
            start: float, deadline: float) -> None:
    """The GM logs a turn of their own duel every ``pace`` seconds (timed), and starts the rematch
    of a sealed duel a seat saw end (not timed)."""
    rulesets = shipped_rulesets()
    ruleset = rulesets[shared.index % len(rulesets)]
    api = Api(http)
    own = Table(api, start_duel(api, table["campaign"], table["session"], ruleset), rng)
    next_at = start + rng.uniform(0, pace)
    while True:
        time.sleep(max(0.0, next_at - time.monotonic()))
        next_at += pace
        if time.monotonic() >= deadline:
            return
        with shared.lock:
            ended, shared.ended = shared.ended, set()
        for pair in sorted(ended):
            try:
                status, _, read = http.get(f"/api/duels/{table['pairs'][pair]['duel']}")
                if status != 200 or read["status"] == "running":
                    continue  # (a seat's stale view of the duel before)
                duel, display = sealed_duel(http, table, table["pairs"][pair])
                table["pairs"][pair]["duel"] = duel
            except Exception as error:  # noqa: BLE001 (counted, reported)
                tally.errors.append(f"rematch: {error!r}")
                continue
            tally.rematches += 1
            with shared.lock:
                shared.displays[pair] = display
        command = None if own.over else own.next_command()
        if command is None:  # its duel is over: the next one (not timed)
            own = Table(api, start_duel(api, table["campaign"], table["session"], ruleset), rng)
            continue
        command["command_id"] = uuid.uuid4().hex
        started = time.perf_counter()
        try:
            status, body = own.send(command)
        except Exception as error:  # noqa: BLE001
            tally.errors.append(f"GM command: {error!r}")
            continue
        if shared.timed():
            tally.gm_ms.append((time.perf_counter() - started) * 1000)
        tally.count(f"GM {command['type']}", status, (time.perf_counter() - started) * 1000)
        if status == 201:
            tally.acked_gm.append((command["command_id"], len(body["events"])))
        else:
            tally.errors.append(f"GM command {command['type']}: {status} {str(body)[:200]}")


FORM = re.compile(r'<form method="post" action="([^"]+/do/(\w+))"(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)"')
BUTTON = re.compile(r'<button type="submit"([^>]*)>')
LIVE = re.compile(r'hx-get="([^"]*/live\?v=[^"]*)"')
STAMP = re.compile(r'data-stamp="(\d+)"')


def forms_of(fragment: str) -> list[tuple[str, str, dict, list[dict]]]:
    """The seat's forms: (action, command, hidden fields, one dict per submit button's name and value)."""
    found = []
    for action, command, body in FORM.findall(fragment):
        hidden = {name: html.unescape(value) for name, value in HIDDEN.findall(body)}
        buttons = []
        for attributes in BUTTON.findall(body):
            name = re.search(r'name="(\w+)"', attributes)
            value = re.search(r'value="([^"]*)"', attributes)
            buttons.append({name.group(1): html.unescape(value.group(1))} if name and value else {})
        found.append((html.unescape(action), command, hidden, buttons or [{}]))
    return found


def sealed_turn(fragment: str) -> tuple[str, str] | None:
    """The duel and turn (or exchange, or round) the seat's sealed choice form is for, if it shows one."""
    for _action, command, hidden, _buttons in forms_of(fragment):
        if command in SEALED_CHOICES:
            return turn_of(hidden)
    return None


def turn_of(hidden: dict) -> tuple[str, str]:
    return hidden.get("duel_id", ""), hidden.get("turn") or hidden.get("round") or ""


def stamp_of(fragment: str) -> int:
    found = STAMP.search(fragment)
    return int(found.group(1)) if found else -1


def following(address: str, deadline: float) -> str:
    """The long-poll a fragment drew, its wait cut to end by the evening's deadline."""
    wait = max(1, min(25, int(deadline - time.monotonic())))
    return re.sub(r"wait=\d+", f"wait={wait}", html.unescape(address))


def seat_loop(http: Http, person: dict, rival: dict, pair: int, shared: TableState, tally: Tally,
              rng: random.Random, deadline: float) -> None:
    """A player's phone: the seat page, then its long-poll (on a second connection, as a browser
    holds one while the player taps, asking again after each answer); a choice made after a few
    seconds' thought; the rival's "has chosen" timed from the rival's POST (for the same turn). As
    touche.js does, an answer older than the fragment shown (its data-stamp) is dropped."""
    seat = f"/seat/{person['token']}"
    rival_chosen = f"{html.escape(rival['name'])} has chosen."
    mine, theirs = person["side"] + str(pair), rival["side"] + str(pair)
    status, first, _ = http.get(seat)
    tally.count("seat page", status, http.last_ms)
    if status != 200:
        tally.errors.append(f"seat page: {status}")
        return
    lock = threading.Lock()
    phone = {"fragment": first, "act_at": None}

    def seen(fragment: str) -> None:
        """A fragment drawn (a poll's or a tap's answer): the rival's pending choice, if it shows."""
        turn = sealed_turn(fragment)
        with shared.lock:
            pending = shared.posted.get(theirs)
            if pending is not None and turn is not None and (rival_chosen in fragment or pending[1] != turn):
                del shared.posted[theirs]
                if pending[1] == turn:
                    if shared.timed():
                        tally.chosen_s.append(time.monotonic() - pending[0])
                else:
                    tally.unseen += 1  # the turn went by before a poll showed it
            if 'seat-ended' in fragment and person["side"] == "a":
                shared.ended.add(pair)  # the GM checks, and starts the rematch

    def actionable(fragment: str) -> list:
        if 'seat-status waiting' in fragment or 'seat-status both' in fragment:
            return []  # chosen already: waiting for the rival (or the GM)
        return forms_of(fragment)

    def think() -> float:
        return time.monotonic() + rng.uniform(0.8, 3.0)

    def draw(fragment: str) -> bool:
        """Show a fragment unless it is older than the one shown; True when shown."""
        with lock:
            if stamp_of(fragment) < stamp_of(phone["fragment"]):
                return False
            phone["fragment"] = fragment
            seen(fragment)
            if not actionable(fragment):
                phone["act_at"] = None
            elif phone["act_at"] is None:
                phone["act_at"] = think()
            return True

    def follow() -> None:
        poller = Http(http.port, http.source)
        poller.cookies = dict(http.cookies)
        while time.monotonic() < deadline - 0.5:
            with lock:
                live = LIVE.search(phone["fragment"])
            if live is None:
                tally.errors.append("seat: no live address to follow")
                return
            try:
                status, answer, headers = poller.request("GET", following(live.group(1), deadline),
                                                         headers={"HX-Request": "true"})
            except Exception as error:  # noqa: BLE001
                tally.errors.append(f"seat follow: {error!r}")
                time.sleep(3)
                continue
            with lock:
                tally.count("seat follow", status, poller.last_ms)
            if status == 200:
                draw(answer)
            elif status == 204:
                if poller.retry_after:
                    tally.cut_short += 1
                    time.sleep(poller.retry_after)
            else:
                tally.errors.append(f"seat follow: {status} {answer[:200]}")
                time.sleep(3)
        poller.close()

    draw(first)
    follower = threading.Thread(target=follow, daemon=True)
    follower.start()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        with lock:
            act_at, fragment = phone["act_at"], phone["fragment"]
            offered = actionable(fragment) if act_at is not None and time.monotonic() >= act_at else []
            if offered:
                phone["act_at"] = None
        if not offered:
            continue
        action, command, hidden, buttons = rng.choice(offered)
        fields = {**hidden, **rng.choice(buttons)}
        drawn, tap = uuid.uuid4().hex[:24], uuid.uuid4().hex[:16]
        fields.update(command_id=drawn, tap=tap)
        if command == "ChooseInsult":
            fields["line"] = rng.choice(LINES)
        if command in SEALED_CHOICES and rival_chosen not in fragment:  # a choice the rival waits to see
            with shared.lock:
                shared.posted[mine] = (time.monotonic(), turn_of(hidden))
        try:
            status, answer, _ = http.post_form(action, fields, {"HX-Request": "true"})
        except Exception as error:  # noqa: BLE001
            tally.errors.append(f"seat {command}: {error!r}")
            continue
        with lock:
            tally.count(f"seat {command}", status, http.last_ms)
        if status == 200:
            tally.acked_seat.append(f"{drawn}-{tap}-")
        elif status in (409, 422, 403):  # the duel moved on under the tap: look again
            tally.refused += 1
            with shared.lock:
                shared.posted.pop(mine, None)
        else:
            tally.errors.append(f"seat {command}: {status} {answer[:200]}")
            continue
        draw(answer)
    follower.join(30)


def display_loop(http: Http, pair: int, shared: TableState, tally: Tally, deadline: float) -> None:
    """The table display of the sealed duel: its page, then its long-poll, asked again after each
    answer; the new duel's display link once the GM started a rematch (seen within a wait)."""
    token, live = None, None
    while time.monotonic() < deadline - 0.5:
        with shared.lock:
            current = shared.displays.get(pair)
        try:
            if current != token:
                token = current
                status, page, _ = http.get(f"/play/{token}/display")
                tally.count("display page", status, http.last_ms)
            else:
                status, page, _ = http.get(following(live, deadline), {"HX-Request": "true"})
                tally.count("display follow", status, http.last_ms)
        except Exception as error:  # noqa: BLE001
            tally.errors.append(f"display: {error!r}")
            time.sleep(3)
            continue
        if status == 200:
            found = LIVE.search(page)
            live = found.group(1) if found else live
        elif status == 204:
            if http.retry_after:
                tally.cut_short += 1
                time.sleep(http.retry_after)
        else:
            tally.errors.append(f"display: {status} {page[:200]}")
        if live is None:
            tally.errors.append("display: no live address")
            return


def follower_loop(http: Http, campaign: str, tally: Tally, deadline: float) -> None:
    """An API client following the campaign's log by long-poll (``/changes``, up to 25 s a wait).
    Over the server's long-poll caps a wait is answered at once: it then asks again a second later."""
    position = 0
    while time.monotonic() < deadline - 0.5:
        wait = max(1, min(25, int(deadline - time.monotonic())))
        asked = time.monotonic()
        try:
            status, text, body = http.get(f"/api/campaigns/{campaign}/changes?since={position}&wait={wait}")
        except Exception as error:  # noqa: BLE001
            tally.errors.append(f"follower: {error!r}")
            time.sleep(1)
            continue
        tally.count("follower", status)
        if status != 200:
            tally.errors.append(f"follower: {status} {text[:200]}")
            time.sleep(1)
            continue
        position = body["position"]
        if not body["changed"] and time.monotonic() - asked < wait - 1:
            tally.cut_short += 1
            time.sleep(1)  # cut short by a cap: a polite client waits before asking again


def run_table(index: int, ports: list[int], token: str, seats: int, pace: float, seconds: float,
              warm_up: float, barrier, seed: int) -> dict:
    """Every client of one table, each on its own thread and connection, from the table's address."""
    source = f"127.0.{1 + index // 250}.{1 + index % 250}"
    port = lambda k: ports[(index + k) % len(ports)]  # noqa: E731 (the clients of a table spread over the servers)
    rng = random.Random(seed)
    tally, shared = Tally(), TableState(index)
    gm_http = Http(port(0), source, token)
    try:
        table = table_setup(gm_http, index, seats)
        for pair_index, pair in enumerate(table["pairs"]):
            pair["duel"], shared.displays[pair_index] = sealed_duel(gm_http, table, pair)
    except Exception as error:  # noqa: BLE001
        tally.errors.append(f"set-up: {error!r}")
        barrier.wait()
        return tally.as_dict()
    barrier.wait()  # every table set up: the evening starts at once
    start = time.monotonic()
    deadline = start + seconds
    shared.timed_from = start + warm_up
    tallies, threads = [], []

    def spawn(client):
        """A client on its own thread, with a Tally of its own; a client that broke is an error."""
        own = Tally()
        tallies.append(own)

        def guarded():
            try:
                client(own)
            except Exception as error:  # noqa: BLE001 (counted, reported)
                own.errors.append(f"client: {error!r}")

        threads.append(threading.Thread(target=guarded, daemon=True))

    spawn(lambda t: gm_loop(gm_http, table, shared, t, random.Random(seed + 1), pace, start, deadline))
    k = 1
    for pair_index, pair in enumerate(table["pairs"]):
        a, b = pair["people"]
        for me, rival in ((a, b), (b, a)):
            spawn(lambda t, h=Http(port(k), source), me=me, rival=rival, p=pair_index, r=random.Random(seed + 10 + k):
                  seat_loop(h, me, rival, p, shared, t, r, deadline))
            k += 1
        spawn(lambda t, h=Http(port(k), source), p=pair_index: display_loop(h, p, shared, t, deadline))
        k += 1
    spawn(lambda t, h=Http(port(k), source, token): follower_loop(h, table["campaign"], t, deadline))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    merged = Tally()
    for own in tallies:
        for name, value in vars(own).items():
            if isinstance(value, list):
                getattr(merged, name).extend(value)
            elif name == "statuses":
                for key, count in value.items():
                    merged.statuses[key] = merged.statuses.get(key, 0) + count
            elif name == "times":
                for key, times in value.items():
                    merged.times.setdefault(key, []).extend(times)
            else:
                setattr(merged, name, getattr(merged, name) + value)
    merged.errors += tally.errors
    return merged.as_dict()


def _worker(indexes, ports, tokens, seat_counts, pace, seconds, warm_up, barrier, seed, results) -> None:
    """One client process: its share of the tables, a thread per client; what they saw, and its CPU."""
    cpu = time.process_time()
    answers = [None] * len(indexes)

    def one(k, index):
        answers[k] = run_table(index, ports, tokens[index], seat_counts[index], pace, seconds, warm_up, barrier,
                               seed + 1000 * index)

    threads = [threading.Thread(target=one, args=(k, i)) for k, i in enumerate(indexes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results.put({"tables": answers, "cpu": time.process_time() - cpu})


# --- CPU seconds of the server's processes, read from /proc --------------------------------------

def _ticks(pid: int, children: bool = False) -> float:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    used = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if children else 0)
    return used / os.sysconf("SC_CLK_TCK")


def _postgres_pids(postmaster: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as stat:
                    parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if parent == postmaster:
                found.append(int(name))
    return found


def cpu_seconds(servers: list[Server], postmaster: int | None) -> dict:
    """The app servers' CPU seconds, and PostgreSQL's (the postmaster, its live backends, and those
    that already exited)."""
    used = {"app": sum(_ticks(server.process.pid) for server in servers)}
    if postmaster:
        used["postgresql"] = _ticks(postmaster, children=True) + sum(_ticks(p) for p in _postgres_pids(postmaster))
    return used


# --- one evening: N tables, the figures, the log checked --------------------------------------

def evening(database: str, servers: int, tables: int, seconds: float, pace: float, seat_counts: list[int],
            processes: int, warm_up: float = 5.0, seed: int = 7, postmaster: int | None = None) -> dict:
    """One evening of ``tables`` tables for ``seconds`` seconds (the first ``warm_up`` of them not
    timed, every error and acknowledgement counted); what the clients saw, the servers' CPU, losses."""
    tokens = [gm_with_token(database, f"gm{index}x{uuid.uuid4().hex[:6]}")[1] for index in range(tables)]
    running = [Server(database, threads=16).start() for _ in range(servers)]  # 16: `make run`'s THREADS
    ports = [server.port for server in running]
    seats = [seat_counts[index % len(seat_counts)] for index in range(tables)]
    processes = max(1, min(processes, tables))
    barrier = multiprocessing.Barrier(tables + 1)
    results = multiprocessing.Queue()
    shares = [list(range(tables))[k::processes] for k in range(processes)]
    workers = [multiprocessing.Process(target=_worker, args=(share, ports, tokens, seats, pace, seconds, warm_up, barrier,
                                                             seed, results)) for share in shares]
    try:
        for worker in workers:
            worker.start()
        barrier.wait(timeout=300)  # every table set up
        cpu_before, wall = cpu_seconds(running, postmaster), time.perf_counter()
        answers = [results.get(timeout=seconds + 600) for _ in workers]
        wall = time.perf_counter() - wall
        cpu_after = cpu_seconds(running, postmaster)
        for worker in workers:
            worker.join(30)
    finally:
        for server in running:
            server.stop()
    tracebacks = sum(server.errors().count("Traceback") for server in running)
    merged = {"gm_ms": [], "chosen_s": [], "errors": [], "acked_gm": [], "acked_seat": [], "statuses": {}, "times": {},
              "unseen": 0, "refused": 0, "requests": 0, "rematches": 0, "cut_short": 0}
    for answer in answers:
        for table in answer["tables"]:
            for name, value in table.items():
                if isinstance(value, list):
                    merged[name] += value
                elif name == "statuses":
                    for key, count in value.items():
                        merged["statuses"][key] = merged["statuses"].get(key, 0) + count
                elif name == "times":
                    for key, times in value.items():
                        merged["times"].setdefault(key, []).extend(times)
                else:
                    merged[name] += value
    merged["client_cpu"] = sum(answer["cpu"] for answer in answers)
    merged["cpu"] = {key: cpu_after[key] - cpu_before.get(key, 0.0) for key in cpu_after}
    merged["wall"] = wall
    merged["tracebacks"] = tracebacks
    merged["lost"] = lost(database, merged["acked_gm"], merged["acked_seat"])
    return merged


def lost(database: str, acked_gm: list, acked_seat: list) -> int:
    """Acknowledged commands not in the log, whole: a GM's by its command id and event count, a
    seat's by the id it drew and its tap (the seat route appends a keyed hash of what it said)."""
    from tracker.bootstrap.db import open_db

    db = open_db(database)
    missing = 0
    try:
        for command_id, count in acked_gm:
            missing += db.execute("SELECT COUNT(*) FROM events WHERE command_id = ?",
                                  [command_id]).fetchone()[0] != count
        for prefix in acked_seat:
            missing += db.execute("SELECT COUNT(*) FROM events WHERE command_id LIKE ?",
                                  [prefix + "%"]).fetchone()[0] < 1
    finally:
        db.close()
    return missing


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def verdict(label: str, tables: int, result: dict, pace: float, print_it: bool = True) -> bool:
    gm, chosen = result["gm_ms"], result["chosen_s"]
    p50, p99 = (statistics.median(gm) if gm else float("nan")), percentile(gm, 0.99)
    c50, c90 = (statistics.median(chosen) if chosen else float("nan")), percentile(chosen, 0.90)
    errors = len(result["errors"]) + result["tracebacks"]
    held = (bool(gm) and p99 < TARGETS["gm_p99"] and bool(chosen) and c90 < TARGETS["chosen_p90"]
            and errors == 0 and result["lost"] == 0)
    if print_it:
        name = f"{label}, {tables} table{'s' if tables > 1 else ''}"
        report(f"{name}: GM's command p50", f"{p50:.1f} ms ({len(gm):,})", "—")
        report(f"{name}: GM's command p99", f"{p99:.1f} ms", f"< {TARGETS['gm_p99']:.0f} ms",
               bool(gm) and p99 < TARGETS["gm_p99"])
        report(f"{name}: seat-to-rival 'has chosen' p50", f"{c50 * 1000:.0f} ms ({len(chosen):,})", "—")
        report(f"{name}: seat-to-rival 'has chosen' p90", f"{c90 * 1000:.0f} ms",
               f"< {TARGETS['chosen_p90'] * 1000:.0f} ms", bool(chosen) and c90 < TARGETS["chosen_p90"])
        report(f"{name}: errors", f"{errors} of {result['requests']:,} requests", "0", errors == 0)
        report(f"{name}: acknowledged commands lost",
               f"{result['lost']} of {len(result['acked_gm']) + len(result['acked_seat']):,}", "0",
               result["lost"] == 0)
        cpu = " + ".join(f"{key} {value:.1f}" for key, value in result["cpu"].items())
        report(f"{name}: server CPU s / wall s", f"{cpu} / {result['wall']:.1f}",
               f"(clients {result['client_cpu']:.1f} CPU s)")
        report(f"{name}: refused taps, unseen choices, rematches",
               f"{result['refused']}, {result['unseen']}, {result['rematches']}", "—")
        follows = sum(count for key, count in result["statuses"].items()
                      if key.startswith(("follower ", "seat follow ", "display follow ")))
        report(f"{name}: long-polls (API, seats, displays) cut short by the caps",
               f"{result['cut_short']} of {follows:,}", "—")
        rate = result["requests"] / result["wall"] if result["wall"] else 0
        print(f"    {rate:,.0f} requests/s; by kind, seen from the client (count, p50, p99 ms; warm-up included):",
              flush=True)
        times = result["times"]
        gm_kinds = sorted((k for k in times if k.startswith("GM ")), key=lambda k: -max(times[k]))
        rows = [k for k in sorted(times) if not k.startswith("GM ")] + gm_kinds[:4]
        for kind in rows:
            values = times[kind]
            print(f"      {kind:<34} {len(values):>6,} {statistics.median(values):>8.1f} "
                  f"{percentile(values, 0.99):>8.1f}", flush=True)
        others = {k: v for k, v in result["statuses"].items() if k not in times}
        if others:
            print("      " + ", ".join(f"{k}: {v:,}" for k, v in sorted(others.items())), flush=True)
        for error in result["errors"][:5]:
            print(f"    error: {error}", flush=True)
    return held


# --- what each kind of request costs the server, in-process (``--costs``) ------------------------

class TestApi:
    """A Flask test client carrying a GM's API token, speaking as Http.command and Api.get do."""

    def __init__(self, client):
        self.client = client

    def command(self, body: dict):
        answer = self.client.post("/api/commands", json=body)
        return answer.status_code, answer.get_json()

    def get(self, path: str):
        answer = self.client.get(path)
        return answer.status_code, answer.get_json()


def costs(reads: int = 40) -> dict[str, float]:
    """The CPU milliseconds (this thread's, median of ``reads``) each kind of request of the evening
    costs the app, served in-process by the test client (no HTTP, no waitress): what N tables
    cost a server follows from them and the evening's request mix."""
    from bench.follow import api_client
    from tracker import create_app

    def cpu_ms(call, times: int = reads) -> float:
        spent = []
        for _ in range(times):
            started = time.thread_time()
            call()
            spent.append((time.thread_time() - started) * 1000)
        return statistics.median(spent)

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "costs.db")
        app = create_app({"DATABASE": path, "SECRET_KEY": os.environ.get("FLASK_SECRET_KEY") or SECRET,
                          "WTF_CSRF_ENABLED": False, "BASE_URL": "http://localhost"})
        client = api_client(app, path)
        api = TestApi(client)
        table = table_setup(api, 0, 2)  # a Rocèt table
        pair = table["pairs"][0]
        pair["duel"], display = sealed_duel(api, table, pair)
        own = Table(api, start_duel(api, table["campaign"], table["session"], "rocet"), random.Random(5))
        seat = f"/seat/{pair['people'][0]['token']}"
        anonymous = app.test_client()
        page = anonymous.get(seat).text
        # The follows' questions answered at once (without their wait): a long-poll's work once woken.
        current = re.sub(r"&wait=\d+", "", html.unescape(LIVE.search(page).group(1)))
        shown = anonymous.get(f"/play/{display}/display").text
        display_live = re.sub(r"&wait=\d+", "", html.unescape(LIVE.search(shown).group(1)))
        position = api.get(f"/api/campaigns/{table['campaign']}/changes?since=0")[1]["position"]
        figures = {
            "seat poll 204 (nothing moved)": cpu_ms(lambda: anonymous.get(current)),
            "seat poll 200 (the fragment drawn again)": cpu_ms(lambda: anonymous.get(current.split("?")[0] + "?v=0")),
            "seat page": cpu_ms(lambda: anonymous.get(seat)),
            "display poll 204": cpu_ms(lambda: anonymous.get(display_live)),
            "display poll 200": cpu_ms(lambda: anonymous.get(display_live.split("?")[0] + "?v=0")),
            "follower /changes, nothing new (wait=0)": cpu_ms(lambda: client.get(
                f"/api/campaigns/{table['campaign']}/changes?since={position}&wait=0")),
            "follower /changes, 3 entries": cpu_ms(lambda: client.get(
                f"/api/campaigns/{table['campaign']}/changes?since={position - 3}&wait=0")),
        }
        hand = re.findall(r'name="card" value="([^"]+)"', page)

        def tap():
            fields = {**forms_of(page)[0][2], "card": random.choice(hand), "command_id": uuid.uuid4().hex[:24],
                      "tap": uuid.uuid4().hex[:16]}
            answer = anonymous.post(forms_of(page)[0][0], data=fields, headers={"HX-Request": "true"})
            assert answer.status_code == 200, answer.text[:300]

        figures["seat ChooseCard (a change of mind each time)"] = cpu_ms(tap, min(reads, 20))

        spent = []
        while len(spent) < min(reads, 30):
            command = None if own.over else own.next_command()
            if command is None:  # the duel is over: the next one, not timed
                own = Table(api, start_duel(api, table["campaign"], table["session"], "rocet"), random.Random(6))
                continue
            started = time.thread_time()
            status, _ = own.send({**command, "command_id": uuid.uuid4().hex})
            spent.append((time.thread_time() - started) * 1000)
            assert status == 201
        figures["GM command (a Rocèt turn of its own duel)"] = statistics.median(spent)
    return figures


class Store:
    """A fresh database for each evening: a SQLite file, or a database on one PostgreSQL cluster."""

    def __init__(self, postgresql: bool, folder: str):
        self.postgresql, self.folder, self.cluster, self.count = postgresql, folder, None, 0
        if postgresql:
            from tests import pg_cluster

            bin_dir = pg_cluster.binaries()
            if bin_dir is None:
                raise SystemExit("PostgreSQL's server is not installed: `make postgres`, or --sqlite")
            self.cluster = pg_cluster.Cluster(bin_dir, durable=True).start()

    def fresh(self) -> str:
        self.count += 1
        if not self.postgresql:
            return os.path.join(self.folder, f"evening{self.count}.db")
        self.cluster.admin(f"CREATE DATABASE touche_evening{self.count}")
        return self.cluster.url(f"touche_evening{self.count}")

    def postmaster(self) -> int | None:
        if self.cluster is None:
            return None
        with open(os.path.join(self.cluster.data, "postmaster.pid")) as pid:
            return int(pid.readline())

    def stop(self) -> None:
        if self.cluster is not None:
            self.cluster.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    store = parser.add_mutually_exclusive_group()
    store.add_argument("--sqlite", action="store_true", help="one server on SQLite, as `make run` (the default)")
    store.add_argument("--postgresql", action="store_true", help="two app servers on a throwaway PostgreSQL")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--find-max", action="store_true", help="step N up and report the largest that holds")
    parser.add_argument("--steps", default=",".join(map(str, STEPS)))
    parser.add_argument("--seconds", type=float, default=60, help="each evening's length")
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between a GM's commands")
    parser.add_argument("--seats", default="2,4", help="seats per table, in turn (2 or 4)")
    parser.add_argument("--servers", type=int, help="app servers (1 on SQLite, 2 on PostgreSQL unless told)")
    parser.add_argument("--warm-up", type=float, default=5.0,
                        help="first seconds of each evening not timed (errors and losses still counted)")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--costs", action="store_true",
                        help="only the CPU ms each kind of request costs the app, in-process")
    args = parser.parse_args(argv)
    if args.costs:
        print(f"CPU ms a request costs the app in-process (median; load average {os.getloadavg()[0]:.1f})")
        for kind, ms in costs().items():
            report(kind, f"{ms:.2f} CPU ms", "—")
        return 0
    seat_counts = [int(s) for s in args.seats.split(",")]
    if any(s not in (2, 4) for s in seat_counts):
        parser.error("--seats: 2 or 4 a table")
    servers = args.servers or (2 if args.postgresql else 1)
    label = "PostgreSQL" if args.postgresql else "SQLite"
    print(f"Touché evening bench — {label}, {servers} app server{'s' if servers > 1 else ''} "
          f"(waitress, 16 threads), {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
          f"a GM's command every {args.pace:g} s, seats {args.seats} a table, {args.seconds:g} s an evening",
          flush=True)
    with tempfile.TemporaryDirectory() as folder:
        stores = Store(args.postgresql, folder)
        try:
            steps = [int(n) for n in args.steps.split(",")] if args.find_max else [args.tables]
            largest, failed, outcomes = 0, False, []
            for tables in steps:
                result = evening(stores.fresh(), servers, tables, args.seconds, args.pace, seat_counts,
                                 args.client_processes, args.warm_up, postmaster=stores.postmaster())
                held = verdict(label, tables, result, args.pace)
                outcomes.append((tables, held, result))
                if held and not failed:
                    largest = tables
                if not held:
                    if failed:
                        break  # two steps in a row missed: the trend is shown, no need to go on
                    failed = True  # one more step, to tell a loaded moment from the ceiling
            if args.find_max:
                print(f"\n| {label}: tables | GM p50 | GM p99 | 'has chosen' p50 | p90 | errors | lost | "
                      "server CPU s / wall s | held |\n|---|---|---|---|---|---|---|---|---|", flush=True)
                for tables, held, r in outcomes:
                    gm, chosen = r["gm_ms"], r["chosen_s"]
                    cpu = sum(r["cpu"].values())
                    print(f"| {tables} | {statistics.median(gm) if gm else float('nan'):.0f} ms | "
                          f"{percentile(gm, 0.99):.0f} ms | "
                          f"{(statistics.median(chosen) if chosen else float('nan')) * 1000:.0f} ms | "
                          f"{percentile(chosen, 0.9) * 1000:.0f} ms | {len(r['errors']) + r['tracebacks']} | "
                          f"{r['lost']} | {cpu:.1f} / {r['wall']:.1f} | {'yes' if held else 'no'} |", flush=True)
                report(f"{label}: the largest N that held (every smaller step held too)", f"{largest} tables",
                       ">= 50", largest >= 50)
        finally:
            stores.stop()
    return 1 if failed and not args.find_max else 0  # a find-max that ran reports; it does not fail


if __name__ == "__main__":
    sys.exit(main())
