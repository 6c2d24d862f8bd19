"""Retractions written before schema 2 (issue 19): read as the rules read a retraction now."""
from tests.conftest import fixed_context
from tracker.domain.events import from_data
from tracker.projections import engine, queries, rebuild, schema
from tracker.application.services import Service
from tracker.eventstore.store import dumps, write_transaction
from tracker.domain.workspace import EventRetracted


def append_old_retraction(service: Service, stream: str, version: int, retracted_type: str,
                          consequences: list[int]) -> None:
    """A schema-1 EventRetracted, as the old rules wrote it, projected like any append."""
    state = service.state_of(stream)[1]
    meta = dumps({"campaign_id": state.get("campaign_id", state.get("id")), "actor": "",
                  "decision": service.store.version(stream) + 1})
    data = {"version": version, "retracted_type": retracted_type, "reason": "old", "consequences": consequences}
    with write_transaction(service.db):
        recorded = service.store.append_rows([(stream, service.store.version(stream) + 1, "EventRetracted", 1,
                                               dumps(data), meta, None)])
        projector = engine.Projector(service.db, service.store)
        projector.apply_all(recorded)
        projector.flush()


def snapshot(db) -> dict:
    return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for table in schema.TABLES}


def test_schema_1_is_upcast_to_a_legacy_scope():
    old = {"version": 4, "retracted_type": "CoinTurnPlayed", "reason": "", "consequences": [5]}
    assert from_data("EventRetracted", old, schema=1) == EventRetracted(
        version=4, retracted_type="CoinTurnPlayed", consequences=(5,), scope="legacy")


def test_an_old_retraction_outside_a_duel_reads_as_recorded(table):
    ines = table.character("Inés", hp=10)
    table.service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés the Unbeaten", "rank": "pj",
                          "stats": {"coin": {"hp": 10}}, "expected_version": 1})
    table.service.handle({"type": "EditCharacter", "character_id": ines, "name": "Inés de Ayala", "rank": "pj",
                          "stats": {"coin": {"hp": 12}}, "expected_version": 2})
    append_old_retraction(table.service, f"character-{ines}", 2, "CharacterEdited", [])
    sheet = queries.character(table.service.db, ines)
    assert sheet["name"] == "Inés de Ayala"  # the later edit stands: character edits are independent
    live = snapshot(table.service.db)
    rebuild.rebuild(table.service.db, table.service.store)
    assert snapshot(table.service.db) == live


def test_an_old_retraction_in_a_duel_reads_as_a_rewind(table):
    ines, lope = table.character("Inés", hp=10), table.character("Lope", hp=10)
    duel = table.duel(ines, lope, hits=3)
    for a, b in ((6, 1), (5, 2), (1, 4)):
        table.play(duel, a, b)
    append_old_retraction(table.service, f"duel-{duel}", 2, "CoinTurnPlayed", [])  # turn 1, turns 2-3 kept
    state = queries.duel(table.service.db, duel)["state"]
    assert state["turns"] == 0 and state["hits"] == {"a": 0, "b": 0} and state["wounds"] == []
    table.play(duel, 2, 3)  # the GM goes on from the rewound duel
    live = snapshot(table.service.db)
    rebuild.rebuild(table.service.db, table.service.store)
    assert snapshot(table.service.db) == live
    assert queries.duel(table.service.db, duel)["state"]["hits"] == {"a": 0, "b": 1}
