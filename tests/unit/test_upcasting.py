"""Schema evolution: an old stored shape is upcast to the current one on read."""
from pathlib import Path

from tracker import backup
from tracker.domain.events import from_data
from tracker.projections import queries
from tracker.domain.workspace import CharacterCreated

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "schema1_log.jsonl"


def test_a_schema_1_character_reads_as_schema_2():
    old = {"character_id": "x", "campaign_id": "c", "name": "Inés", "pc": False,
           "ruleset": "coin", "stats": {"hp": 7}}
    assert from_data("CharacterCreated", old, schema=1) == CharacterCreated(
        character_id="x", campaign_id="c", name="Inés", rank="minor", stats={"coin": {"hp": 7}})


def test_an_old_log_imports_and_projects_in_the_current_shape(db):
    with FIXTURE.open() as lines:
        backup.import_lines(db, lines)
    sheet = queries.character_sheet(db, "ines")
    assert sheet["character"]["rank"] == "pj"
    assert sheet["character"]["stats"] == {"coin": {"hp": 12}}
    assert sheet["tracks"][0]["current"] == 12
    stored = db.execute("SELECT schema, data FROM events WHERE stream = 'character-ines'").fetchone()
    assert stored[0] == 1 and '"pc":true' in stored[1]  # the log keeps the old shape as written
