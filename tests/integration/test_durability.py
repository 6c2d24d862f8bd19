"""What Touché acknowledged is never lost, whatever else runs beside it: the production server
(waitress, as `make run` serves it) takes writes while documented commands and plain backups open
and close the same SQLite file in processes of their own; then the server is killed hard and
restarted, and every acknowledged write is there.

The trap this guards: POSIX record locks belong to a process, so a process that opens and closes
the database file outside SQLite drops SQLite's locks; the next connection to close then believes
it is the last one and deletes the WAL, with every write logged since in it."""
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import uuid

from bench.server import Client, Server, gm_with_token
from tracker.bootstrap.db import open_db

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _beside(path: str, *command: str) -> None:
    """Run ``command`` as its own process on the server's database, as a user at a shell would."""
    env = dict(os.environ, FLASK_DATABASE=path, SECRET_KEY="loopback", PYTHONPATH=ROOT, FLASK_APP="tracker")
    done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode(errors="replace")


PYTHON_BACKUP = ("import sqlite3, sys\n"
                 "source, copy = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])\n"
                 "source.backup(copy)\ncopy.close()\nsource.close()\n")


def side_commands(path: str, tmp: str) -> list[tuple[str, ...]]:
    flask = (sys.executable, "-m", "flask")
    commands = [flask + ("export-log", os.path.join(tmp, "export.jsonl")),
                flask + ("issue-token", "bench", "beside"),
                (sys.executable, "-c", PYTHON_BACKUP, path, os.path.join(tmp, "python-backup.db"))]
    if shutil.which("sqlite3"):
        commands.append(("sqlite3", path, f".backup {os.path.join(tmp, 'cli-backup.db')}"))
    return commands


def test_commands_and_backups_beside_a_live_server_lose_no_acknowledged_write(tmp_path):
    path = str(tmp_path / "live.db")
    _, token = gm_with_token(path)
    acknowledged, lock, stop = [], threading.Lock(), threading.Event()
    server = Server(path, threads=4).start()

    def writer(index: int) -> None:
        client = Client(server.port, token, timeout=10)
        try:
            while not stop.is_set():
                status, body = client.command({"type": "CreateCampaign", "name": f"Writer {index}",
                                               "ruleset": "rocet", "command_id": uuid.uuid4().hex})
                assert status == 201, body
                with lock:
                    acknowledged.append(body["events"][0]["position"])
        except (OSError, RuntimeError):
            return
        finally:
            client.close()

    writers = [threading.Thread(target=writer, args=(i,)) for i in range(4)]  # every server thread connects
    try:
        for thread in writers:
            thread.start()
        for command in side_commands(path, str(tmp_path)) * 2:
            before = len(acknowledged)
            _beside(path, *command)
            while len(acknowledged) < before + 20:  # writes acknowledged after the command ended
                assert all(t.is_alive() for t in writers), server.errors()
                threading.Event().wait(0.05)
        stop.set()
        for thread in writers:
            thread.join(timeout=30)
    finally:
        server.kill()
    assert "Traceback" not in server.errors()
    assert len(acknowledged) > 100

    with Server(path) as restarted:  # the server starts again on what the disk holds
        assert Client(restarted.port, token).get("/api/v1/campaigns")[0] == 200
    db = open_db(path)
    try:
        logged = {row[0] for row in db.execute("SELECT position FROM events")}
    finally:
        db.close()
    lost = sorted(set(acknowledged) - logged)
    assert not lost, f"{len(lost)} of {len(acknowledged)} acknowledged writes lost, first at position {lost[0]}"
