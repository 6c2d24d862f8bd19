"""The command line speaks TOUCHE_LANG, else the terminal's locale when Touché speaks it, else English."""
import pytest

from tests.integration.test_cli import cli, filled  # noqa: F401 (fixture)
from tracker.cli import language as cli_language


@pytest.mark.parametrize("environ, expected", [
    ({}, "en"),
    ({"LANG": "es_ES.UTF-8"}, "es"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "es_ES.UTF-8"}, "en"),  # LC_ALL wins, as for every program
    ({"LC_MESSAGES": "es_MX", "LANG": "en_US"}, "es"),
    ({"TOUCHE_LANG": "es", "LC_ALL": "en_US.UTF-8"}, "es"),
    ({"TOUCHE_LANG": "klingon", "LANG": "es_ES"}, "es"),  # a language Touché does not speak is no choice
])
def test_the_command_lines_language(environ, expected):
    assert cli_language.language(environ) == expected


def test_messages_in_spanish(filled, monkeypatch, tmp_path):  # noqa: F811 (fixture)
    monkeypatch.setenv("TOUCHE_LANG", "es")
    rebuilt = cli(filled).invoke(args=["rebuild"])
    assert rebuilt.exit_code == 0 and rebuilt.output.startswith("Modelos de lectura reconstruidos a partir de ")
    assert "eventos/s" in rebuilt.output
    out = tmp_path / "log.jsonl"
    exported = cli(filled).invoke(args=["export-log", str(out)])
    assert exported.output.startswith("Exportados ") and f"eventos a {out}" in exported.output
    refused = cli(filled).invoke(args=["import-log", str(out)])
    assert refused.exit_code == 1
    assert "Error: la base de datos ya contiene eventos: importa en una vacía" in refused.output
    assert "ya contiene eventos: no se añade la demostración" in cli(filled).invoke(args=["demo", "--if-empty"]).output
    missing = cli(filled).invoke(args=["issue-token", "nadie"])
    assert "ningún DJ tiene el nombre de usuario 'nadie'" in missing.output


def test_an_import_refusal_names_its_line_in_spanish(tmp_path, monkeypatch):
    monkeypatch.setenv("TOUCHE_LANG", "es")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "touche-log/2", "events": 3, "hash": ""}\n')
    refused = cli(str(tmp_path / "empty.db")).invoke(args=["import-log", str(bad)])
    assert refused.exit_code == 1
    assert "línea 1: el archivo termina diciendo 3 eventos, pero contiene 0" in refused.output


def test_messages_in_english_by_default(filled, monkeypatch):  # noqa: F811 (fixture)
    monkeypatch.setenv("TOUCHE_LANG", "en")
    assert cli(filled).invoke(args=["rebuild"]).output.startswith("Rebuilt the read models from ")


def test_a_demo_seeded_in_spanish_reads_as_a_gm_would_type_it(tmp_path, monkeypatch):
    from tracker.bootstrap.db import open_db

    monkeypatch.setenv("TOUCHE_LANG", "es")
    path = str(tmp_path / "demo.db")
    assert cli(path).invoke(args=["init-db"]).exit_code == 0
    seeded = cli(path).invoke(args=["demo"])
    assert seeded.output.startswith("Campaña de demostración creada: /campaigns/")
    db = open_db(path)
    assert db.execute("SELECT title, notes FROM sessions").fetchone() == (
        "Espadas al alba", "Tres rivalidades llegan a su punto álgido.")
    db.close()
