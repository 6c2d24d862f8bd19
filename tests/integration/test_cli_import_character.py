"""``flask import-character FILE --campaign ID``: a Foundry or Pathbuilder export becomes a
character, a newer one updates it, and a bad file is refused with its JSON path, nothing appended."""
import json
from pathlib import Path

from tracker import bootstrap, create_app
from tracker.bootstrap.db import open_db
from tracker.projections import queries
from tests.conftest import fixed_context

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "imports"


def cli(path):
    return create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t"}).test_cli_runner()


def test_import_character_from_the_command_line(tmp_path):
    path = str(tmp_path / "cli.db")
    db = open_db(path)
    campaign = bootstrap.service(db, fixed_context()).handle(
        {"type": "CreateCampaign", "name": "Season", "ruleset": "pf2e"}).key
    db.close()
    result = cli(path).invoke(args=["import-character", str(FIXTURES / "pathbuilder-seoni.json"), "--campaign", campaign])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Imported Seoni into the campaign: /characters/")
    newer = json.loads((FIXTURES / "pathbuilder-seoni.json").read_text())
    newer["build"]["acTotal"]["acTotal"] = 18  # a shield raised in Pathbuilder: AC 18
    file = tmp_path / "seoni-newer.json"
    file.write_text(json.dumps(newer))
    again = cli(path).invoke(args=["import-character", str(file), "--campaign", campaign])
    assert again.exit_code == 0 and again.output.startswith("Updated Seoni from the export")
    newer["build"]["abilities"]["con"] = "strong"
    file.write_text(json.dumps(newer))
    refused = cli(path).invoke(args=["import-character", str(file), "--campaign", campaign])
    assert refused.exit_code == 1 and "build.abilities.con: must be a number" in refused.output
    db = open_db(path)
    try:
        people = queries.characters(db, campaign)
        assert len(people) == 1 and people[0]["stats"]["pf2e"]["ac"] == 18  # build.acTotal.acTotal
        assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 5  # campaign, 2 + 2: nothing for the bad file
    finally:
        db.close()
