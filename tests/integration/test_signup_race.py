"""Sign-ups racing for one username, each on its own connection as a server's threads are: one
account is made, every other sign-up is told the name is taken, and the one made can log in
(issue 27: all were accepted, one row survived, the others could never log in; PostgreSQL answered 500)."""
import threading

import pytest

from tracker import bootstrap
from tracker.bootstrap.db import open_db
from tracker.application.logins import verify_password
from tracker.rules.base import Invalid
from tracker.application.services import Context

pytestmark = pytest.mark.both_backends

RACERS = 6
# Slow enough that every racer has passed the check made before hashing when the first commits.
HASH = "pbkdf2:sha256:60000"


def test_one_username_signed_up_at_once_makes_one_account(new_database):
    path = new_database("race")
    open_db(path).close()  # the schema, before the racers open it
    start, answers, lock = threading.Barrier(RACERS), [], threading.Lock()

    def sign_up(number):
        db = open_db(path)
        try:
            service = bootstrap.service(db, Context(new_id=lambda: f"gm{number}", password_method=HASH))
            start.wait()
            try:
                outcome = service.handle({"type": "RegisterGM", "username": "ines",
                                          "password": f"password number {number}"})
                answer = ("made", outcome.key, number)
            except Invalid as refused:
                answer = ("refused", refused.fields, number)
            except Exception as crash:  # what a server would answer with a 500
                answer = ("crashed", repr(crash), number)
        finally:
            db.close()
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=sign_up, args=(n,)) for n in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    made = [a for a in answers if a[0] == "made"]
    assert len(answers) == RACERS and len(made) == 1, answers
    assert all(a[0] == "refused" and "username" in a[1] for a in answers if a[0] != "made"), answers
    db = open_db(path)
    try:
        events = db.execute("SELECT COUNT(*) FROM events WHERE type = 'GMRegistered'").fetchone()[0]
        assert events == 1
        _, gm_id, number = made[0]
        assert verify_password(db, "ines", f"password number {number}", HASH) == gm_id
    finally:
        db.close()
