"""The write path's shortcuts keep what they skip exactly as it was: an edit of a sheet leaves its
track changes and totals (as a rebuild makes them), a service that keeps the state it last wrote
still sees another writer's commands, and a stale form is still a conflict."""
import pytest

from tracker import bootstrap, dialect
from tracker.db import open_db
from tracker.projections import queries
from tracker.projections.rebuild import rebuild
from tracker.store import Conflict, EventStore

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
