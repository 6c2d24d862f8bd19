"""Following the log by position on PostgreSQL: a reader asking "what changed since N" never skips
an event and never sees one twice, even when two writers race and the one that took the smaller
position would commit last.

A sequence hands out positions when rows are inserted, but transactions commit in their own
order: without a remedy, a follower can read position 2, move its mark to 2, and never see
position 1 committing a moment later. The remedy is the append lock (a transaction-level advisory
lock, ``tracker.eventstore.dialect``): a position is only taken by the one transaction that will commit
next. The second test switches the lock off and watches the follower skip, so the first one is
known to test something.
"""
import threading

import pytest

from tracker.eventstore import dialect
from tracker.bootstrap.db import open_db
from tracker.eventstore.store import EventStore, write_transaction
from tracker.domain.workspace import CampaignCreated

pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


def created(key):
    return CampaignCreated(campaign_id=key, name=key, ruleset="coin")


def race(url: str) -> tuple[list[int], list[int]]:
    """Writer A takes a position and holds its transaction open; writer B appends meanwhile and
    commits first if it can; a follower reads since its mark before and after A commits.
    Returns what the follower saw and what the log holds."""
    first, second, reader = open_db(url), open_db(url), open_db(url)
    try:
        seen, mark = [], 0

        def follow():
            nonlocal mark
            for rec in EventStore(reader).read_all(after=mark):
                seen.append(rec.position)
                mark = rec.position

        holding = write_transaction(first)
        holding.__enter__()
        EventStore(first).append("campaign-a", 0, [created("a")], {})  # position taken, not committed

        committed = threading.Event()

        def other_writer():
            with write_transaction(second):
                EventStore(second).append("campaign-b", 0, [created("b")], {})
            committed.set()

        thread = threading.Thread(target=other_writer)
        thread.start()
        committed.wait(1.0)  # long enough for B to commit, if nothing holds it back
        follow()  # the follower reads while A has not committed
        holding.__exit__(None, None, None)  # A commits last
        thread.join(10)
        follow()
        logged = [rec.position for rec in EventStore(reader).read_all()]
        return seen, logged
    finally:
        for db in (first, second, reader):
            db.close()


def test_a_follower_sees_every_event_once_in_order_though_commits_race(new_database):
    seen, logged = race(new_database())
    assert len(logged) == 2
    assert seen == logged == sorted(logged)


def test_without_the_append_lock_a_follower_skips_the_late_commit(new_database, monkeypatch):
    monkeypatch.setattr(dialect, "SERIALISE_APPENDS", False)
    seen, logged = race(new_database())
    assert len(logged) == 2
    assert seen == [max(logged)], "B's larger position committed first, and the follower moved past A's"
