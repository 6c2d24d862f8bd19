"""Live follow under load, on the production server as `make run` starts it (waitress, 16 threads
for pages, its followers' pool): 200 followers of 10 duels (API long-polls, event streams, the
table display's long-poll, and the display and seat pages' long-polls, as htmx and touche.js send them) while a GM
sends commands at a steady pace. Prints the GM's command p50/p99 and the worst delay from a
command to its being seen by each follower, beside the targets (issue 28: p99 < 100 ms, every
follower sees every change within 2 s), with the CPU seconds of the server and of this bench.

    .venv/bin/python bench/follow_load.py [--seconds 60] [--rate 5] [--duels 10]

The followers are asyncio connections of this process (one thread), so that the bench's own
clients cost as little of the shared cores as they can; the GM is one thread with one keep-alive
connection. A delay is counted from the moment the GM sent the command (its commit is later), to
the moment the follower holds an answer that shows it: for a seat page, the fragment's stamp (the
sum of its streams' versions, of which only the duel's moves here).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import report  # noqa: E402
from bench.server import Client, Server, campaign_with_session, created, gm_with_token  # noqa: E402

P99_TARGET_MS, DELAY_TARGET_S = 100, 2.0
ENDINGS = {"Yield", "Disqualify", "Abandon"}
# Each duel's followers: (kind, how many). 20 a duel, 200 for 10 duels.
MIX = (("api long-poll", 6), ("api stream", 4), ("display long-poll", 2), ("display page", 4), ("seat page", 2),
       ("campaign stream", 2))
if os.environ.get("FOLLOW_MIX"):  # e.g. "display page=4,seat page=2", to see what one kind costs
    MIX = tuple((kind, int(n)) for kind, _, n in (part.partition("=") for part in os.environ["FOLLOW_MIX"].split(",")))


class Duel:
    """One table: the duel, its links, and when each of its versions was sent (by the GM)."""

    def __init__(self, gm: Client, index: int):
        self.index = index
        campaign, session = campaign_with_session(gm)
        self.campaign, self.session = campaign, session
        from tracker import rules

        ids = [created(gm.command({"type": "CreateCharacter", "campaign_id": campaign, **sheet}))["id"]
               for sheet in rules.get("rocet").samples.DUELISTS]
        # A duel to the death whose damage the GM declines (as bench/follow.py's): it never ends.
        self.id = created(gm.command({
            "type": "StartDuel", "session_id": session, "ruleset": "rocet",
            "duelists": [{"character_id": ids[0], "side": "a"}, {"character_id": ids[1], "side": "b"}],
            "setup": {"kind": "a_muerte", "cards": "virtual", "weapon_type": "Espada"}}))["id"]
        link = created(gm.command({"type": "IssuePlayerLink", "link_kind": "display", "target": self.id}))
        self.display = link["url"].rsplit("/", 2)[-2]
        read = gm.get(f"/api/v1/duels/{self.id}")[1]
        self.seats = []
        for duelist in read["state"]["duelists"]:
            seat = created(gm.command({"type": "IssuePlayerLink", "link_kind": "seat", "target": session,
                                       "character_id": duelist["id"]}))
            self.seats.append(seat["url"].rstrip("/").rsplit("/", 1)[-1])
        read = gm.get(f"/api/v1/duels/{self.id}")[1]
        # A seat's fragment carries its stamp (the sum of the versions of the streams it stands
        # on); here only the duel moves, so the stamp less this offset is the duel's version.
        self.seat_offsets = {seat: int(re.search(r'data-stamp="(\d+)"', gm.get(f"/seat/{seat}")[1]).group(1))
                             - read["version"] for seat in self.seats}
        self.now = {"current_version": read["version"], "status": read["status"], "legal_actions": read["legal_actions"]}
        self.start_version = read["version"]
        self.sent: dict[int, float] = {}  # version reached -> when its command was sent
        self.answered: dict[int, float] = {}  # version reached -> when its command was answered
        self.positions: dict[int, set[int]] = {}  # version reached -> the log positions of its events

    def next_command(self) -> dict:
        offered = [a for a in self.now["legal_actions"] if a["type"] not in ENDINGS]
        if not offered:
            raise RuntimeError(f"nothing but an ending offered: {self.now.get('status')} {[a['type'] for a in self.now['legal_actions']]}")
        action = next((a for a in offered if a["type"] == "DeclineDamage"), offered[0])
        command = {"type": action["type"], "duel_id": self.id, "expected_version": self.now["current_version"]}
        for name, field in action["fields"].items():
            if field.get("choices"):
                command[name] = next((c for c in field["choices"] if c != ""), field["choices"][0])
            elif field["kind"] == "bool":
                command[name] = True
        return command


def gm_loop(gm: Client, duels: list[Duel], rate: float, seconds: float, latencies: list[float], errors: list):
    """Commands at ``rate`` a second, the duels in turn, for ``seconds``: each one's latency."""
    started, n = time.monotonic(), 0
    while time.monotonic() - started < seconds:
        duel = duels[n % len(duels)]
        due = started + n / rate
        time.sleep(max(0.0, due - time.monotonic()))
        command = duel.next_command()
        sent = time.monotonic()
        status, body = gm.request("POST", "/api/v1/commands", command)
        answered = time.monotonic()
        if status != 201:
            errors.append((status, body))
            read = gm.get(f"/api/v1/duels/{duel.id}")[1]
            duel.now = {"current_version": read["version"], "status": read["status"],
                        "legal_actions": read["legal_actions"]}
        else:
            latencies.append((answered - sent) * 1000)
            duel.sent[body["version"]] = sent
            duel.positions[body["version"]] = {e["position"] for e in body["events"]}
            duel.answered[body["version"]] = answered
            duel.now = body
        n += 1


# --- the followers: a minimal HTTP/1.1 client on asyncio ---------------------------------------

async def _response(reader) -> tuple[int, dict, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    if "content-length" in headers:
        return status, headers, await reader.readexactly(int(headers["content-length"]))
    return status, headers, b""


def _connect(port, follower):
    """A connection from the follower's table's own address (127.0.0.x: each table is a client)."""
    return asyncio.open_connection("127.0.0.1", port, local_addr=(follower.address, 0))


async def _get(port, path, headers, connection=None, follower=None):
    reader, writer = connection or await _connect(port, follower)
    extra = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
    await writer.drain()
    answer = await _response(reader)
    if answer[1].get("connection", "").lower() == "close":  # waitress closes after a 204, as a browser sees
        writer.close()
        return None, answer
    return (reader, writer), answer


class Follower:
    def __init__(self, kind: str, duel: Duel):
        self.kind, self.duel = kind, duel
        self.address = f"127.0.0.{10 + duel.index}"
        self.seen: dict[int, float] = {}  # version -> when this follower first held it
        self.errors = 0
        self.why: list = []
        self.logged: set[int] = set()  # a campaign follower's log positions

    def saw(self, version: int, at: float) -> None:
        for v in self.duel.sent:
            if v <= version and v not in self.seen:
                self.seen[v] = at

    def saw_positions(self, positions: set[int], at: float) -> None:
        """A campaign's follower sees the log lines: a command is seen with the first of its lines
        (a command whose events tell no line, a declined damage, is not the campaign log's)."""
        for v, logged in list(self.duel.positions.items()):
            if logged & positions and v not in self.seen:
                self.seen[v] = at
        self.logged |= positions

    def saw_answered_before(self, asked: float, at: float) -> None:
        for v, answered in list(self.duel.answered.items()):
            if answered <= asked and v not in self.seen:
                self.seen[v] = at


async def long_poll(port, follower: Follower, path_of, headers, stop):
    connection, version = None, follower.duel.start_version
    while not stop.is_set():
        try:
            connection, (status, answer_headers, body) = await _get(port, path_of(version), headers, connection, follower)
        except (OSError, asyncio.IncompleteReadError) as error:
            follower.errors, connection = follower.errors + 1, None
            follower.why.append(repr(error)[:60])
            await asyncio.sleep(0.5)
            continue
        if status != 200:
            follower.errors += 1
            follower.why.append(status)
            await asyncio.sleep(1)
            continue
        answer = json.loads(body)
        if answer["changed"]:
            version = answer["version"]
            follower.saw(version, time.monotonic())
        elif "retry-after" in answer_headers:
            await asyncio.sleep(float(answer_headers["retry-after"]))


async def event_stream(port, follower: Follower, path, headers, stop, campaign=False):
    """An EventSource: reads events, reconnects with Last-Event-ID when the stream ends."""
    last, retry = None if campaign else str(follower.duel.start_version), 1.0
    while not stop.is_set():
        try:
            reader, writer = await _connect(port, follower)
            extra = {**headers, **({"Last-Event-ID": last} if last else {})}
            writer.write((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                          + "".join(f"{k}: {v}\r\n" for k, v in extra.items()) + "\r\n").encode())
            await writer.drain()
            status, _, _ = await _response(reader)
            if status != 200:
                follower.errors += 1
                writer.close()
                await asyncio.sleep(1)
                continue
            event = {}
            while not stop.is_set():
                size = int((await reader.readline()).strip() or b"0", 16)  # chunked transfer
                if size == 0:
                    break
                chunk = (await reader.readexactly(size + 2))[:-2].decode()
                for line in chunk.split("\n"):
                    if line.startswith("retry: "):
                        retry = int(line[7:]) / 1000
                    elif line.startswith("id: "):
                        event["id"] = line[4:]
                    elif line.startswith("data: "):
                        event["data"] = line[6:]
                    elif line == "" and "id" in event:
                        last = event["id"]
                        if campaign:  # the entries name the stream and version each one logged
                            follower.saw_positions({e["position"] for e in json.loads(event["data"])["entries"]},
                                                   time.monotonic())
                        else:
                            follower.saw(int(last), time.monotonic())
                        event = {}
            writer.close()
            await asyncio.sleep(retry)  # as an EventSource does once its stream ended
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            follower.errors += 1
            follower.why.append(repr(error)[:80])
            await asyncio.sleep(0.5)


async def page_follow(port, follower: Follower, path_of, stop, seat: str | None = None):
    """A page's htmx long-poll, as touche.js drives it: asks ``path_of(v)`` (with its wait), the
    fragment when something moved (asked again at once, from its new version), 204 after a quiet
    wait (asked again at once), or over the caps (after its Retry-After); never more often than
    twice a second. A display's fragment names the duel's version; a seat's, its stamp."""
    connection, mark = None, None
    while not stop.is_set():
        asked = time.monotonic()
        try:
            connection, (status, headers, body) = await _get(port, path_of(mark), {}, connection, follower)
        except (OSError, asyncio.IncompleteReadError) as error:
            follower.errors, connection = follower.errors + 1, None
            follower.why.append(repr(error)[:60])
            await asyncio.sleep(3)
            continue
        delay = 0.0
        if status == 200:
            found = re.search(rb'[?&;]v=([0-9a-f]+)', body)
            mark = found.group(1).decode() if found else None
            if seat is not None:
                stamp = re.search(rb'data-stamp="(\d+)"', body)
                if stamp:
                    follower.saw(int(stamp.group(1)) - follower.duel.seat_offsets[seat], time.monotonic())
            elif mark is not None:
                follower.saw(int(mark), time.monotonic())
        elif status == 204:
            delay = float(headers.get("retry-after") or 0)
        else:
            follower.errors += 1
            follower.why.append(status)
            delay = 3
        await asyncio.sleep(max(delay, 0.5 - (time.monotonic() - asked)))


async def followers_run(port, token, duels, stop_after: float, followers: list[Follower]):
    stop = asyncio.Event()
    auth = {"Authorization": f"Bearer {token}"}
    tasks = []
    for duel in duels:
        seats = iter(duel.seats * 10)
        for kind, count in MIX:
            for _ in range(count):
                follower = Follower(kind, duel)
                followers.append(follower)
                if kind == "api long-poll":
                    job = long_poll(port, follower, lambda v, d=duel: f"/api/v1/duels/{d.id}/changes?since={v}&wait=25",
                                    auth, stop)
                elif kind == "display long-poll":
                    job = long_poll(port, follower, lambda v, d=duel: f"/api/v1/display/{d.display}?since={v}&wait=25",
                                    {}, stop)
                elif kind == "api stream":
                    job = event_stream(port, follower, f"/api/v1/duels/{duel.id}/stream", auth, stop)
                elif kind == "campaign stream":
                    job = event_stream(port, follower, f"/api/v1/campaigns/{duel.campaign}/stream", auth, stop,
                                       campaign=True)
                elif kind == "display page":
                    job = page_follow(port, follower, lambda v, d=duel: f"/play/{d.display}/display/live"
                                      + (f"?v={v}&wait=25" if v else ""), stop)
                else:
                    seat = next(seats)
                    job = page_follow(port, follower, lambda v, s=seat: f"/seat/{s}/live"
                                      + (f"?v={v}&wait=25" if v else ""), stop, seat=seat)
                tasks.append(asyncio.create_task(job))
    await asyncio.sleep(stop_after)
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def server_cpu(pid: int) -> float:
    """The CPU seconds (user + system) a process has used, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=float, default=2, help="the GM's commands a second")
    parser.add_argument("--baseline", type=float, default=15, help="seconds of the GM alone first, no follower")
    parser.add_argument("--duels", type=int, default=10)
    parser.add_argument("--threads", type=int, default=16, help="as `make run` (THREADS)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "follow_load.db")
        _, token = gm_with_token(path)
        with Server(path, threads=args.threads) as server:
            print(f"(server pid {server.process.pid}, for a profiler)", flush=True)
            gm = Client(server.port, token)
            duels = [Duel(gm, n) for n in range(args.duels)]
            alone: list[float] = []
            cpu_alone, wall_alone = server_cpu(server.process.pid), time.monotonic()
            gm_loop(gm, duels, args.rate, args.baseline, alone, [])
            cpu_alone, wall_alone = server_cpu(server.process.pid) - cpu_alone, time.monotonic() - wall_alone
            for duel in duels:
                duel.start_version = duel.now["current_version"]
                duel.sent.clear()
                duel.answered.clear()
            followers: list[Follower] = []
            latencies: list[float] = []
            errors: list = []
            thread = threading.Thread(target=lambda: asyncio.run(
                followers_run(server.port, token, duels, args.seconds + 3, followers)))
            thread.start()
            time.sleep(2)  # every follower connected and waiting
            cpu_server, cpu_bench, wall = server_cpu(server.process.pid), time.process_time(), time.monotonic()
            gm_loop(gm, duels, args.rate, args.seconds, latencies, errors)
            thread.join()
            end = time.monotonic()
            cpu_server = server_cpu(server.process.pid) - cpu_server
            cpu_bench, wall = time.process_time() - cpu_bench, time.monotonic() - wall
            log_errors = server.errors().count("Traceback")
    delays, lost, by_kind = [], 0, {}
    for follower in followers:
        duel = follower.duel
        for version, sent in duel.sent.items():
            if follower.kind == "campaign stream" and version not in follower.seen and follower.logged and \
                    max(follower.logged) > max(duel.positions[version]):
                continue  # its events told no line of the log (the lines after it were sent)
            if version in follower.seen:
                delays.append(follower.seen[version] - sent)
                by_kind.setdefault(follower.kind, []).append(delays[-1])
            elif duel.answered[version] < end - 1 - DELAY_TARGET_S:  # it had its 2 s before the followers stopped
                lost += 1
    why = {}
    for follower in followers:
        for reason in follower.why:
            why[follower.kind, reason] = why.get((follower.kind, reason), 0) + 1
    if why:
        print("follower errors:", why)
    latencies.sort()
    p50, p99 = statistics.median(latencies), latencies[max(0, int(len(latencies) * 0.99) - 1)]
    kinds = {}
    for follower in followers:
        kinds[follower.kind] = kinds.get(follower.kind, 0) + 1
    print(f"{len(followers)} followers ({', '.join(f'{n} {k}' for k, n in kinds.items())}) of {args.duels} duels;"
          f" {len(latencies)} GM commands at {args.rate}/s over {wall:.0f} s; load {os.getloadavg()[0]:.1f}")
    alone.sort()
    report("GM alone (no follower): command p50 / p99", f"{statistics.median(alone):.1f} / "
           f"{alone[max(0, int(len(alone) * 0.99) - 1)]:.1f} ms", f"(server {cpu_alone:.1f} CPU s in {wall_alone:.0f} s)")
    report("GM command p50", f"{p50:.1f} ms", "—")
    report("GM command p99", f"{p99:.1f} ms", f"< {P99_TARGET_MS} ms", p99 < P99_TARGET_MS)
    worst = max(delays) if delays else float("nan")
    report("worst follower delay, command sent to seen", f"{worst:.2f} s", f"< {DELAY_TARGET_S} s",
           worst < DELAY_TARGET_S and lost == 0)
    report("follower delay p50 / p99", f"{statistics.median(delays):.2f} / "
           f"{sorted(delays)[int(len(delays) * 0.99) - 1]:.2f} s", "—")
    for kind, seen in sorted(by_kind.items()):
        report(f"  {kind}: delay p50 / worst", f"{statistics.median(seen):.2f} / {max(seen):.2f} s", "—")
    report("changes never seen by a follower", str(lost), "0", lost == 0)
    report("errors (GM, followers, server tracebacks)",
           f"{len(errors)}, {sum(f.errors for f in followers)}, {log_errors}", "0, 0, 0",
           not errors and not log_errors and not sum(f.errors for f in followers))
    report("CPU seconds: server / this bench", f"{cpu_server:.1f} / {cpu_bench:.1f} over {wall:.0f} s wall", "—")


if __name__ == "__main__":
    main()
