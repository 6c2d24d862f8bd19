"""Issue 19's concrete cases: a middle turn of a virtual-card Rocèt duel, running or finished, in
either deck mode, retracted through the service. The duel rewinds to just before that turn, so
the deck still holds its 36 cards (or 2 × 18), hands hold three, and no ending outlives what
supported it; a log holding a retraction made under the old rules rebuilds the same way."""
from __future__ import annotations

import pytest

from tests.conftest import fixed_context
from tracker import bootstrap
from tracker.domain.events import to_data
from tracker.projections import engine, queries, rebuild, schema
from tracker.rules import rocet
from tracker.rules.rocet.events import RocetCardsPlayed, RocetTurnResolved
from tracker.application.services import Service
from tracker.eventstore.store import dumps, write_transaction

STATS = {"rocet": {"des": "d8", "int": "d8", "pg_max": 40, "pm_max": 40, "weapons": "Ropera | Espada | 3"}}


def start(service: Service, deck: str, clock_size: int) -> str:
    campaign = service.handle({"type": "CreateCampaign", "name": "Rewinds", "ruleset": "rocet"}).key
    people = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                              "stats": STATS}).key for name in ("Inés", "Lope")]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": "Dawn"}).key
    return service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "kind": "relojes",
                           "clock_size": clock_size, "weapon_type": "Espada", "cards": "virtual", "deck": deck,
                           "duelists": [{"character_id": people[0], "side": "a"},
                                        {"character_id": people[1], "side": "b"}]}).key


def state(service: Service, duel: str) -> dict:
    return queries.duel(service.db, duel)["state"]


def do(service: Service, duel: str, kind: str, **fields):
    return service.handle({"type": kind, "duel_id": duel, "expected_version": service.version(f"duel-{duel}"),
                           **fields})


def play(service: Service, duel: str, turns: int, before: dict | None = None) -> dict[int, int]:
    """Side A wins every turn with its first card; the position of each turn's first event
    (and in ``before``, the state the duel stood in just before each turn)."""
    played, before = {}, {} if before is None else before
    while len(played) < turns and not state(service, duel)["outcome"]:
        now = state(service, duel)
        if now["pending_discard"]:
            side = now["pending_discard"]
            do(service, duel, "Discard", side=side, card=now["sides"][side]["hand"][0])
        elif (now["pending_damage"] or {}).get("win"):
            do(service, duel, "DeclineDamage")
        else:
            outcome = do(service, duel, "PlayTurn", card_a=now["sides"]["a"]["hand"][0],
                         card_b=now["sides"]["b"]["hand"][0], dice_a=[7, 6], dice_b=[1, 2])
            played[now["turn"] + 1] = outcome.events[0].position
            before[now["turn"] + 1] = now
    return played


def snapshot(db) -> dict:
    return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for table in schema.TABLES}


def assert_whole(service: Service, duel: str) -> dict:
    now = state(service, duel)
    assert rocet.invariants(now) == []
    incremental = snapshot(service.db)
    rebuild.rebuild(service.db, service.store)
    assert snapshot(service.db) == incremental
    return now


@pytest.fixture
def service(db):
    return bootstrap.service(db, fixed_context())


@pytest.mark.parametrize("deck", ["shared", "own"])
def test_retracting_turn_2_of_6_of_a_running_duel_rewinds_it(service, deck):
    duel = start(service, deck, clock_size=24)
    stood = {}
    turns = play(service, duel, 6, stood)
    assert state(service, duel)["turn"] == 6 and not state(service, duel)["outcome"]

    retraction = service.handle({"type": "RetractEvent", "position": turns[2], "reason": "misread",
                                 "expected_version": service.version(f"duel-{duel}")})

    data = retraction.events[0].data
    assert data["scope"] == "rewind" and data["consequences"][-1] == retraction.events[0].version - 1
    now = assert_whole(service, duel)
    assert now == stood[2]  # exactly as it stood before turn 2
    play(service, duel, 3)  # the GM logs again from there
    assert_whole(service, duel)


@pytest.mark.parametrize("deck", ["shared", "own"])
def test_retracting_a_middle_turn_of_a_finished_duel_undoes_the_win(service, deck):
    duel = start(service, deck, clock_size=12)
    stood = {}
    turns = play(service, duel, 20, stood)
    finished = state(service, duel)
    assert finished["outcome"]["ending"] == "clock" and len(turns) >= 6

    service.handle({"type": "RetractEvent", "position": turns[2], "expected_version": service.version(f"duel-{duel}")})

    now = assert_whole(service, duel)
    assert now == stood[2] and now["outcome"] is None
    assert queries.duel(service.db, duel)["status"] == "running"
    log = queries.log_page(service.db, now["campaign_id"], subject=f"duel-{duel}")["entries"]
    assert str(log[0]["summary"]).startswith("Retracted: ") and "events after it" in log[0]["summary"]
    assert all(e["retracted_by"] for e in log[1:] if e["version"] >= 1 + min(
        r.version for r in service.store.read_stream(f"duel-{duel}") if r.position == turns[2]))


def test_retracting_the_last_command_takes_back_only_it(service):
    duel = start(service, "shared", clock_size=24)
    turns = play(service, duel, 3)
    retraction = service.handle({"type": "RetractEvent", "position": turns[3],
                                 "expected_version": service.version(f"duel-{duel}")})
    assert retraction.events[0].data["scope"] == "event"
    assert assert_whole(service, duel)["turn"] == 2


# --- a log written under the old rules --------------------------------------------------------

def append_raw(service: Service, stream: str, rows: list[tuple[str, int, dict]], decision: int | None = None):
    """Append (type, schema, data) rows as an older Touché wrote them, and project them."""
    version = service.store.version(stream)
    campaign = service.state_of(stream)[1]["campaign_id"]
    meta = dumps({"campaign_id": campaign, "actor": "", "decision": decision or version + 1})
    with write_transaction(service.db):
        recorded = service.store.append_rows([(stream, version + i, kind, schema_, dumps(data), meta, None)
                                              for i, (kind, schema_, data) in enumerate(rows, start=1)])
        projector = engine.Projector(service.db, service.store)
        projector.apply_all(recorded)
        projector.flush()
    return recorded


@pytest.mark.parametrize("deck", ["shared", "own"])
def test_an_old_retraction_of_a_middle_turn_reads_as_a_rewind(service, deck):
    duel = start(service, deck, clock_size=24)
    turns = play(service, duel, 6)
    stream = f"duel-{duel}"
    target = next(r for r in service.store.read_stream(stream) if r.position == turns[2])
    group = [r.version for r in service.store.read_stream(stream)
             if r.metadata["decision"] == target.metadata["decision"]]
    # Schema 1, as the old rules wrote it: the turn's own events only, turns 3 to 6 left standing.
    append_raw(service, stream, [("EventRetracted", 1, {
        "version": target.version, "retracted_type": target.type, "reason": "old",
        "consequences": [v for v in group if v != target.version]})])

    now = assert_whole(service, duel)
    assert now["turn"] == 1
    log = {e["version"]: e for e in queries.log_page(service.db, now["campaign_id"], subject=stream,
                                                     limit=500)["entries"]}
    assert all(log[v]["retracted_by"] for v in range(target.version, max(log)))

    # A command the old rules decided on the old reading no longer fits: it is left out whole.
    first_turn = [r for r in service.store.read_stream(stream) if r.type in ("RocetCardsPlayed",
                                                                             "RocetTurnResolved")]
    played, resolved = first_turn[-2].event, first_turn[-1].event
    assert isinstance(played, RocetCardsPlayed) and isinstance(resolved, RocetTurnResolved)
    stale = append_raw(service, stream, [("RocetCardsPlayed", 1, dict(to_data(played), turn=2)),
                                         ("RocetTurnResolved", 1, dict(to_data(resolved), turn=2))])
    now = assert_whole(service, duel)
    assert now["turn"] == 1
    lines = {e["version"]: e for e in queries.log_page(service.db, now["campaign_id"], subject=stream,
                                                       limit=500)["entries"]}
    for rec in stale:
        assert lines[rec.version]["retracted_by"] and "left out" in lines[rec.version]["summary"]
    play(service, duel, 2)  # and the duel goes on from the rewound state
    assert assert_whole(service, duel)["turn"] == 3
