"""Pulling the plug: the real server is killed hard (SIGKILL) in the middle of a burst of writes,
again and again. After each kill the database is intact, every acknowledged action is in it,
and a rebuild from the log reproduces the read models exactly."""
import http.client
import random
import threading
import time
import uuid

import pytest

from bench.server import Client, Server, Table, campaign_with_session, gm_with_token, shipped_rulesets, start_duel
from tests.integration.test_projections import intact, snapshot
from tracker.bootstrap.db import open_db
from tracker.projections.rebuild import rebuild
from tracker.eventstore.store import EventStore

pytestmark = pytest.mark.both_backends

KILLS, WRITERS = 10, 4
RULESETS = shipped_rulesets()
CUT = (OSError, http.client.HTTPException, RuntimeError)  # what a client sees when the server dies


def burst(server, duels, campaign, session, acknowledged, lock):
    """Writers logging turns as fast as they can until the server goes away."""

    def writer(index):
        client, rng = Client(server.port, server.token, timeout=10), random.Random(index + server.port)
        try:
            table = Table(client, duels[index], rng)
            while True:
                command = None if table.over else table.next_command()
                if command is None:  # the duel is over: the next one
                    duels[index] = start_duel(client, campaign, session, RULESETS[index % len(RULESETS)])
                    table = Table(client, duels[index], rng)
                    continue
                command["command_id"] = uuid.uuid4().hex
                status, body = table.send(command)
                if status == 201:
                    with lock:
                        acknowledged[command["command_id"]] = [e["position"] for e in body["events"]]
        except CUT:
            return
        finally:
            client.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(WRITERS)]
    for thread in threads:
        thread.start()
    return threads


def test_killing_the_server_mid_burst_loses_nothing_acknowledged(new_database):
    path = new_database("crash")
    _, token = gm_with_token(path)
    rng, acknowledged, lock = random.Random(5), {}, threading.Lock()
    with Server(path) as server:
        setup = Client(server.port, token)
        campaign, session = campaign_with_session(setup)
        duels = [start_duel(setup, campaign, session, RULESETS[i % len(RULESETS)]) for i in range(WRITERS)]
    for kill in range(KILLS):
        server = Server(path).start()
        server.token = token
        try:
            threads = burst(server, duels, campaign, session, acknowledged, lock)
            started = len(acknowledged)
            time.sleep(rng.uniform(0.3, 1.0))
            server.kill()
            for thread in threads:
                thread.join(timeout=30)
            assert not any(thread.is_alive() for thread in threads)
        finally:
            server.kill()
        assert "Traceback" not in server.errors()
        db = open_db(path)
        try:
            assert intact(db)
            for command_id, positions in acknowledged.items():
                logged = [row[0] for row in db.execute(
                    "SELECT position FROM events WHERE command_id = ? ORDER BY position", [command_id])]
                assert logged == positions, f"after kill {kill + 1}, acknowledged command {command_id} is not whole"
            live = snapshot(db)
            rebuild(db, EventStore(db))
            assert snapshot(db) == live, f"after kill {kill + 1}, the read models differ from a rebuild"
        finally:
            db.close()
        assert len(acknowledged) > started, "the burst logged nothing before the kill"
    assert len(acknowledged) >= KILLS * WRITERS
