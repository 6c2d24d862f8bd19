"""Nothing lapses silently: Rocèt damage left on offer when the next turn is played is recorded as
declined, and the log and every recap say so."""
import pytest

from tracker import recap
from tracker.projections.words import read

ROCET = {"des": 8, "int": 8, "pg_max": 40, "pm_max": 30, "weapons": "Ropera | Espada | 3"}


def _duel_with_damage_on_offer(service):
    campaign = service.handle({"type": "CreateCampaign", "name": "Season", "ruleset": "rocet"}).key
    ines, lope = (service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                                  "stats": {"rocet": ROCET}}).key for name in ("Inés", "Lope"))
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": "Dawn"}).key
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "cards": "physical",
                           "weapon_type": "Espada", "duelists": [{"character_id": ines, "side": "a"},
                                                                 {"character_id": lope, "side": "b"}]}).key

    def turn(card_a, card_b, a, b):
        return service.handle({"type": "PlayTurn", "duel_id": duel, "card_a": card_a, "card_b": card_b,
                               "dice_a": a, "dice_b": b, "expected_version": service.version(f"duel-{duel}")})

    turn("Estocada Alta", "Estocada Alta", [8, 7], [1, 2])  # Inés wins an attack: damage on offer
    return session, duel, turn


def test_the_log_and_the_recap_say_the_damage_was_not_dealt(service):
    session, duel, turn = _duel_with_damage_on_offer(service)
    played_on = turn("Treta", "Treta", [1, 2], [8, 7])      # the GM plays on without dealing it
    assert played_on.events[0].type == "RocetDamageDeclined" and played_on.events[0].event.lapsed
    lines = [read(row[0]) for row in service.db.execute("SELECT summary FROM log_entries WHERE stream = ?",
                                                        [f"duel-{duel}"])]
    said = "Inés did not deal the damage on offer: the next turn was played, so it counts as declined."
    assert said in lines
    for audience in ("gm", "players"):
        assert said in recap.render(recap.build(service.db, session, audience), "md")


@pytest.mark.parametrize("ending", [{"type": "Yield", "side": "b"}, {"type": "Abandon", "reason": "the watch"},
                                    {"type": "Disqualify", "side": "b"}])
def test_an_ending_that_leaves_damage_on_offer_records_it_as_declined_first(service, ending):
    session, duel, _ = _duel_with_damage_on_offer(service)
    ended = service.handle({**ending, "duel_id": duel, "expected_version": service.version(f"duel-{duel}")})
    declined = ended.events[0].event
    assert ended.events[0].type == "RocetDamageDeclined" and declined.ended and not declined.lapsed
    assert ended.events[1].type.startswith("Duel")
    lines = [read(row[0]) for row in service.db.execute("SELECT summary FROM log_entries WHERE stream = ?",
                                                        [f"duel-{duel}"])]
    said = "Inés did not deal the damage on offer: the duel ended, so it counts as declined."
    assert said in lines
    assert said in recap.render(recap.build(service.db, session, "gm"), "md")


def test_an_ending_with_nothing_on_offer_records_only_the_ending(service):
    session, duel, turn = _duel_with_damage_on_offer(service)
    service.handle({"type": "DeclineDamage", "duel_id": duel, "expected_version": service.version(f"duel-{duel}")})
    ended = service.handle({"type": "Yield", "side": "b", "duel_id": duel,
                            "expected_version": service.version(f"duel-{duel}")})
    assert [e.type for e in ended.events] == ["DuelYielded"]
