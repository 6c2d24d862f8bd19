"""The GM's adjustment of a track inside a running duel, through the duel page (folded under the
actions, refusals next to their field, nothing appended) and through /api/v1/commands, for every
shipped ruleset."""
from __future__ import annotations

import pytest

from tests.conftest import count_events, text_of
from tests.web.test_api_v1 import V1, duel_of

CASES = [  # ruleset, set-up, the track the form offers first (side A's)
    ("rocet", {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada"}, "PG"),
    ("pirate", {"kind": "sword", "sword_victory": "hits", "hits": 3}, "PV"),
    ("pirate", {"kind": "wit"}, "CAR"),
    ("pf2e", {"kind": "combat"}, "HP"),
]


def duel_json(client, duel):
    return client.get(f"{V1}/duels/{duel}").json


def version_of(client, duel):
    return client.get(f"/api/duels/{duel}").json["version"]


def first_target(client, duel):
    """Side A's first adjustable track, as the page's select offers it."""
    import re

    page = client.get(f"/duels/{duel}").text
    return re.search(r'id="AdjustDuelTrack-target" name="target"[^>]*>\s*<option value="([^"]+)"', page).group(1)


@pytest.mark.parametrize("ruleset, setup, track", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_the_duel_page_adjusts_a_track_and_refuses_what_it_must(app, client, ruleset, setup, track):
    duel = duel_of(client, ruleset, setup)
    page = client.get(f"/duels/{duel}").text
    assert "Adjust a track by hand" in page
    target = first_target(client, duel)
    assert target.endswith(" " + track)

    response = client.post(f"/duels/{duel}/adjust", headers={"HX-Request": "true"},
                           data={"expected_version": version_of(client, duel), "target": target, "amount": "-2",
                                 "reason": "forgot the +2"})
    assert response.status_code == 200
    assert f"'s {track} -2 (forgot the +2)" in text_of(response.text)

    before = count_events(app)
    refused = client.post(f"/duels/{duel}/adjust",
                          data={"expected_version": version_of(client, duel), "target": target, "amount": "-999",
                                "reason": "a killing blow by hand"})
    assert refused.status_code == 422
    assert ('id="e-AdjustDuelTrack-amount">an adjustment corrects numbers; a duelist falls through the duel'
            in refused.text.replace("&#39;", "'"))
    missing = client.post(f"/duels/{duel}/adjust",
                          data={"expected_version": version_of(client, duel), "target": target, "amount": "2",
                                "reason": ""})
    assert missing.status_code == 422 and 'id="e-AdjustDuelTrack-reason">' in missing.text
    assert count_events(app) == before


@pytest.mark.parametrize("ruleset, setup, track", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_the_api_adjusts_a_track_and_refuses_a_fall(client, ruleset, setup, track):
    duel = duel_of(client, ruleset, setup)
    character = first_target(client, duel).split(" ")[0]
    offered = duel_json(client, duel)["adjustable_tracks"]
    assert [(t["character"], t["track"]) for t in offered][0] == (character, track) and len(offered) >= 2
    command = {"type": "AdjustDuelTrack", "duel_id": duel, "character_id": character, "track": track,
               "expected_version": version_of(client, duel)}
    ok = client.post(f"{V1}/commands", json={**command, "amount": -3, "reason": "the cleric's curse"})
    assert ok.status_code in (200, 201), ok.json
    lines = [s.get("text", "") for s in duel_json(client, duel).get("history", [])] or [client.get(f"/duels/{duel}").text]
    assert any(f"'s {track} -3 (the cleric's curse)" in line.replace("&#39;", "'") for line in lines)
    refused = client.post(f"{V1}/commands", json={**command, "expected_version": version_of(client, duel),
                                                 "amount": -999, "reason": "to the floor"})
    assert refused.status_code == 422
    assert "a duelist falls through the duel's own actions" in str(refused.json)


@pytest.mark.parametrize("ruleset, setup, track", CASES, ids=[f"{c[0]}-{c[2]}" for c in CASES])
def test_time_travel_and_the_recap_tell_the_adjustment(app, client, ruleset, setup, track):
    from tracker.bootstrap.db import open_db
    from tracker.projections import queries

    duel = duel_of(client, ruleset, setup)
    client.post(f"/duels/{duel}/adjust", data={"expected_version": version_of(client, duel),
                                               "target": first_target(client, duel), "amount": "-1",
                                               "reason": "forgot the +2"})
    version = version_of(client, duel)
    for url in (f"/duels/{duel}/travel", f"/duels/{duel}/travel?at={version}",
                f"/duels/{duel}/compare?a=1&b={version}", f"/duels/{duel}"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert f"'s {track} -1 (forgot the +2)" in text_of(response.text), url
    db = open_db(app.config["DATABASE"])
    try:
        session = queries.duel(db, duel)["session_id"]
    finally:
        db.close()
    recap = client.get(f"/sessions/{session}/recap.md")
    assert recap.status_code == 200 and f"'s {track} -1 (forgot the +2)" in recap.text


def test_the_sheet_keeps_a_persisting_adjustment_with_its_sign(client):
    duel = duel_of(client, "pf2e", {"kind": "combat"})
    target = first_target(client, duel)
    character = target.split(" ")[0]
    for amount, reason in (("-5", "the poisoned blade"), ("2", "the cleric healed him")):
        response = client.post(f"/duels/{duel}/adjust", data={"expected_version": version_of(client, duel),
                                                              "target": target, "amount": amount, "reason": reason})
        assert response.status_code == 302
    sheet = text_of(client.get(f"/characters/{character}").text)
    assert "−5 adjusted: the poisoned blade" in sheet and "+2 adjusted: the cleric healed him" in sheet
    assert "HP 65/68" in sheet  # 68 less 5, plus 2 given back
    record = client.get(f"/characters/{character}/record")
    assert record.status_code == 200 and "−3 HP" in text_of(record.text)


def test_a_stale_adjustment_form_is_a_conflict_and_nothing_is_logged(app, client):
    duel = duel_of(client, "rocet", {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada"})
    target, stale = first_target(client, duel), version_of(client, duel)
    client.post(f"/duels/{duel}/adjust", data={"expected_version": stale, "target": target, "amount": "-1",
                                               "reason": "first"})
    before = count_events(app)
    response = client.post(f"/duels/{duel}/adjust", data={"expected_version": stale, "target": target,
                                                          "amount": "-1", "reason": "second"})
    assert response.status_code == 409 and "Your adjustment was NOT logged" in text_of(response.text)
    assert count_events(app) == before
