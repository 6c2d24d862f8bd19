"""The write path's shortcuts keep what they skip exactly as it was: an edit of a sheet leaves its
track changes and totals (as a rebuild makes them), a service that keeps the state it last wrote
still sees another writer's commands, and a stale form is still a conflict."""
import pytest

from tracker import bootstrap
from tracker.eventstore import dialect
from tracker.bootstrap.db import open_db
from tracker.projections import queries
from tracker.projections.rebuild import rebuild
from tracker.eventstore.store import Conflict, EventStore

from tests.coin_tier import Table
from tests.conftest import fixed_context
from tests.integration.test_projections import snapshot

pytestmark = pytest.mark.both_backends


def where(db) -> str:
    """The database's file, or its PostgreSQL URL."""
    return db.url if dialect.is_pg(db) else db.execute("PRAGMA database_list").fetchone()[2]


def hp(db, who):
    return next(t["current"] for t in queries.character_sheet(db, who)["tracks"] if t["track"] == "HP")


def test_editing_a_sheet_keeps_its_track_changes_and_equals_a_rebuild(table):
    ines = table.character("Inés", hp=10)
    lope = table.character("Lope", hp=10, rank="villano")
    duel_id = table.duel(ines, lope, hits=3)
    table.play(duel_id, 2, 6)  # Inés loses 4
    stream = f"character-{ines}"
    table.service.handle({"type": "AdjustTrack", "character_id": ines, "ruleset": "coin", "track": "HP",
                          "amount": 2, "reason": "healed by the cleric"})
    before = queries.character_sheet(table.service.db, ines)
    table.service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés de Ayala", "rank": "pj",
                          "stats": {"coin": {"hp": 10}}, "expected_version": table.version(stream)})
    after = queries.character_sheet(table.service.db, ines)
    assert after["character"]["name"] == "Inés de Ayala"
    assert after["changes"] == before["changes"] and hp(table.service.db, ines) == 8
    live = snapshot(table.service.db)
    rebuild(table.service.db, EventStore(table.service.db))
    assert snapshot(table.service.db) == live


def test_a_service_used_for_several_commands_sees_another_writers_commands(service):
    table = Table(service)
    ines = table.character("Inés", hp=10)
    stream = f"character-{ines}"
    other = bootstrap.service(open_db(where(service.db)), fixed_context(9))  # a second connection
    try:
        service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés I", "rank": "pj",
                        "expected_version": 1})
        other.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés II", "rank": "villano",
                      "expected_version": 2})
        assert service.existing(stream)["name"] == "Inés II"  # not the state it wrote itself
        with pytest.raises(Conflict):
            service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés III", "rank": "pj",
                            "expected_version": 2})
        service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés III", "rank": "pj",
                        "expected_version": 3})
        assert other.existing(stream)["name"] == "Inés III"
        assert queries.character_sheet(service.db, ines)["character"]["name"] == "Inés III"
    finally:
        other.db.close()


COIN = {"coin": {"hp": 10}}


def _moved_by_another_writer_after_the_handler_reads(service, other, stream, message):
    """Wrap ``service.existing`` so that, once the handler has read the stream's state (before the
    write lock), ``other`` appends to it: what a second app server does in that moment."""
    real = service.existing

    def existing(name, *args, **kwargs):
        state = real(name, *args, **kwargs)
        if name == stream:
            service.existing = real
            other.handle(message)
        return state

    service.existing = existing


def test_a_state_another_writer_moved_before_the_lock_is_decided_on_again(service):
    """The append checks the handler's state by inserting at its next version: when another
    writer took that version meanwhile, the state is read anew under the lock and the command
    decided on it (a command without an expected version), or refused (a stale one)."""
    table = Table(service)
    ines = table.character("Inés", hp=10)
    stream = f"character-{ines}"
    other = bootstrap.service(open_db(where(service.db)), fixed_context(9))
    try:
        _moved_by_another_writer_after_the_handler_reads(service, other, stream, {
            "type": "EditCharacter", "character_id": ines, "name": "Inés II", "rank": "pj", "stats": COIN,
            "expected_version": 1})
        outcome = service.handle({"type": "AdjustTrack", "character_id": ines, "ruleset": "coin", "track": "HP",
                                  "amount": -3, "reason": "a fall"})
        assert outcome.version == 3 and [r.version for r in outcome.events] == [3]
        assert service.existing(stream)["name"] == "Inés II" and hp(service.db, ines) == 7

        _moved_by_another_writer_after_the_handler_reads(service, other, stream, {
            "type": "EditCharacter", "character_id": ines, "name": "Inés III", "rank": "pj", "stats": COIN,
            "expected_version": 3})
        with pytest.raises(Conflict):  # the form was drawn at version 3, and the stream is at 4 now
            service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés IV", "rank": "pj",
                            "stats": COIN, "expected_version": 3})
        _moved_by_another_writer_after_the_handler_reads(service, other, stream, {
            "type": "EditCharacter", "character_id": ines, "name": "Inés V", "rank": "pj", "stats": COIN,
            "expected_version": 4})
        # A form drawn at version 5, which the handler had not seen yet: decided on, not refused.
        assert service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés VI", "rank": "pj",
                               "stats": COIN, "expected_version": 5}).version == 6
        assert queries.character_sheet(service.db, ines)["character"]["name"] == "Inés VI"
        assert EventStore(service.db).version(stream) == 6
        live = snapshot(service.db)
        rebuild(service.db, EventStore(service.db))
        assert snapshot(service.db) == live
    finally:
        other.db.close()
