"""A long import is checked in a forked child while this process appends (``tracker.eventstore.forked``):
it must append the same rows, leave the same check, and refuse a bad file the same way as one
process does; a child that dies is an error, never a hang."""
import json
import multiprocessing
import os
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tracker import backup
from tracker.eventstore import forked
from tracker.backup import BadLog, TextLines, chain, dumps, import_lines
from tracker.bootstrap.db import open_db
from tracker.eventstore.store import EventStore, write_transaction

ROOT = Path(__file__).resolve().parents[2]
EVENTS = 10_000  # well past what one process appends before forking (backup.PARALLEL_AFTER batches)
CHARACTERS = 40
FORKED_AFTER = backup.PARALLEL_AFTER * backup.BATCH  # lines: 4,000, so the file's line 4,000 is checked here


def items(events=EVENTS):
    """A campaign whose characters are edited over and over: many streams, a reference on each."""
    yield {"stream": "campaign-c", "type": "CampaignCreated", "schema": 1,
           "data": {"campaign_id": "c", "name": "Long", "ruleset": "coin"}}
    versions = {}
    for index in range(events - 1):
        who = f"character-x{index % CHARACTERS}"
        versions[who] = versions.get(who, 0) + 1
        if versions[who] == 1:
            yield {"stream": who, "type": "CharacterCreated", "schema": 2, "version": 1,
                   "data": {"character_id": who.split("-")[1], "campaign_id": "c", "name": who, "rank": "pj"}}
        else:
            yield {"stream": who, "type": "CharacterEdited", "schema": 1, "version": versions[who],
                   "data": {"name": f"{who} {index}", "rank": "pj"}}


def lines(events=EVENTS):
    """The file's lines, chained, with its trailer."""
    out, digest = [], ""
    for position, item in enumerate(items(events), start=1):
        item = {"position": position, "version": 1, **item, "metadata": {"campaign_id": "c"}}
        digest = chain(digest, item)
        out.append(dumps({**item, "hash": digest}))
    out.append(dumps({"format": backup.FORMAT, "events": len(out), "hash": digest}))
    return out


@pytest.fixture
def forks(monkeypatch):
    """How many children an import forked, in a process where it may fork: no other thread runs
    (one left running by an earlier test would turn every fork here into one process, silently)."""
    others = [thread.name for thread in threading.enumerate() if thread is not threading.current_thread()]
    assert not others, f"threads left running by earlier tests: {others}"
    started = []
    real = forked.Ahead.__init__

    def counted(self, *args, **kwargs):
        started.append(1)
        real(self, *args, **kwargs)

    monkeypatch.setattr(forked.Ahead, "__init__", counted)
    return started


def imported(tmp_path, name, text, one_process=False):
    """The file imported from disk as import-log does (in one process when told): its check, its
    events, or its refusal."""
    path = tmp_path / f"{name}.jsonl"
    path.write_text("\n".join(text) + "\n")
    db = open_db(str(tmp_path / f"{name}.db"))
    check, refusal = None, None
    with pytest.MonkeyPatch.context() as patch:
        if one_process:
            patch.setattr(forked, "can_fork", lambda: False)
        try:
            with open(path, "rb") as f:
                check = import_lines(db, TextLines(f))
        except BadLog as bad:
            refusal = bad
    rows = db.execute("SELECT * FROM events ORDER BY position").fetchall()
    db.close()
    return check, rows, refusal


def test_a_long_file_appends_the_same_rows_and_leaves_the_same_check(tmp_path, forks):
    text = lines()
    check, rows, _ = imported(tmp_path, "forked", text)
    assert forks == [1] and len(rows) == EVENTS
    alone, alone_rows, _ = imported(tmp_path, "alone", text, one_process=True)
    assert forks == [1]  # the second import kept to one process
    assert rows == alone_rows
    assert vars(check) == vars(alone) and check.events == EVENTS


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_postgresql_takes_a_forked_import_and_goes_on_after_it(tmp_path, forks, new_database):
    """The child inherits the open PostgreSQL connection and leaves it alone; new appends
    continue after the imported positions."""
    _, on_sqlite, _ = imported(tmp_path, "sqlite", lines())
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join(lines()) + "\n")
    db = open_db(new_database())
    try:
        with open(path, "rb") as f:
            assert import_lines(db, TextLines(f)).events == EVENTS
        assert forks == [1, 1]
        assert [tuple(row) for row in db.execute("SELECT * FROM events ORDER BY position").fetchall()] == on_sqlite
        assert EventStore(db).last_position() == EVENTS
        with write_transaction(db):
            EventStore(db).append_rows([("campaign-after", 1, "CampaignCreated", 1, '{"campaign_id":"after",'
                                         '"name":"After","ruleset":"coin"}', "{}", None)])
        assert EventStore(db).last_position() == EVENTS + 1
    finally:
        db.close()


def test_the_check_signed_in_the_child_says_so_here(tmp_path, forks):
    key = b"k" * 32
    text = lines()
    trailer = json.loads(text[-1])
    text[-1] = dumps({**trailer, "signature": backup.signature(key, trailer["events"], trailer["hash"])})
    path = tmp_path / "signed.jsonl"
    path.write_text("\n".join(text) + "\n")
    db = open_db(str(tmp_path / "signed.db"))
    with open(path, "rb") as f:
        check = import_lines(db, TextLines(f), key=key, accept_unsigned=False)
    assert forks == [1] and check.signed and check.events == EVENTS


def edited(text, index, **changes):
    return text[:index] + [json.dumps({**json.loads(text[index]), **changes})] + text[index + 1:]


@pytest.mark.parametrize("damage", [
    lambda text: edited(text, 7776, version=999),  # in the child's part, mid-batch
    lambda text: edited(text, 8000, data={"name": "changed", "rank": "pj"}),  # its hash no longer matches
    lambda text: text[:6000] + ['{"position": 6001, "stream"'] + text[6001:],  # not JSON
    lambda text: text[:-1],  # cut short: found after the last line
    lambda text: text[:-1] + [dumps({**json.loads(text[-1]), "events": 3})],  # the trailer's count is wrong
    lambda text: edited(text, FORKED_AFTER - 1, data={"name": "changed", "rank": "pj"}),  # the last before forking
    lambda text: edited(text, 7000, metadata={"campaign_id": "elsewhere"}),  # its hash and its campaign
])
def test_a_bad_line_is_refused_as_one_process_refuses_it_and_nothing_is_appended(tmp_path, forks, damage):
    text = damage(lines())
    _, rows, refusal = imported(tmp_path, "forked", text)
    _, alone_rows, alone = imported(tmp_path, "alone", text, one_process=True)
    assert type(refusal) is BadLog and rows == alone_rows == []
    assert (refusal.line, refusal.problem, str(refusal)) == (alone.line, alone.problem, str(alone))
    assert forks == ([1] if refusal.line > FORKED_AFTER else [])  # refused by the child, but for the last case


def test_a_line_at_fault_twice_is_refused_for_its_hash_before_its_ids(tmp_path, forks):
    """The child checks a line's ids, this process its hash: a line moved or edited is still
    refused for its hash, which says what happened, not for an id it names out of place."""
    text = edited(lines(), 7000, metadata={"campaign_id": "elsewhere"})
    _, rows, refusal = imported(tmp_path, "forked", text)
    assert forks == [1] and rows == []
    assert str(refusal).startswith("line 7001: the line does not match its hash")


def test_a_child_that_dies_is_an_error_and_nothing_is_appended(tmp_path):
    parent = os.getpid()

    def dying(source):
        for number, line in enumerate(source, start=1):
            if number == 7000 and os.getpid() != parent:
                os.kill(os.getpid(), signal.SIGKILL)
            yield line

    def hung(*_):
        raise TimeoutError("the import hung")

    db = open_db(str(tmp_path / "killed.db"))
    before = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)  # a hang fails the test instead of stalling the run
    try:
        with pytest.raises(forked.ChildFailed, match="exit code -9"):
            import_lines(db, dying(lines()))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)
    assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


def test_a_failed_insert_ends_the_child(tmp_path):
    """The parent fails while the child still checks: the child is ended, the error raised."""
    db = open_db(str(tmp_path / "clash.db"))
    with write_transaction(db):
        backup.insert_rows(db, [(5000, "campaign-z", 1, "CampaignCreated", 1, "{}", "{}", None)])
    with pytest.raises(sqlite3.IntegrityError):
        with write_transaction(db):
            backup.append_lines(db, lines(), backup.Check())
    assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
    assert not multiprocessing.active_children()


def test_a_process_running_threads_never_forks(tmp_path, forks):
    waiting = threading.Event()
    other = threading.Thread(target=waiting.wait)
    other.start()
    try:
        assert not forked.can_fork()
        db = open_db(str(tmp_path / "threads.db"))
        check = import_lines(db, lines())
    finally:
        waiting.set()
        other.join()
    assert forks == [] and check.events == EVENTS


def test_a_process_confined_to_one_core_never_forks(tmp_path, forks, monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0})
    assert not forked.can_fork()
    assert import_lines(open_db(str(tmp_path / "one-core.db")), lines()).events == EVENTS
    assert forks == []


def test_what_the_child_raises_is_raised_here_after_the_items_before_it():
    def items():
        yield 1
        yield 2
        raise ValueError("the third")

    got = []
    with pytest.raises(ValueError, match="the third"):
        with forked.Ahead(items()) as ahead:
            got.extend(ahead)
    assert got == [1, 2]


def test_an_exception_that_cannot_be_pickled_still_says_what_it_was():
    class Local(Exception):  # a class pickle cannot name
        pass

    def items():
        raise Local("nowhere to be found")
        yield

    with pytest.raises(forked.ChildFailed, match="nowhere to be found"):
        with forked.Ahead(items()) as ahead:
            list(ahead)


def test_an_item_that_is_no_plain_data_is_an_error_here():
    with pytest.raises(ValueError, match="unmarshallable"):
        with forked.Ahead(iter([(1, "a"), object()])) as ahead:
            assert next(iter(ahead)) == (1, "a")
            list(ahead)


def test_the_outcome_is_computed_in_the_child_after_the_last_item():
    state = {"seen": 0}

    def items():
        for n in range(3):
            state["seen"] += 1
            yield n

    with forked.Ahead(items(), lambda: dict(state)) as ahead:
        assert list(ahead) == [0, 1, 2]
    assert ahead.outcome == {"seen": 3} and state == {"seen": 0}  # the child's state, not this process's
    assert ahead._process.exitcode == 0  # left to end on its own


def test_text_printed_before_the_fork_is_written_once():
    """The child flushes the standard streams as it ends: they must be flushed before the fork
    (multiprocessing does), and the child left to end on its own once it said all."""
    code = ("import sys; from tracker.eventstore import forked\n"
            "print('before', end='')\n"  # buffered: stdout is a pipe
            "with forked.Ahead(iter([1, 2])) as ahead:\n    assert list(ahead) == [1, 2]\n"
            "print(' after')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout
    assert out == "before after\n"


def test_leaving_early_ends_the_child():
    def endless():
        while True:
            yield "x" * 1000

    with forked.Ahead(endless()) as ahead:
        next(iter(ahead))
        child = ahead._process
    assert not child.is_alive()
