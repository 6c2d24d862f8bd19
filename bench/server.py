"""The production server (waitress, as `make run` serves it) in a child process on loopback,
and a tiny JSON client for it: shared by the load benchmark and the concurrency and crash tests."""
from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gm_with_token(path: str, username: str = "bench") -> tuple[str, str]:
    """Register a GM in the database at ``path`` (before the server opens it); their id and API token."""
    from tracker.bootstrap.db import open_db
    from tracker import bootstrap
    from tracker.application.services import Context

    db = open_db(path)
    try:
        gm = bootstrap.service(db, Context(password_method="pbkdf2:sha256:1000")).handle(
            {"type": "RegisterGM", "username": username, "password": "correct horse battery"}).key
        token = bootstrap.service(db, Context(actor=gm)).handle({"type": "IssueApiToken", "label": username}).secret
    finally:
        db.close()
    return gm, token


class Server:
    """``python -m tracker.web.serve`` (waitress, as `make run` starts it) on 127.0.0.1, on the given
    database; waitress's 4 threads for pages unless told (and its default pool for followers).
    ``api_limit``: the API's rate limit per token (``TOUCHE_API_LIMIT``); unless told, one no
    benchmark or load test reaches, for they measure the server, not its limit (the limit's own
    tests set theirs)."""

    def __init__(self, database: str, port: int | None = None, threads: int | None = None,
                 api_limit: str = "1000000 per minute", follow_threads: int | None = None):
        self.database, self.port, self.threads, self.api_limit = database, port or free_port(), threads, api_limit
        self.follow_threads = follow_threads
        # Beside a database file, or (a PostgreSQL URL) in the temporary directory.
        self.log_path = (database + ".server.log" if "://" not in database
                         else os.path.join(tempfile.gettempdir(), f"touche-server-{self.port}.log"))
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 15) -> "Server":
        env = dict(os.environ, FLASK_DATABASE=self.database, SECRET_KEY="loopback", TOUCHE_INSECURE_COOKIES="1",
                   PYTHONPATH=ROOT, TOUCHE_API_LIMIT=self.api_limit)
        command = [sys.executable, "-m", "tracker.web.serve", "--host", "127.0.0.1", f"--port={self.port}"]
        command.append(f"--threads={self.threads or 4}")
        if self.follow_threads:
            command.append(f"--follow-threads={self.follow_threads}")
        self.log = open(self.log_path, "wb")  # this run's tracebacks, if any
        self.process = subprocess.Popen(command, env=env, cwd=ROOT,
                                        stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("server died: " + self.errors())
            probe = Client(self.port, timeout=2)
            try:
                if probe.get("/health")[0] == 200:
                    return self
            except OSError:
                time.sleep(0.05)
            finally:
                probe.close()
        self.stop()
        raise RuntimeError(f"server did not answer on port {self.port} within {timeout}s")

    def kill(self) -> None:
        """Kill hard (SIGKILL): no shutdown, no flush, as a power cut would."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.wait()

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.wait()

    def wait(self) -> None:
        if self.process:
            self.process.wait(timeout=10)
            self.log.close()

    def errors(self) -> str:
        """What the server wrote to stderr so far."""
        with open(self.log_path, "rb") as log:
            return log.read().decode(errors="replace")

    def __enter__(self) -> "Server":
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()


class Client:
    """One keep-alive HTTP connection speaking JSON, with a GM's bearer token."""

    def __init__(self, port: int, token: str = "", timeout: float = 30):
        self.port, self.token, self.timeout = port, token, timeout
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict | str]:
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            self.connection.request(method, path, payload, headers)
            response = self.connection.getresponse()
            text = response.read().decode()
        except BaseException:
            self.close()
            raise
        if response.getheader("Content-Type", "").startswith(("application/json", "application/problem+json")):
            return response.status, json.loads(text)
        return response.status, text

    def get(self, path: str):
        return self.request("GET", path)

    def command(self, body: dict):
        return self.request("POST", "/api/commands", body)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


# --- a GM at the table, over the JSON API ------------------------------------------------------

def shipped_rulesets() -> list[str]:
    """The names of the rulesets the server knows (a test may register more in its own process)."""
    from tracker import rules

    return [module.NAME for module in rules.shipped()]


def created(answer: tuple[int, dict]) -> dict:
    status, body = answer
    if status != 201:
        raise RuntimeError(f"expected 201, got {status}: {body}")
    return body


def campaign_with_session(client: Client) -> tuple[str, str]:
    campaign = created(client.command({"type": "CreateCampaign", "name": "Loopback",
                                       "ruleset": shipped_rulesets()[0]}))["id"]
    session = created(client.command({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                      "date": "2026-11-29", "title": "Load"}))["id"]
    return campaign, session


def start_duel(client: Client, campaign: str, session: str, ruleset: str) -> str:
    """A fresh pair of the ruleset's sample duellists, and a duel between them under its usual set-up."""
    from tracker import rules

    samples = rules.get(ruleset).samples
    ids = [created(client.command({"type": "CreateCharacter", "campaign_id": campaign, **sheet}))["id"]
           for sheet in samples.DUELISTS]
    return created(client.command({"type": "StartDuel", "session_id": session, "ruleset": ruleset,
                                   "setup": samples.SETUPS[0],
                                   "duelists": [{"character_id": ids[0], "side": "a"},
                                                {"character_id": ids[1], "side": "b"}]}))["id"]


class Table:
    """One GM logging turns in a duel. Keeps the duel's state by folding the events each answer
    carries (the rules are pure), so a turn is one request; re-reads it after a conflict."""

    def __init__(self, client: Client, duel_id: str, rng):
        self.client, self.duel_id, self.rng = client, duel_id, rng
        self.refresh()

    def refresh(self) -> None:
        from tracker import rules

        status, duel = self.client.get(f"/api/duels/{self.duel_id}")
        if status != 200:
            raise RuntimeError(f"cannot read duel {self.duel_id}: {status}")
        self.state, self.version = duel["state"], duel["version"]
        self.module = rules.get(self.state["ruleset"])

    @property
    def over(self) -> bool:
        return bool(self.state.get("outcome"))

    def next_command(self, tries: int = 50) -> dict | None:
        """A legal next action (checked against the rules here, with dice of our own), or None."""
        from bench.driver import ENDINGS, hand_fields, random_value
        from tracker.rules.base import Invalid, Refused
        from tracker.rules.dice import Dice
        from tracker.rules.fields import parse_command

        legal = [a for a in self.module.actions(self.state) if a not in ENDINGS]
        for _ in range(tries if legal else 0):
            name = self.rng.choice(legal)
            fields = self.module.COMMANDS[name].FIELDS
            command = {"type": name, "duel_id": self.duel_id, "expected_version": self.version}
            for field in fields:
                command[field.name] = random_value(field, self.rng)
                if field.kind == "character":
                    command[field.name] = self.rng.choice(self.state["duelists"])["id"]
            hand_fields(self.state, command, fields, self.rng)
            try:
                parsed = parse_command(self.module.COMMANDS[name], command)
                dice = Dice({}, source=lambda sides: self.rng.randint(1, sides),
                            shuffle=lambda n: self.rng.sample(range(n), n))
                self.module.decide(self.state, parsed, dice)
            except (Invalid, Refused):
                continue
            return command
        return None

    def send(self, command: dict) -> tuple[int, dict | str]:
        """Post the command; fold what it appended, or re-read the duel if it was not logged."""
        from tracker.domain.events import EVENT_TYPES, from_data

        status, body = self.client.command(command)
        if status == 201:
            for event in body["events"]:
                self.state = self.module.evolve(
                    self.state, from_data(event["type"], event["data"], EVENT_TYPES[event["type"]].SCHEMA),
                    event["version"])
            self.version = body["version"]
        else:
            self.refresh()
        return status, body
