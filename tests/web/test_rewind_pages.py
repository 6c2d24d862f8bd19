"""Retracting from the log or from time travel: when later events stand on the event, the GM first
sees every one of them in plain language (and the ending it undoes), server-rendered, and only a
confirmed form rewinds the duel; an event nothing stands on is retracted at once, as before."""
from tests.conftest import count_events, fixed_context, text_of
from tests.fuzz.test_retraction_properties import PAIRS
from tests.web.test_web import WON_BY_HITS, attack, initiative, played, position_of, setup_duel
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker import bootstrap

LOPE_HITS_BACK = "Round 1: Lope attacks Inés with Espada ropera, d20 15 +3 = 18 vs DEF 13: hit, 1d6 [2] = 2"
INES_WINS = "Round 2: Inés attacks Lope with Sable, d20 15 +5 = 20 vs DEF 12: hit, 1d8 [4] = 4"


def test_the_event_page_lists_what_a_rewind_undoes_and_asks_before_it(app, client):
    _, duel = setup_duel(client)                       # to 2 hits
    played(client, duel, WON_BY_HITS)                  # versions 2 to 6, the win at 7
    first = position_of(app, duel, 2)

    page = client.get(f"/events/{first}").text
    assert "This rewinds the duel to just before this event" in page
    assert "it also undoes 5 later events and the ending (Inés won by hits (2 hits; Lope took 4 PV))" in page
    assert LOPE_HITS_BACK in page and INES_WINS in page and "Retract and rewind…" in page

    before = count_events(app)
    asked = client.post(f"/events/{first}/retract", data={"reason": "misread", "expected_version": "7"})
    assert asked.status_code == 200 and count_events(app) == before  # nothing appended yet
    assert "Rewind the duel" in asked.text and 'name="confirm" value="rewind"' in asked.text
    assert 'value="misread"' in asked.text

    done = client.post(f"/events/{first}/retract", data={"reason": "misread", "expected_version": "7",
                                                         "confirm": "rewind"})
    assert done.status_code == 302 and count_events(app) == before + 1
    shown = text_of(client.get(f"/duels/{duel}").text)
    assert "Round 1: roll initiative" in shown and "PV 9/9" in shown and "PV 12/12" in shown
    assert "Retracted by" in client.get(f"/events/{position_of(app, duel, 7)}").text


def test_an_event_nothing_stands_on_is_retracted_at_once(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative(), attack("a", 15, 3)])
    last = position_of(app, duel, 3)
    assert "This rewinds" not in client.get(f"/events/{last}").text
    response = client.post(f"/events/{last}/retract", data={"expected_version": "3"})
    assert response.status_code == 302


def test_time_travel_offers_the_same_rewind(app, client):
    _, duel = setup_duel(client)
    played(client, duel, WON_BY_HITS[:3])             # versions 2, 3 and 4
    travel = client.get(f"/duels/{duel}/travel?at=2").text
    assert "Rewind the duel to here…" in travel and f"/duels/{duel}/rewind" in travel
    target = position_of(app, duel, 3)
    asked = client.get(f"/duels/{duel}/rewind?to=2")
    assert asked.status_code == 302 and f"/events/{target}/retract" in asked.headers["Location"]
    asked = client.get(asked.headers["Location"])
    assert asked.status_code == 200
    assert "it also undoes 1 later event" in asked.text and LOPE_HITS_BACK in asked.text
    assert f'name="next" value="/duels/{duel}"' in asked.text
    done = client.post(f"/events/{target}/retract", data={"expected_version": "4", "confirm": "rewind",
                                                          "next": f"/duels/{duel}"})
    assert done.status_code == 302 and done.headers["Location"].endswith(f"/duels/{duel}")
    back = client.get(f"/duels/{duel}/rewind?to=2")  # nothing stands after it any more
    assert back.status_code == 302 and "/travel?at=2" in back.headers["Location"]


def test_rewinding_to_here_passes_over_an_event_that_stands_alone(app, client):
    """A pirate worthiness mark is taken back alone; 'rewind to here' rewinds from the next event."""
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, fixed_context())
    campaign = service.handle({"type": "CreateCampaign", "name": "Marks", "ruleset": "pirate"}).key
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": "Dawn"}).key
    rivals = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, **demo.CHARACTERS[i]}).key
              for i in PAIRS["pirate"]]
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "pirate",
                           "setup": {"kind": "sword", "sword_victory": "death"},
                           "duelists": [{"character_id": rivals[0], "side": "a"},
                                        {"character_id": rivals[1], "side": "b"}]}).key
    for command in ({"type": "MarkWorthiness", "side": "b", "verdict": "worthy"},
                    {"type": "RollInitiative", "server_roll": True}):
        service.handle({"duel_id": duel, "expected_version": service.version(f"duel-{duel}"), **command})
    db.close()
    asked = client.get(f"/duels/{duel}/rewind?to=1")
    assert f"/events/{position_of(app, duel, 3)}/retract" in asked.headers["Location"]


def test_a_stale_confirmation_is_a_conflict(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative(), attack("a", 15, 3)])
    first = position_of(app, duel, 2)
    response = client.post(f"/events/{first}/retract", data={"expected_version": "2", "confirm": "rewind"})
    assert response.status_code == 409
