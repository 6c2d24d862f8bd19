"""Several GMs' tabs logging into the same duel at once, through the real server on loopback:
every acknowledged action is in the log exactly once, every refused one appended nothing and
said why, and the read models equal a rebuild afterwards."""
import random
import threading
import uuid

import pytest

from bench.server import Client, Server, Table, campaign_with_session, gm_with_token, start_duel
from tests.integration.test_projections import intact, snapshot
from tracker.bootstrap.db import open_db
from tracker.projections.rebuild import rebuild
from tracker.eventstore.store import EventStore

pytestmark = pytest.mark.both_backends

CLIENTS, REQUESTS = 6, 25


@pytest.fixture
def server(new_database):
    path = new_database("loopback")
    _, token = gm_with_token(path)
    with Server(path, threads=4) as running:
        running.token = token
        yield running
        assert "Traceback" not in running.errors()


def test_clients_racing_on_one_duel_each_get_a_clear_answer(server):
    setup = Client(server.port, server.token)
    campaign, session = campaign_with_session(setup)
    duel = {"id": start_duel(setup, campaign, session, "pirate")}
    lock, answers = threading.Lock(), []

    def gm(seed):
        client, rng = Client(server.port, server.token), random.Random(seed)
        table = Table(client, duel["id"], rng)
        for _ in range(REQUESTS):
            with lock:  # when the duel ends, one of us starts the next and everyone follows
                if table.duel_id != duel["id"]:
                    table = Table(client, duel["id"], rng)
                elif table.over:
                    table.refresh()
                    if table.over:
                        duel["id"] = start_duel(client, campaign, session, "pirate")
                        table = Table(client, duel["id"], rng)
            command = table.next_command()
            if command is None:
                table.refresh()
                continue
            command["command_id"] = uuid.uuid4().hex
            status, body = table.send(command)
            answers.append((command["command_id"], status, body))
            if status == 201 and rng.random() < 0.2:  # a retry of an acknowledged command
                again = client.command(command)
                answers.append((command["command_id"], again[0], again[1]))
        client.close()

    threads = [threading.Thread(target=gm, args=(seed,)) for seed in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    server.stop()

    statuses = {status for _, status, _ in answers}
    assert statuses <= {200, 201, 409, 422} and 201 in statuses and 409 in statuses, statuses
    db = open_db(server.database)
    try:
        for command_id, status, body in answers:
            logged = [row[0] for row in db.execute("SELECT position FROM events WHERE command_id = ? ORDER BY position",
                                                   [command_id])]
            if status in (200, 201):
                assert logged == [event["position"] for event in body["events"]]
            else:
                assert logged == [], f"a refused command ({status}) was logged"
                assert body.get("message") or body.get("errors")
            if status == 409:
                assert "changed since you opened it" in body["message"]
            if status == 200:
                assert body["replayed"] is True
        assert intact(db)
        live = snapshot(db)
        rebuild(db, EventStore(db))
        assert snapshot(db) == live
    finally:
        db.close()
