"""Moving an install from SQLite to PostgreSQL and back with the command line (docs/scaling.md):
``export-log`` on one, ``import-log`` on the other. Each export is byte for byte the first, and
the read models rebuilt on PostgreSQL hold what SQLite's hold, row for row."""
import pytest

from bench.corpus import template
from tests.integration.test_projections import snapshot
from tracker import create_app
from tracker.backup import import_lines
from tracker.bootstrap.db import open_db

pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


def cli(database):
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "one install"}).test_cli_runner()


def test_sqlite_to_postgresql_and_back_gives_the_same_export(new_database, tmp_path):
    sqlite_first, postgresql, sqlite_again = str(tmp_path / "first.db"), new_database(), str(tmp_path / "again.db")
    db = open_db(sqlite_first)
    import_lines(db, template(duels=9, max_actions=40))  # duels of every shipped ruleset, retractions too
    db.close()

    exports = [tmp_path / f"{n}.jsonl" for n in ("sqlite", "postgresql", "sqlite-again")]
    assert cli(sqlite_first).invoke(args=["export-log", str(exports[0])]).exit_code == 0
    for source, target, export in ((exports[0], postgresql, exports[1]), (exports[1], sqlite_again, exports[2])):
        result = cli(target).invoke(args=["import-log", str(source)])
        assert result.exit_code == 0, result.output
        assert cli(target).invoke(args=["export-log", str(export)]).exit_code == 0
    assert exports[0].read_bytes() == exports[1].read_bytes() == exports[2].read_bytes()
    assert len(exports[0].read_bytes().splitlines()) > 100

    on_sqlite, on_postgresql = open_db(sqlite_first), open_db(postgresql)
    try:
        assert snapshot(on_postgresql) == snapshot(on_sqlite)
    finally:
        on_sqlite.close()
        on_postgresql.close()
