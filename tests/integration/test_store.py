"""The event store: appends at an expected version, conflicts, idempotent commands, immutability."""
import sqlite3

import psycopg
import pytest

from tracker.eventstore.store import Conflict, EventStore, write_transaction
from tracker.domain.workspace import CampaignCreated, CampaignEdited

pytestmark = pytest.mark.both_backends
REFUSED = (sqlite3.IntegrityError, psycopg.IntegrityError)  # what each database raises at a refused write


def created(name="Season"):
    return CampaignCreated(campaign_id="c1", name=name, ruleset="coin")


def test_append_numbers_versions_and_positions(db):
    store = EventStore(db)
    with write_transaction(db):
        first = store.append("campaign-c1", 0, [created(), CampaignEdited(name="S2", ruleset="coin")], {})
    assert [(r.position, r.version, r.type) for r in first] == [(1, 1, "CampaignCreated"), (2, 2, "CampaignEdited")]
    assert store.version("campaign-c1") == 2
    assert store.read_stream("campaign-c1")[1].event == CampaignEdited(name="S2", ruleset="coin")


def test_a_stale_expected_version_is_a_conflict_and_appends_nothing(db):
    store = EventStore(db)
    with write_transaction(db):
        store.append("campaign-c1", 0, [created()], {})
    with pytest.raises(Conflict) as conflict:
        with write_transaction(db):
            store.append("campaign-c1", 0, [created("again")], {})
    assert (conflict.value.expected, conflict.value.actual) == (0, 1)
    assert store.last_position() == 1


def test_the_unique_stream_version_guards_even_a_racing_writer(db):
    store = EventStore(db)
    with write_transaction(db):
        store.append("campaign-c1", 0, [created()], {})
    row = ("campaign-c1", 1, "CampaignCreated", 1, "{}", "{}", None)
    with pytest.raises(Conflict):
        with write_transaction(db):
            store.append_rows([row])


def test_events_can_be_neither_updated_nor_deleted(db):
    store = EventStore(db)
    with write_transaction(db):
        store.append("campaign-c1", 0, [created()], {})
    with pytest.raises(REFUSED, match="immutable"):
        db.execute("UPDATE events SET type = 'x'")
    with pytest.raises(REFUSED, match="never deleted"):
        db.execute("DELETE FROM events")


def test_a_command_id_makes_a_retried_command_append_once(service):
    command = {"type": "CreateCampaign", "name": "Once", "ruleset": "coin", "command_id": "cmd-1"}
    first = service.handle(command)
    again = service.handle(command)
    assert again.replayed and not first.replayed
    assert [r.position for r in again.events] == [r.position for r in first.events]
    assert service.store.last_position() == 1


def test_read_all_streams_in_batches(db):
    store = EventStore(db)
    with write_transaction(db):
        store.append("campaign-c1", 0, [created()] + [CampaignEdited(name=f"n{i}", ruleset="coin")
                                                       for i in range(11)], {})
    assert [r.position for r in store.read_all(after=3, batch=4)] == list(range(4, 13))
