"""Projections: a rebuild from the log alone gives exactly what incremental updates gave,
and a retraction makes every read model behave as if the event never happened."""
import random

import orjson

import pytest

from tracker.projections import queries, schema
from tracker.projections.rebuild import rebuild
from tracker.rules.base import Refused

pytestmark = pytest.mark.both_backends  # the same tests on SQLite and on PostgreSQL


def snapshot(db):
    """Every read model, row for row, in a stable order."""
    tables = {}
    for table in schema.TABLES:
        rows = db.execute(f"SELECT * FROM {table}").fetchall()
        tables[table] = sorted(rows, key=repr)
    return tables


def intact(db) -> bool:
    """The database file passes SQLite's own check (PostgreSQL checks its pages as it reads them)."""
    from tracker.eventstore import dialect

    return dialect.is_pg(db) or db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def play_a_long_campaign(table, turns=120, seed=3):
    rng = random.Random(seed)
    heroes = [table.character(f"Hero {i}", hp=rng.randint(8, 20)) for i in range(4)]
    villains = [table.character(f"Villain {i}", hp=rng.randint(8, 20), rank="villano") for i in range(3)]
    duels = []
    for turn in range(turns):
        if not duels or rng.random() < 0.08:
            duels.append(table.duel(rng.choice(heroes), rng.choice(villains), hits=rng.randint(2, 4)))
        duel_id = rng.choice(duels)
        if queries.duel(table.service.db, duel_id)["status"] == "over":
            continue
        outcome = table.play(duel_id, rng.randint(1, 6), rng.randint(1, 6))
        if rng.random() < 0.1:
            table.service.handle({"type": "RetractEvent", "position": outcome.events[0].position,
                                  "reason": "misread the die",
                                  "expected_version": table.version(f"duel-{duel_id}")})
        if rng.random() < 0.05:
            who = rng.choice(heroes)
            table.service.handle({"type": "EditCharacter", "character_id": who, "name": f"Renamed {turn}",
                                  "rank": "pj", "stats": {"coin": {"hp": 15}},
                                  "expected_version": table.version(f"character-{who}")})
    return duels


def test_rebuild_equals_incremental_row_for_row(table):
    play_a_long_campaign(table)
    db = table.service.db
    incremental = snapshot(db)
    assert sum(len(rows) for rows in incremental.values()) > 300
    rebuild(db, table.service.store)
    assert snapshot(db) == incremental


def test_retracting_a_turn_recomputes_the_duel_and_the_sheets(table):
    ines, lope = table.character("Inés", hp=10), table.character("Lope", hp=10, rank="villano")
    duel_id = table.duel(ines, lope, hits=2)
    table.play(duel_id, 6, 2)                       # Inés hits for 4
    misread = table.play(duel_id, 5, 1)             # Inés hits for 4 and wins
    assert queries.duel(table.service.db, duel_id)["status"] == "over"

    table.service.handle({"type": "RetractEvent", "position": misread.events[0].position,
                          "reason": "it was a 1, not a 5", "expected_version": table.version(f"duel-{duel_id}")})

    db = table.service.db
    duel = queries.duel(db, duel_id)
    assert duel["status"] == "running" and duel["state"]["hits"] == {"a": 1, "b": 0}
    assert queries.character_sheet(db, lope)["tracks"][0]["current"] == 6
    log = queries.log_page(db, table.campaign, subject=f"duel-{duel_id}")["entries"]
    assert log[0]["summary"] == "Retracted: Turn 2: 5 vs 1. — it was a 1, not a 5"
    assert [e["retracted_by"] is not None for e in log] == [False, True, True, False, False]

    table.play(duel_id, 1, 3)                       # the duel goes on from the corrected state
    assert queries.character_sheet(db, ines)["tracks"][0]["current"] == 8


def test_retracting_an_edit_restores_the_sheet(table):
    ines = table.character("Inés", hp=10)
    edit = table.service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés de Ayala",
                                 "rank": "pj", "stats": {"coin": {"hp": 14}}, "expected_version": 1})
    table.service.handle({"type": "RetractEvent", "position": edit.events[0].position, "expected_version": 2})
    sheet = queries.character_sheet(table.service.db, ines)
    assert sheet["character"]["name"] == "Inés" and sheet["tracks"][0]["max"] == 10


@pytest.mark.parametrize("what", ["creation", "retraction", "twice"])
def test_some_retractions_are_refused_with_the_reason(table, what):
    ines = table.character("Inés")
    edit = table.service.handle({"type": "EditCharacter", "character_id": ines, "name": "I", "rank": "pj",
                                 "expected_version": 1})
    retraction = table.service.handle({"type": "RetractEvent", "position": edit.events[0].position,
                                       "expected_version": 2})
    target = {"creation": 1 + 0, "retraction": retraction.events[0].position,
              "twice": edit.events[0].position}[what]
    target = table.service.store.read_stream(f"character-{ines}")[0].position if what == "creation" else target
    before = table.service.store.last_position()
    with pytest.raises(Refused) as refused:
        table.service.handle({"type": "RetractEvent", "position": target, "expected_version": 3})
    assert str(refused.value.reason).startswith(("cannot retract", "that event is already retracted"))
    assert table.service.store.last_position() == before


def test_pages_read_projections_not_the_log(table, monkeypatch):
    ines, lope = table.character("Inés"), table.character("Lope")
    table.duel(ines, lope)
    from tracker.eventstore.store import EventStore

    def no_replay(*args, **kwargs):
        raise AssertionError("a read replayed the log")

    monkeypatch.setattr(EventStore, "read_all", no_replay)
    monkeypatch.setattr(EventStore, "read_stream", no_replay)
    queries.character_sheet(table.service.db, ines)
    queries.log_page(table.service.db, table.campaign)


def test_rebuild_equals_incremental_for_every_shipped_ruleset(new_database):
    """Duels of every shipped ruleset played at random: the rebuild (batched reads, late indexes,
    each duel's events kept for its history) leaves what the live projector left, row for row."""
    from bench.corpus import template
    from tracker.backup import import_lines
    from tracker.bootstrap.db import open_db
    from tracker.eventstore.store import EventStore, write_transaction

    lines = template(duels=9, max_actions=40)
    db = open_db(new_database("played"))
    import_lines(db, lines)  # imported, hence rebuilt; now replay it live, command by command
    rebuilt = snapshot(db)
    live = open_db(new_database("live"))
    from tracker.projections.engine import Projector
    store = EventStore(db)
    for rec in store.read_all():
        with write_transaction(live):
            live.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         [rec.position, rec.stream, rec.version, rec.type, rec.schema,
                          orjson.dumps(rec.data, option=orjson.OPT_SORT_KEYS).decode(),
                          orjson.dumps(rec.metadata, option=orjson.OPT_SORT_KEYS).decode(), None])
            projector = Projector(live, EventStore(live))
            projector.apply(rec)
            projector.flush()
    assert sum(len(rows) for rows in rebuilt.values()) > 1000
    assert snapshot(live) == rebuilt
    from tracker.projections.rebuild import rebuild as rebuild_in_parts

    rebuild_in_parts(db, store, parts=2)  # the same log in two processes, every ruleset's rows merged
    assert snapshot(db) == rebuilt


def test_each_duel_line_is_what_its_ruleset_describes(new_database):
    """The log line of a duel's event is its ruleset's ``describe`` from the state before it
    (a rebuild takes the line the fold already told instead of describing twice)."""
    from bench.corpus import template
    from tracker.backup import import_lines
    from tracker.bootstrap.db import open_db
    from tracker.projections.engine import describe
    from tracker.projections.replay import category, fold
    from tracker.projections.words import read
    from tracker.eventstore.store import EventStore

    db = open_db(new_database("played"))
    import_lines(db, template(duels=11, max_actions=40))
    lines = {position: read(summary) for position, summary in db.execute("SELECT position, summary FROM log_entries")}
    states, checked = {}, 0
    for rec in EventStore(db).read_all():
        kind = category(rec.stream)
        before = states.get(rec.stream)
        states[rec.stream] = fold(kind, before, rec.event, rec.version)
        assert lines[rec.position] == describe(kind, before, rec.event), rec
        checked += kind == "duel"
    assert checked > 300


@pytest.mark.sqlite_only  # the parts fold into SQLite scratch files; PostgreSQL rebuilds in one
@pytest.mark.parametrize("parts", [2, 3])
def test_a_rebuild_in_parallel_parts_equals_incremental_row_for_row(table, parts, monkeypatch):
    """The streams dealt into parts, each part but the first folded by its own process into a
    scratch database and merged in: the same rows as the live projector left, with retractions,
    an old (schema 1) retraction in a duel, and a restored retraction in the log."""
    from tests.integration.test_old_retractions import append_old_retraction
    from tracker.projections import rebuild as parallel

    children, part = [], parallel._Part
    monkeypatch.setattr(parallel, "_Part", lambda *args: children.append(part(*args)) or children[-1])

    play_a_long_campaign(table)
    ines, lope = table.character("Inés", hp=10), table.character("Lope", hp=10)
    duel = table.duel(ines, lope, hits=3)
    for a, b in ((6, 1), (5, 2), (1, 4)):
        table.play(duel, a, b)
    append_old_retraction(table.service, f"duel-{duel}", 2, "CoinTurnPlayed", [])
    table.play(duel, 2, 3)
    edit = table.service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés de Ayala",
                                 "rank": "pj", "expected_version": table.version(f"character-{ines}")})
    retraction = table.service.handle({"type": "RetractEvent", "position": edit.events[0].position,
                                       "expected_version": table.version(f"character-{ines}")})
    table.service.handle({"type": "RestoreRetraction", "position": retraction.events[0].position,
                          "expected_version": table.version(f"character-{ines}")})
    db = table.service.db
    kinds = dict(db.execute("SELECT type, COUNT(*) FROM log_entries GROUP BY type").fetchall())
    assert kinds["EventRetracted"] > 2 and kinds["RetractionRestored"] == 1
    incremental = snapshot(db)
    told = []
    count = parallel.rebuild(db, table.service.store, told.append, parts=parts)
    assert snapshot(db) == incremental
    assert len(children) == parts - 1 and all(child.process.returncode == 0 for child in children)
    assert sum(told) == count == table.service.store.last_position()


@pytest.mark.sqlite_only
def test_a_part_that_fails_fails_the_whole_rebuild_and_leaves_the_read_models_as_they_were(table, monkeypatch):
    """A part whose process finds another log than the parent's (here: told to expect one more
    event) stops; the rebuild raises and rolls back, the read models untouched."""
    from tracker.projections import rebuild as parallel

    play_a_long_campaign(table, turns=30)
    db = table.service.db
    before = snapshot(db)
    part = parallel._Part
    monkeypatch.setattr(parallel, "_Part", lambda source, base, streams, expected:
                        part(source, base, streams, (expected[0], expected[1] + 1)))
    with pytest.raises(RuntimeError, match="the log changed under the rebuild"):
        parallel.rebuild(db, table.service.store, parts=2)
    assert snapshot(db) == before
    assert not db.conn.in_transaction
