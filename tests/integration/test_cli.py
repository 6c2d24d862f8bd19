"""The Flask CLI: init-db, rebuild, export-log and import-log (round trip and refusals)."""
import json

import pytest

from tracker import create_app
from tracker.bootstrap.db import open_db
from tracker import bootstrap
from tests.coin_tier import Table
from tests.conftest import fixed_context


@pytest.fixture
def filled(tmp_path):
    """A database holding a small campaign with a finished duel and a retraction."""
    path = str(tmp_path / "filled.db")
    db = open_db(path)
    table = Table(bootstrap.service(db, fixed_context()))
    duel = table.duel(table.character("Inés"), table.character("Lope", rank="villano"), hits=2)
    turn = table.play(duel, 6, 1)
    table.service.handle({"type": "RetractEvent", "position": turn.events[0].position,
                          "expected_version": table.version(f"duel-{duel}")})
    table.play(duel, 5, 2)
    table.play(duel, 4, 3)
    db.close()
    return path


def cli(path):
    return create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t"}).test_cli_runner()


def test_init_db_creates_the_database(tmp_path):
    path = tmp_path / "sub" / "new.db"
    result = cli(str(path)).invoke(args=["init-db"])
    assert result.exit_code == 0 and path.exists()


def test_export_import_export_gives_an_identical_file(filled, tmp_path):
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert cli(filled).invoke(args=["export-log", str(first)]).exit_code == 0
    lines = first.read_text().splitlines()
    assert len(lines) == 11 and json.loads(lines[0])["type"] == "CampaignCreated"
    trailer = json.loads(lines[-1])
    assert trailer["format"] == "touche-log/3" and trailer["events"] == 10
    assert trailer["hash"] == json.loads(lines[-2])["hash"] and len(trailer["signature"]) == 64
    empty = str(tmp_path / "empty.db")
    result = cli(empty).invoke(args=["import-log", str(first)])
    assert result.exit_code == 0, result.output
    assert cli(empty).invoke(args=["export-log", str(second)]).exit_code == 0
    assert first.read_bytes() == second.read_bytes()
    assert _read_models(empty) == _read_models(filled)


def _read_models(path):
    db = open_db(path)
    try:
        return {t: sorted(db.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
                for t in ("characters", "duels", "wounds", "duelists", "log_entries")}
    finally:
        db.close()


def test_rebuild_reproduces_the_read_models(filled):
    before = _read_models(filled)
    result = cli(filled).invoke(args=["rebuild"])
    assert result.exit_code == 0 and "10 events" in result.output
    assert _read_models(filled) == before


def edit(lines, index, **changes):
    """The lines with one event's fields changed, as a tampered file would have them."""
    tampered = {**json.loads(lines[index]), **changes}
    return lines[:index] + [json.dumps(tampered)] + lines[index + 1:]


@pytest.mark.parametrize("damage, message", [
    (lambda lines: lines[:3] + ['{"position": 4, "stream"'], "line 4: not valid JSON"),
    (lambda lines: [lines[1], lines[0]] + lines[2:], "line 1: the line does not match its hash"),
    (lambda lines: lines[:2] + [lines[1]] + lines[2:], "line 3: position 2 is out of order"),
    (lambda lines: edit(lines, 2, type="CharacterSummoned"), "line 3: unknown event type 'CharacterSummoned'"),
    (lambda lines: edit(lines, 6, version=5), "line 7: duel-id0005 jumps to version 5"),
    (lambda lines: edit(lines, 2, data={"name": "Inés"}), "line 3: CharacterCreated data does not fit its type"),
    (lambda lines: edit(lines, 2, schema=9), "line 3: unknown schema 9 for CharacterCreated"),
    (lambda lines: lines[:5], "line 6: the file stops before its last line: it was cut short"),
    (lambda lines: lines[:5] + lines[-1:], "line 6: the file ends saying 10 events, but it holds 5"),
    (lambda lines: edit(lines, 2, data={**json.loads(lines[2])["data"], "name": "Inés the Unbeaten"}),
     "line 3: the line does not match its hash: it was edited by hand"),
    (lambda lines: lines[:4] + lines[5:], "line 5: duel-id0005 jumps to version 2; expected 1"),
    (lambda lines: lines[:2] + lines[3:], "line 3: the line does not match its hash"),
    (lambda lines: lines + lines[-1:], "line 12: lines after the end of the log"),
])
def test_a_bad_file_is_refused_with_its_line_and_appends_nothing(filled, tmp_path, damage, message):
    good = tmp_path / "good.jsonl"
    cli(filled).invoke(args=["export-log", str(good)])
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(damage(good.read_text().splitlines())) + "\n")
    empty = str(tmp_path / "empty.db")
    result = cli(empty).invoke(args=["import-log", str(bad)])
    assert result.exit_code != 0
    assert message in result.output
    db = open_db(empty)
    assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


def test_import_refuses_a_database_that_already_holds_events(filled, tmp_path):
    dump = tmp_path / "log.jsonl"
    cli(filled).invoke(args=["export-log", str(dump)])
    result = cli(filled).invoke(args=["import-log", str(dump)])
    assert result.exit_code != 0 and "already holds events" in result.output


def test_create_gm_makes_an_account_that_can_log_in(tmp_path):
    path = str(tmp_path / "gm.db")
    result = cli(path).invoke(args=["create-gm", "marta", "--password", "a long enough secret"])
    assert result.exit_code == 0, result.output
    refused = cli(path).invoke(args=["create-gm", "marta", "--password", "a long enough secret"])
    assert refused.exit_code != 0 and "username is taken" in refused.output
    app = create_app({"TESTING": True, "DATABASE": path, "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False,
                      "SESSION_COOKIE_SECURE": False})
    client = app.test_client()
    assert client.post("/login", data={"username": "marta", "password": "wrong"}).status_code == 401
    assert client.post("/login", data={"username": "marta", "password": "a long enough secret"}).status_code == 302
    assert client.get("/").status_code == 200


def test_import_log_refuses_a_reference_outside_the_file_with_its_line(filled, tmp_path):
    from tests.integration.test_import_references import rechained

    good = tmp_path / "good.jsonl"
    cli(filled).invoke(args=["export-log", str(good)])
    items = [json.loads(line) for line in good.read_text().splitlines()[:-1]]
    items[2]["data"]["campaign_id"] = "another-gms-campaign"
    bad = tmp_path / "bad.jsonl"
    bad.write_text(rechained(items))
    empty = str(tmp_path / "empty.db")
    result = cli(empty).invoke(args=["import-log", "--accept-unsigned", str(bad)])
    assert result.exit_code != 0
    assert "line 3: CharacterCreated refers to 'another-gms-campaign' (campaign_id)" in result.output
    assert open_db(empty).execute("SELECT COUNT(*) FROM events").fetchone()[0] == 0


def test_import_log_takes_a_file_another_install_signed_only_when_told(filled, tmp_path):
    dump = tmp_path / "log.jsonl"
    cli(filled).invoke(args=["export-log", str(dump)])
    elsewhere = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.db"), "SECRET_KEY": "other"})
    refused = elsewhere.test_cli_runner().invoke(args=["import-log", str(dump)])
    assert refused.exit_code != 0 and "line 11: the file is not signed by this Touché" in refused.output
    taken = elsewhere.test_cli_runner().invoke(args=["import-log", "--accept-unsigned", str(dump)])
    assert taken.exit_code == 0 and "Imported 10 events (not signed by this install)" in taken.output
    again = cli(str(tmp_path / "same.db")).invoke(args=["import-log", str(dump)])
    assert again.exit_code == 0 and "(signed by this install)" in again.output


def test_a_file_exported_before_signatures_still_imports(tmp_path):
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "schema1_log.jsonl"
    result = cli(str(tmp_path / "old.db")).invoke(args=["import-log", "--accept-unsigned", str(fixture)])
    assert result.exit_code == 0, result.output


def test_long_commands_end_on_one_plain_line_when_not_in_a_terminal(filled, tmp_path):
    """Piped (as here), rebuild, export-log and import-log draw no bar: one last line says the
    count, the time and the rate."""
    out = tmp_path / "log.jsonl"
    runs = [cli(filled).invoke(args=["rebuild"]), cli(filled).invoke(args=["export-log", str(out)]),
            cli(str(tmp_path / "new.db")).invoke(args=["import-log", str(out)])]
    for result in runs:
        assert result.exit_code == 0, result.output
        assert len(result.output.splitlines()) == 1 and "events/s)." in result.output
        assert "#" not in result.output and "\r" not in result.output


def test_the_bar_counts_steps_and_shows_the_rate(capsys, monkeypatch):
    """In a terminal the bar goes to stderr with the rate beside it (stdout may be the log)."""
    import click

    from tracker import cli as commands

    shown = []
    real = click.progressbar

    def spy(**options):
        bar = real(**options)
        shown.append((options["label"], options["length"], options["file"], bar))
        return bar

    monkeypatch.setattr(click, "progressbar", spy)
    with commands._bar("Rebuilding", 10) as advance:
        advance(4)
        advance(6)
    label, length, file, bar = shown[0]
    assert (label, length, file) == ("Rebuilding", 10, __import__("sys").stderr)
    assert bar.pos == 10 and bar.current_item.endswith("/s")
