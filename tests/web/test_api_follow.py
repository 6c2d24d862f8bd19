"""Cheap to follow (issue 28): duel reads tagged by version (ETag, If-None-Match answered 304),
``steps_since`` sending only the new steps, ``GET /api/v1/me``, ``Link`` pagination of the lists."""
from __future__ import annotations

import pytest

from tests.web.test_api_v1 import V1, duel_of, send


def _display_token(client, duel):
    return send(client, type="IssuePlayerLink", link_kind="display", target=duel)["url"].rsplit("/", 2)[-2]


def _a_step(client, duel):
    """One command off the duel's legal actions (its first, every field's first choice)."""
    from tests import api_client

    send(client, **api_client.next_command(client.get(f"{V1}/duels/{duel}").json))


def test_a_duel_read_carries_a_version_etag_and_answers_304_to_it(client):
    duel = duel_of(client, "rocet")
    first = client.get(f"{V1}/duels/{duel}")
    tag = first.headers["ETag"]
    assert tag.startswith('W/"') and str(first.json["version"]) in tag
    again = client.get(f"{V1}/duels/{duel}", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == tag
    assert client.get(f"{V1}/duels/{duel}", headers={"If-None-Match": 'W/"another"'}).status_code == 200
    _a_step(client, duel)
    moved = client.get(f"{V1}/duels/{duel}", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["ETag"] != tag and moved.json["version"] > first.json["version"]
    # Another language's read is another representation: its own tag.
    spanish = client.get(f"{V1}/duels/{duel}", headers={"Accept-Language": "es", "If-None-Match": moved.headers["ETag"]})
    assert spanish.status_code == 200 and spanish.headers["ETag"] != moved.headers["ETag"]
    assert "Accept-Language" in moved.headers["Vary"]


def test_the_display_read_has_its_own_etag_for_its_audience(client, anonymous):
    duel = duel_of(client, "rocet")
    token = _display_token(client, duel)
    table = anonymous.get(f"{V1}/display/{token}")
    gm = client.get(f"{V1}/duels/{duel}")
    assert table.status_code == 200 and table.json["audience"] == "table"
    assert table.headers["ETag"] != gm.headers["ETag"]
    assert anonymous.get(f"{V1}/display/{token}", headers={"If-None-Match": table.headers["ETag"]}).status_code == 304
    assert anonymous.get(f"{V1}/display/{token}", headers={"If-None-Match": gm.headers["ETag"]}).status_code == 200
    _a_step(client, duel)
    assert anonymous.get(f"{V1}/display/{token}", headers={"If-None-Match": table.headers["ETag"]}).status_code == 200


def test_a_missing_duel_is_still_a_404_whatever_the_tag(client):
    assert client.get(f"{V1}/duels/nosuchduel", headers={"If-None-Match": "*"}).status_code == 404


def test_steps_since_sends_only_the_steps_after_that_version_and_says_so(client):
    duel = duel_of(client, "rocet", {"kind": "a_muerte", "cards": "virtual", "weapon_type": "Espada"})
    for _ in range(6):
        _a_step(client, duel)
    whole = client.get(f"{V1}/duels/{duel}").json
    assert whole["steps_since"] is None and len(whole["steps"]) >= 3
    middle = whole["steps"][1]["at"]
    part = client.get(f"{V1}/duels/{duel}?steps_since={middle}").json
    assert part["steps_since"] == middle
    assert part["steps"] == [s for s in whole["steps"] if s["at"] > middle] and part["steps"]
    assert part["state"]["history"] == [line for line in whole["state"]["history"] if line["at"] > middle]
    # Everything but the steps and the history is the whole read's.
    for name in ("version", "status", "legal_actions", "assumptions", "adjustable_tracks"):
        assert part[name] == whole[name]
    dated = ("history", "wounds", "adjustments")
    assert {k: v for k, v in part["state"].items() if k not in dated} == \
        {k: v for k, v in whole["state"].items() if k not in dated}
    assert part["state"]["wounds"] == [w for w in whole["state"]["wounds"] if w["at"] > middle]
    latest = client.get(f"{V1}/duels/{duel}?steps_since={whole['version']}")
    assert latest.json["steps"] == [] and latest.json["state"]["history"] == []
    assert latest.headers["ETag"] != client.get(f"{V1}/duels/{duel}").headers["ETag"]


def test_following_and_the_display_take_steps_since_too(client, anonymous):
    duel = duel_of(client, "rocet", {"kind": "a_muerte", "cards": "virtual", "weapon_type": "Espada"})
    before = client.get(f"{V1}/duels/{duel}").json["version"]
    _a_step(client, duel)
    changes = client.get(f"{V1}/duels/{duel}/changes?since={before}&steps_since={before}").json
    assert changes["changed"] and changes["duel"]["steps_since"] == before
    assert all(s["at"] > before for s in changes["duel"]["steps"])
    token = _display_token(client, duel)
    table = anonymous.get(f"{V1}/display/{token}?steps_since={before}").json
    assert table["audience"] == "table" and table["steps_since"] == before
    assert all(line["at"] > before for line in table["state"]["history"])


def test_a_bad_steps_since_is_a_400_naming_it(client):
    duel = duel_of(client, "rocet")
    answer = client.get(f"{V1}/duels/{duel}?steps_since=soon")
    assert answer.status_code == 400 and "steps_since" in answer.get_data(as_text=True)


def test_me_names_the_tokens_gm_its_label_and_its_campaigns(client, anonymous):
    from tests.conftest import GM_ID

    campaign = send(client, type="CreateCampaign", name="Season", ruleset="rocet")["id"]
    me = client.get(f"{V1}/me")
    assert me.status_code == 200, me.get_data(as_text=True)
    assert me.json["gm"] == {"id": GM_ID, "username": "gm"}
    assert me.json["token"] == {"id": f"{GM_ID}tok", "label": "tests", "read_only": False, "campaign_id": None}
    assert {"id": campaign, "name": "Season", "ruleset": "rocet", "role": "owner"} in me.json["campaigns"]
    from tests.web.test_api_v1 import described

    described(client, "Me").validate(me.json)
    refused = anonymous.get(f"{V1}/me")
    assert refused.status_code == 401 and refused.headers["WWW-Authenticate"].startswith("Bearer")


def test_me_lists_only_the_campaigns_its_own_gm_may_open(app, client):
    from tests.conftest import logged_in, register_gm

    register_gm(app, gm_id="othergm", username="other", password="another long password")
    other = logged_in(app, "othergm")
    theirs = send(other, type="CreateCampaign", name="Theirs", ruleset="rocet")["id"]
    assert theirs not in {c["id"] for c in client.get(f"{V1}/me").json["campaigns"]}
    assert other.get(f"{V1}/me").json["gm"]["username"] == "other"
    assert {"id": theirs, "name": "Theirs", "ruleset": "rocet", "role": "owner"} in other.get(f"{V1}/me").json["campaigns"]


def _next(link: str) -> str:
    """The target of a Link header's rel="next"."""
    import re

    found = re.fullmatch(r'<([^>]+)>; rel="next"', link)
    assert found, link
    return found.group(1)


def test_the_lists_come_a_page_at_a_time_with_a_link_to_the_next(client):
    from tracker import rules

    names = [f"Season {n}" for n in range(5)]
    for name in names:
        send(client, type="CreateCampaign", name=name, ruleset="rocet")
    first = client.get(f"{V1}/campaigns?limit=2")
    assert [c["name"] for c in first.json["campaigns"]] == names[:2]
    seen, answer = [], first
    while True:
        seen += [c["name"] for c in answer.json["campaigns"]]
        if "Link" not in answer.headers:
            assert answer.json["next_cursor"] is None
            break
        target = _next(answer.headers["Link"])
        assert target.startswith(f"{V1}/campaigns?") and "limit=2" in target
        answer = client.get(target)
    assert seen == names
    everything = client.get(f"{V1}/campaigns").json
    assert [c["name"] for c in everything["campaigns"]] == names and everything["next_cursor"] is None

    duel = duel_of(client, "rocet")
    campaign = client.get(f"{V1}/duels/{duel}").json["campaign_id"]
    characters = client.get(f"{V1}/campaigns/{campaign}/characters?limit=1")
    rest = client.get(_next(characters.headers["Link"])).json
    names_seen = [c["name"] for c in characters.json["characters"] + rest["characters"]]
    assert names_seen == sorted(d["name"] for d in rules.get("rocet").samples.DUELISTS)
    assert rest["next_cursor"] is None
    assert client.get(f"{V1}/campaigns/{campaign}/sessions").json["sessions"][0]["number"] == 1
    assert client.get(f"{V1}/campaigns/{campaign}/duels").json["duels"][0]["id"] == duel


def test_the_log_links_its_next_page_and_takes_a_limit(client):
    campaign = send(client, type="CreateCampaign", name="Season", ruleset="rocet")["id"]
    for n in range(1, 5):
        send(client, type="PlanSession", campaign_id=campaign, number=n, date=f"2026-11-0{n}", title=f"Day {n}")
    page = client.get(f"{V1}/campaigns/{campaign}/log?limit=2")
    assert len(page.json["entries"]) == 2
    following = client.get(_next(page.headers["Link"]))
    assert following.status_code == 200
    assert following.json["entries"][0]["position"] < page.json["entries"][-1]["position"]


def test_a_bad_limit_or_cursor_is_refused_naming_it(client):
    assert client.get(f"{V1}/campaigns?limit=0").status_code == 400
    too_many = client.get(f"{V1}/campaigns?limit=5000")
    assert too_many.status_code == 422 and "limit" in too_many.json["errors"]
    unknown = client.get(f"{V1}/campaigns?cursor=nosuch")
    assert unknown.status_code == 422 and "cursor" in unknown.json["errors"]


def test_an_old_path_keeps_its_successor_link_beside_the_next_one(client):
    for name in ("A", "B"):
        send(client, type="CreateCampaign", name=name, ruleset="rocet")
    old = client.get("/api/campaigns?limit=1")
    assert 'rel="next"' in old.headers["Link"] and 'rel="successor-version"' in old.headers["Link"]


FOUNDRY = "https://foundry.example.org"


def test_cors_answers_a_preflight_and_a_call_from_a_listed_origin_only(app, client):
    app.config["CORS_ORIGINS"] = (FOUNDRY,)
    preflight = app.test_client().options(f"{V1}/me", headers={
        "Origin": FOUNDRY, "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization"})
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Methods"] == "GET, POST, OPTIONS"
    assert "Authorization" in preflight.headers["Access-Control-Allow-Headers"]
    called = client.get(f"{V1}/me", headers={"Origin": FOUNDRY})
    assert called.status_code == 200 and called.headers["Access-Control-Allow-Origin"] == FOUNDRY
    assert "ETag" in called.headers["Access-Control-Expose-Headers"] and "Origin" in called.headers["Vary"]
    assert "Access-Control-Allow-Credentials" not in called.headers
    # Another origin gets nothing: its browser refuses the answer.
    for origin in ("https://evil.example", FOUNDRY + ".evil.example", "null"):
        other = app.test_client().options(f"{V1}/me", headers={"Origin": origin, "Access-Control-Request-Method": "GET"})
        assert "Access-Control-Allow-Origin" not in other.headers and "Access-Control-Allow-Methods" not in other.headers
        assert "Access-Control-Allow-Origin" not in client.get(f"{V1}/me", headers={"Origin": origin}).headers
    # Nor do the pages, even for a listed origin.
    assert "Access-Control-Allow-Origin" not in client.get("/", headers={"Origin": FOUNDRY}).headers


def test_no_origin_is_allowed_unless_listed(client):
    answer = client.get(f"{V1}/me", headers={"Origin": FOUNDRY})
    assert answer.status_code == 200 and "Access-Control-Allow-Origin" not in answer.headers


def test_the_origins_setting_reads_a_list_from_the_environment(monkeypatch, new_database):
    from tracker import create_app

    monkeypatch.setenv("TOUCHE_CORS_ORIGINS", f"{FOUNDRY}, https://owlbear.example")
    app = create_app({"TESTING": True, "DATABASE": new_database(), "SECRET_KEY": "test"})
    assert app.config["CORS_ORIGINS"] == (FOUNDRY, "https://owlbear.example")


def test_the_state_shared_between_reads_is_never_changed_by_one(client, anonymous, app):
    import copy

    from tracker.bootstrap.db import open_db
    from tracker.projections import queries

    duel = duel_of(client, "pf2e")
    for _ in range(4):
        _a_step(client, duel)
    token = _display_token(client, duel)
    db = open_db(app.config["DATABASE"])
    try:
        shared = queries.duel_to_read(db, duel)["state"]
        before = copy.deepcopy(shared)
        version = client.get(f"{V1}/duels/{duel}").json["version"]
        for read in (f"{V1}/duels/{duel}", f"{V1}/duels/{duel}?steps_since={version - 2}"):
            assert client.get(read).status_code == 200
        assert anonymous.get(f"{V1}/display/{token}?steps_since=1").status_code == 200
        assert queries.duel_to_read(db, duel)["state"] is shared and shared == before
    finally:
        db.close()
