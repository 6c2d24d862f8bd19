"""A seat in a duel whose choices the GM records only watches: the GM still acts for every side.

Found by the played-out crawl (tests/crawl/test_duels_played_out.py): in a GM-recorded Rocèt duel,
a seat handed to Inés made the GM's page drop her forced discard (the seat's command), while her
seat, in a duel it does not play, offered nothing but "waiting for the GM". Nobody could go on."""
from __future__ import annotations

from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import issue_seat, setup_duel, state


def recorded_duel(gm):
    """Inés and Lope (both players), the GM recording every card: physical cards, no sealing."""
    duel = setup_duel(gm, choices="gm", cards="physical")
    return duel["session"], duel["duel"], duel["people"]


def test_a_seat_in_a_gm_recorded_duel_leaves_every_choice_to_the_gm(client, anonymous, gm_service):
    session, duel, people = recorded_duel(gm_service)
    seat = issue_seat(client, session, people[0])
    # Lope's Finta wins (7+5 against 1+2): Inés owes a discard.
    version = gm_service.version(f"duel-{duel}")
    played = client.post("/api/v1/commands", json={"type": "PlayTurn", "duel_id": duel, "expected_version": version,
                                                   "card_a": "Estocada Alta", "card_b": "Finta",
                                                   "dice_a": [1, 2], "dice_b": [7, 5]})
    assert played.status_code in (200, 201), played.json
    assert state(gm_service, duel)["pending_discard"] == "a"
    offered = [a["type"] for a in client.get(f"/api/v1/duels/{duel}").json["legal_actions"]]
    assert offered[0] == "Discard", offered
    page = client.get(f"/duels/{duel}").text
    assert "plays this side from their seat" not in page and "decides on their phone" not in page
    discarded = client.post("/api/v1/commands", json={"type": "Discard", "duel_id": duel, "side": "a",
                                                      "card": "Treta", "expected_version": gm_service.version(f"duel-{duel}")})
    assert discarded.status_code in (200, 201), discarded.json
    assert state(gm_service, duel)["pending_discard"] is None
    assert anonymous.get(seat).status_code == 200  # the seat watches on


def test_the_gm_is_offered_a_seat_command_only_for_the_sides_no_phone_plays(client, anonymous, gm_service):
    from tests.web.test_seats import wit_sealed

    duel = wit_sealed(gm_service)
    issue_seat(client, duel["session"], duel["people"][0])  # Inés (side a) insults from her phone
    read = client.get(f"/api/v1/duels/{duel['duel']}").json
    choose = next(a for a in read["legal_actions"] if a["type"] == "ChooseInsult")
    assert choose["fields"]["side"]["choices"] == ["b"]
    command = {"type": "ChooseInsult", "duel_id": duel["duel"], "expected_version": read["version"],
               "side": choose["fields"]["side"]["choices"][0], "insult": "Burla ingeniosa"}
    assert client.post("/api/v1/commands", json=command).status_code in (200, 201)  # the first choice holds
    issue_seat(client, duel["session"], duel["people"][1])  # now both sides are on phones
    read = client.get(f"/api/v1/duels/{duel['duel']}").json
    assert "ChooseInsult" not in [a["type"] for a in read["legal_actions"]]
