"""Time travel by turn and round: each ruleset's ``step_of`` groups a duel's commands into turns
(Rocèt turns, pirate exchanges, PF2e rounds and turns, the coin ruleset's turns), retractions
leave no step, and the page steps turn by turn with the raw events one click away."""
import re

from tests.integration.test_timetravel import gm_service, play_turn, rocet_duel  # noqa: F401  (fixture)
from tests.coin_ruleset import CoinTurnPlayed, headline, step_of
from tracker.projections.timetravel import Memo, around, steps
from tracker.rules.contract import Step
from tracker.eventstore.store import EventStore

SEELAH = dict(level=3, hp_max=40, ac=20, attack_bonus=10, weapon="Longsword", damage="1d8+4",
              deception=7, deception_rank="trained", intimidation=9, intimidation_rank="expert",
              perception=8, perception_rank="trained")


def pf2e_duel(service):
    campaign = service.handle({"type": "CreateCampaign", "name": "Absalom", "ruleset": "pf2e"}).key
    people = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                              "stats": {"pf2e": SEELAH}}).key for name in ("Seelah", "Amiri")]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": "Bazaar"}).key
    return service.handle({"type": "StartDuel", "session_id": session, "ruleset": "pf2e", "kind": "combat",
                           "victory": "knockout", "duelists": [{"character_id": people[0], "side": "a"},
                                                              {"character_id": people[1], "side": "b"}]}).key


def act(service, duel, kind, **fields):
    version = service.version(f"duel-{duel}")
    return service.handle({"type": kind, "duel_id": duel, "expected_version": version, **fields})


def labels(service, duel):
    return [(s["round"], s["turn"], s["first"], s["last"])
            for s in steps(EventStore(service.db), f"duel-{duel}", Memo())]


def test_a_pf2e_round_steps_by_initiative_and_each_turn(gm_service):
    duel = pf2e_duel(gm_service)
    act(gm_service, duel, "RollInitiative", dice_roll=[15, 5])  # 2 rolls + the order: events 2–4
    act(gm_service, duel, "Strike", dice_attack=[3])  # 13 vs 20: a miss (5)
    act(gm_service, duel, "Strike", dice_attack=[2], end_turn=True)  # a miss and the turn's end (6–7)
    act(gm_service, duel, "OtherAction", action="Stride", cost="1")  # 8
    act(gm_service, duel, "EndTurn")  # 9: round over
    act(gm_service, duel, "RollInitiative", dice_roll=[4, 12])  # 10–12
    assert labels(gm_service, duel) == [
        ("Start", "", 1, 1), ("Round 1", "initiative", 2, 4), ("Round 1", "Seelah's turn", 5, 7),
        ("Round 1", "Amiri's turn", 8, 9), ("Round 2", "initiative", 10, 12)]


def test_rocet_turns_hold_their_draws_and_damage_and_a_retraction_leaves_no_step(gm_service):
    duel = rocet_duel(gm_service)
    play_turn(gm_service, duel)
    play_turn(gm_service, duel)
    found = labels(gm_service, duel)
    assert [(r, t) for r, t, _, _ in found] == [("Start", ""), ("Turn 1", ""), ("Turn 2", "")]
    assert found[0][2] == 1 and found[1][2] == found[0][3] + 1 and found[2][2] == found[1][3] + 1
    last = found[-1]
    position = gm_service.db.execute("SELECT position FROM events WHERE stream = ? AND version = ?",
                                     [f"duel-{duel}", last[2]]).fetchone()[0]
    gm_service.handle({"type": "RetractEvent", "position": position,
                       "expected_version": gm_service.version(f"duel-{duel}"), "reason": "misread die"})
    assert [(r, t) for r, t, _, _ in labels(gm_service, duel)] == [("Start", ""), ("Turn 1", "")]


def test_around_names_the_turn_and_the_ends_of_the_turns_and_rounds_beside_it():
    found = [{"round": "Start", "turn": "", "first": 1, "last": 1},
             {"round": "Round 1", "turn": "initiative", "first": 2, "last": 4},
             {"round": "Round 1", "turn": "A's turn", "first": 5, "last": 7},
             {"round": "Round 2", "turn": "initiative", "first": 8, "last": 9}]
    here = around(found, 6)
    assert (here["step"]["turn"], here["prev_turn"], here["next_turn"]) == ("A's turn", 4, 7)
    assert (here["prev_round"], here["next_round"]) == (1, 7)
    here = around(found, 7)
    assert (here["prev_turn"], here["next_turn"], here["prev_round"], here["next_round"]) == (4, 9, 1, 9)
    here = around(found, 9)
    assert (here["next_turn"], here["next_round"], here["prev_round"]) == (None, None, 7)
    assert around([], 3)["step"] is None


def test_the_coin_ruleset_places_a_roll_in_the_next_turn_and_an_ending_in_the_last():
    state = {"turns": 2, "outcome": None}
    assert step_of(state, CoinTurnPlayed(roll_a=3, roll_b=1)) == Step("Turn 3")
    assert step_of(state, object()) == Step("Turn 2")
    story = headline({"outcome": {"ending": "hits"}}, [(2, CoinTurnPlayed(5, 2)), (3, CoinTurnPlayed(6, 1))])
    assert (story.decisive, story.biggest, story.criticals) == ("turn 2", "5 in turn 2", ("side a rolled a 6 in turn 2",))


def test_the_page_steps_turn_by_turn_with_the_raw_events_one_click_away(client, gm_service):
    duel = pf2e_duel(gm_service)
    act(gm_service, duel, "RollInitiative", dice_roll=[15, 5])
    act(gm_service, duel, "Strike", dice_attack=[3], end_turn=True)
    act(gm_service, duel, "EndTurn")
    page = client.get(f"/duels/{duel}/travel?at=4").text
    assert "<strong>Round 1</strong> · initiative" in page
    assert re.search(rf'id="tt-next-turn"[^>]*href="/duels/{duel}/travel\?at=6"', page)
    assert re.search(rf'id="tt-prev-turn"[^>]*href="/duels/{duel}/travel\?at=1"', page)
    assert re.search(rf'id="tt-next-round"[^>]*href="/duels/{duel}/travel\?at=7"', page)
    assert re.findall(r'id="tt-t(\d+)"', page) == ["1", "4", "6", "7"]
    assert "Seelah&#39;s turn" in page or "Seelah's turn" in page
    # The raw events: folded away while the step is shown whole, one click (the summary) away.
    assert '<details class="tt-raw">' in page and '<details class="panel tt-events">' in page
    assert 'id="tt-e3"' in page
    mid = client.get(f"/duels/{duel}/travel?at=3").text  # inside a step: the raw events open
    assert '<details class="panel tt-events" open>' in mid and "(event 3 of 2–4)" in mid


def test_a_note_on_the_moment_shown_from_time_travel(client, gm_service):
    duel = pf2e_duel(gm_service)
    act(gm_service, duel, "RollInitiative", dice_roll=[15, 5])
    page = client.get(f"/duels/{duel}/travel?at=4").text
    assert "Add a note on initiative" in page and 'name="about" value="4"' in page
    response = client.post(f"/duels/{duel}/notes", data={"about": "4", "text": "Both went for Intimidation."})
    assert response.status_code == 302
    notes = gm_service.state_of(f"duel-{duel}")[1]["notes"]
    assert notes == [{"at": 5, "about": 4, "text": "Both went for Intimidation.", "public": False}]
    # The note is a command of its own, placed in the turn it was written in (Seelah's, just begun).
    assert [(r, t) for r, t, _, _ in labels(gm_service, duel)] == [("Start", ""), ("Round 1", "initiative"),
                                                                    ("Round 1", "Seelah's turn")]


def test_a_wit_duel_steps_by_exchange_and_each_insult_with_the_ending_in_the_last(gm_service):
    campaign = gm_service.handle({"type": "CreateCampaign", "name": "Antillas", "ruleset": "pirate"}).key
    stats = {"atq": 5, "def": 13, "pv": 12, "comunicacion": 4, "sab": 12, "car": 10, "iniciativa": 2,
             "weapons": "Sable | sword | 1d8"}
    ines, lope = (gm_service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                                     "stats": {"pirate": stats}}).key for name in ("Inés", "Lope"))
    session = gm_service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                 "date": "2026-11-29", "title": "Tortuga"}).key
    duel = gm_service.handle({"type": "StartDuel", "session_id": session, "ruleset": "pirate", "kind": "wit",
                              "exchanges": 1, "tie": "draw", "duelists": [{"character_id": ines, "side": "a"},
                                                                          {"character_id": lope, "side": "b"}]}).key
    act(gm_service, duel, "RollInitiative", dice_a=[15], dice_b=[3])
    act(gm_service, duel, "Insult", side="a", insult="Insulto directo", dice_a=[15, 4])
    act(gm_service, duel, "Insult", side="b", insult="Insulto directo", dice_b=[2])  # a miss; the duel ends
    assert [(r, t) for r, t, _, _ in labels(gm_service, duel)] == [
        ("Start", ""), ("Exchange 1", "initiative"), ("Exchange 1", "Inés insults"), ("Exchange 1", "Lope insults")]
    last = labels(gm_service, duel)[-1]
    assert last[3] - last[2] == 1  # Lope's insult and the DuelWon it brought, one step
