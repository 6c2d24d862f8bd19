"""Recovery and adjustments as events on the character's stream: the sheet's points follow them,
a retraction takes one back, a restore puts a mistaken retraction back, a rebuild agrees."""
import pytest

from tracker.projections import queries
from tracker.projections.rebuild import rebuild
from tracker.rules.base import Invalid, Refused

from tests.integration.test_projections import snapshot


def hp(table, who):
    sheet = queries.character_sheet(table.service.db, who)
    return next(t["current"] for t in sheet["tracks"] if t["track"] == "HP")


def wounded(table, hp_max=10):
    """Inés, hit twice in a coin duel: 10 - 4 - 3 = 3 HP."""
    ines, lope = table.character("Inés", hp=hp_max), table.character("Lope", hp=10, rank="villano")
    duel_id = table.duel(ines, lope, hits=3)
    table.play(duel_id, 2, 6)
    table.play(duel_id, 1, 4)
    return ines, lope, duel_id


def test_a_rest_gives_back_what_the_ruleset_says_and_never_past_the_maximum(table):
    ines, _, _ = wounded(table)
    assert hp(table, ines) == 3
    rest = table.service.handle({"type": "RecoverCharacter", "character_id": ines, "ruleset": "coin"})
    assert rest.events[0].type == "CharacterRecovered"
    assert rest.events[0].event.changes == {"HP": 3}
    assert hp(table, ines) == 6
    table.service.handle({"type": "RecoverCharacter", "character_id": ines, "ruleset": "coin"})
    last = table.service.handle({"type": "RecoverCharacter", "character_id": ines, "ruleset": "coin"})
    assert last.events[0].event.changes == {"HP": 1}  # 9 -> 10, not 12
    assert hp(table, ines) == 10


def test_an_adjustment_moves_one_track_with_its_reason_and_stays_in_bounds(table):
    ines, _, _ = wounded(table)
    table.service.handle({"type": "AdjustTrack", "character_id": ines, "ruleset": "coin", "track": "HP",
                          "amount": 2, "reason": "healed by the cleric"})
    assert hp(table, ines) == 5
    sheet = queries.character_sheet(table.service.db, ines)
    assert [(c["track"], c["amount"], c["kind"], c["note"]) for c in sheet["changes"]] == [
        ("HP", 2, "adjustment", "healed by the cleric")]
    with pytest.raises(Refused) as too_much:
        table.service.handle({"type": "AdjustTrack", "character_id": ines, "ruleset": "coin", "track": "HP",
                              "amount": 6, "reason": "a miracle"})
    assert too_much.value.reason == "HP is 5/10: it can change by -5 to +5"
    with pytest.raises(Invalid) as blank:
        table.service.handle({"type": "AdjustTrack", "character_id": ines, "ruleset": "coin", "track": "HP",
                              "amount": 0, "reason": ""})
    assert blank.value.errors == {"amount": "must not be 0", "reason": "is required: say why (it shows on the sheet)"}


def test_retracting_a_rest_takes_its_points_back_and_a_restore_puts_them_back(table):
    ines, _, _ = wounded(table)
    rest = table.service.handle({"type": "RecoverCharacter", "character_id": ines, "ruleset": "coin"})
    stream = f"character-{ines}"
    retraction = table.service.handle({"type": "RetractEvent", "position": rest.events[0].position,
                                       "reason": "they fought on", "expected_version": table.version(stream)})
    assert hp(table, ines) == 3
    assert queries.character_sheet(table.service.db, ines)["changes"] == []
    restored = table.service.handle({"type": "RestoreRetraction", "position": retraction.events[0].position,
                                     "expected_version": table.version(stream)})
    assert restored.events[0].type == "RetractionRestored"
    assert hp(table, ines) == 6
    with pytest.raises(Refused, match="already restored"):
        table.service.handle({"type": "RestoreRetraction", "position": retraction.events[0].position,
                              "expected_version": table.version(stream)})
    lines = dict(table.service.db.execute("SELECT position, retracted_by FROM log_entries WHERE stream = ?", [stream]))
    assert lines[rest.events[0].position] is None  # standing again
    assert lines[retraction.events[0].position] == restored.events[0].position  # the retraction is undone


def test_the_whole_party_rests_at_the_end_of_a_session(table):
    ines, lope, _ = wounded(table)
    bystander = table.character("Nadie", hp=10, rank="minor")
    table.service.handle({"type": "RestParty", "session_id": table.session})
    rested = {row[0] for row in table.service.db.execute(
        "SELECT stream FROM events WHERE type = 'CharacterRecovered'")}
    assert rested == {f"character-{ines}", f"character-{lope}"}  # the PJ, and the villain who duelled
    assert f"character-{bystander}" not in rested
    assert hp(table, ines) == 6


def test_rebuild_agrees_with_rests_adjustments_retractions_and_restores(table):
    ines, _, _ = wounded(table)
    rest = table.service.handle({"type": "RecoverCharacter", "character_id": ines, "ruleset": "coin"})
    table.service.handle({"type": "AdjustTrack", "character_id": ines, "ruleset": "coin", "track": "HP",
                          "amount": -1, "reason": "a forgotten +1"})
    stream = f"character-{ines}"
    retraction = table.service.handle({"type": "RetractEvent", "position": rest.events[0].position + 1,
                                       "expected_version": table.version(stream)})
    table.service.handle({"type": "RestoreRetraction", "position": retraction.events[0].position,
                          "expected_version": table.version(stream)})
    table.service.handle({"type": "RestParty", "session_id": table.session})
    db = table.service.db
    before = snapshot(db)
    rebuild(db, table.service.store)
    assert snapshot(db) == before


def test_a_rested_character_starts_the_next_duel_with_the_points_back(table):
    ines, lope, _ = wounded(table)
    table.service.handle({"type": "RecoverCharacter", "character_id": ines, "ruleset": "coin"})
    duel_id = table.duel(ines, lope)
    started = queries.duel(table.service.db, duel_id)["state"]["duelists"]
    assert next(d for d in started if d["id"] == ines)["current"] == {"HP": 6}
