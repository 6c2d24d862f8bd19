"""Backup from the web: a campaign's log downloaded, and imported again as a new campaign."""
import dataclasses
import io
import json
import random

import pytest

from bench.driver import play
from tests.conftest import GM_ID
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker import bootstrap
from tests.conftest import count_events


@pytest.fixture
def campaign(app):
    """The demo campaign with its Rocèt duel played, a retraction, and a player link."""
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, dataclasses.replace(app.config["SERVICE_CONTEXT"], actor=GM_ID))
    campaign = demo.seed(db, service)
    duel = db.execute("SELECT id FROM duels WHERE campaign_id = ?", [campaign]).fetchone()[0]
    play(service, duel, random.Random(5), 20)
    last = db.execute("SELECT MAX(position), MAX(version) FROM events WHERE stream = ?", [f"duel-{duel}"]).fetchone()
    service.handle({"type": "RetractEvent", "position": last[0], "expected_version": last[1], "reason": "typo"})
    session = db.execute("SELECT id FROM sessions WHERE campaign_id = ?", [campaign]).fetchone()[0]
    service.handle({"type": "IssuePlayerLink", "kind": "recap", "target": session})
    db.close()
    return campaign


def upload(client, text, name="backup.jsonl"):
    return client.post("/import", data={"log": (io.BytesIO(text.encode()), name)},
                       content_type="multipart/form-data")


def test_the_dashboard_links_the_backup(client, campaign):
    page = client.get(f"/campaigns/{campaign}").text
    assert f"/campaigns/{campaign}/backup.jsonl" in page and 'href="/import"' in page


def test_the_download_is_the_campaigns_chained_log(client, campaign):
    response = client.get(f"/campaigns/{campaign}/backup.jsonl")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith('attachment; filename="la-temporada-de-duelos-demo-')
    lines = [json.loads(line) for line in response.text.splitlines()]
    assert lines[-1]["format"] == "touche-log/3" and lines[-1]["signature"] and lines[-1]["events"] == len(lines) - 1
    assert {line["metadata"]["campaign_id"] for line in lines[:-1]} == {campaign}
    assert not any(line["stream"].startswith("gm-") for line in lines[:-1])  # no accounts, no password hashes


def test_a_round_trip_gives_a_new_campaign_that_reads_the_same(app, client, campaign):
    log = client.get(f"/campaigns/{campaign}/backup.jsonl").text
    before = count_events(app)
    response = upload(client, log)
    assert response.status_code == 302, response.text
    copy = response.headers["Location"].rsplit("/", 1)[1]
    assert copy != campaign and count_events(app) == before + len(log.splitlines()) - 1
    original, imported = (client.get(f"/api/campaigns/{c}").get_json() for c in (campaign, copy))
    assert imported["campaign"]["owner"] == GM_ID and imported["campaign"]["name"] == original["campaign"]["name"]
    for key in ("characters", "sessions", "duels"):
        assert [x.get("name") or x.get("title") for x in imported[key]] == \
               [x.get("name") or x.get("title") for x in original[key]]
        assert not {x["id"] for x in imported[key]} & {x["id"] for x in original[key]}
    sessions = [c[key][0]["id"] for c in (original, imported) for key in ("sessions",)]
    recaps = [client.get(f"/sessions/{s}/recap.md?audience=gm").data for s in sessions]
    assert recaps[0] == recaps[1]  # the same story, told by the copy's own read models
    duel = client.get(f"/api/duels/{imported['duels'][0]['id']}").get_json()
    assert duel["state"]["campaign_id"] == copy and duel["state"]["session_id"] == sessions[1]
    # The copy's player links are its own: the original's link still opens the original.
    db = open_db(app.config["DATABASE"])
    links = db.execute("SELECT campaign_id, COUNT(*) FROM player_links GROUP BY campaign_id").fetchall()
    db.close()
    assert sorted(links) == sorted([(campaign, 1), (copy, 1)])


def test_importing_the_same_file_twice_gives_two_campaigns(app, client, campaign):
    log = client.get(f"/campaigns/{campaign}/backup.jsonl").text
    first, second = upload(client, log), upload(client, log)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] != second.headers["Location"]


@pytest.mark.parametrize("damage, line, words", [
    (lambda lines: lines[:3] + lines[4:], 4, "does not match its hash"),  # a line removed
    (lambda lines: lines[:-1], None, "cut short"),  # the trailer lost
    (lambda lines: lines[:2] + ["{not json"] + lines[3:], 3, "not valid JSON"),
    (lambda lines: [lines[0].replace('"name":"La Temporada', '"name":"El Fraude')] + lines[1:], 1, "hash"),
])
def test_a_bad_file_is_refused_with_its_line_and_appends_nothing(app, client, campaign, damage, line, words):
    lines = client.get(f"/campaigns/{campaign}/backup.jsonl").text.splitlines()
    before = count_events(app)
    response = upload(client, "\n".join(damage(lines)) + "\n")
    assert response.status_code == 422
    assert words in response.text and "Nothing was imported." in response.text
    assert f"line {line if line else len(lines)}:" in response.text.lower()
    assert 'aria-describedby="e-log"' in response.text  # the message sits next to the upload field
    assert count_events(app) == before


def test_a_file_of_accounts_is_not_a_campaign(app, client):
    db = open_db(app.config["DATABASE"])
    from tracker.backup import export_lines

    out = io.StringIO()
    export_lines(db, out)  # the whole instance: only the GM's account so far
    db.close()
    response = upload(client, out.getvalue())
    assert response.status_code == 422 and "Line 1: gm-gmtest is not part of a campaign" in response.text


def test_no_file_is_asked_for_again(client):
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422 and "Choose a log file" in response.text


def test_the_import_form_needs_a_login(anonymous):
    assert anonymous.get("/import").status_code == 302
    assert anonymous.post("/import").status_code in (302, 400)


def wait_for_import(client, location, headers=None, tries=400):
    """Poll an import's page until it no longer says how far it got."""
    import time

    for _ in range(tries):
        response = client.get(location, headers=headers or {})
        if response.status_code != 200 or "HX-Redirect" in response.headers:
            return response
        time.sleep(0.05)
    raise AssertionError("the import never ended")


def test_a_large_import_shows_its_progress_then_opens_the_campaign(app, client, campaign):
    app.config["IMPORT_IN_BACKGROUND_BYTES"] = 0  # every upload counts as large here
    log = client.get(f"/campaigns/{campaign}/backup.jsonl").text
    before = count_events(app)
    started = upload(client, log)
    assert started.status_code == 303 and started.headers["Location"].startswith("/import/")
    page = client.get(started.headers["Location"])
    if page.status_code == 200:  # still under way: the page, or its fragment, says how far
        assert 'id="import-progress"' in page.text and "every 1s" in page.text
        assert '<meta http-equiv="refresh"' in page.text  # without JavaScript the page refreshes itself
    done = wait_for_import(client, started.headers["Location"])
    assert done.status_code == 302 and done.headers["Location"].startswith("/campaigns/")
    assert count_events(app) == before + len(log.splitlines()) - 1
    fragment = client.get(started.headers["Location"], headers={"HX-Request": "true"})
    assert fragment.headers["HX-Redirect"] == done.headers["Location"]


def test_a_large_bad_import_ends_with_the_line_at_fault_and_appends_nothing(app, client, campaign):
    app.config["IMPORT_IN_BACKGROUND_BYTES"] = 0
    lines = client.get(f"/campaigns/{campaign}/backup.jsonl").text.splitlines()
    before = count_events(app)
    started = upload(client, "\n".join(lines[:3] + lines[4:]) + "\n")
    done = wait_for_import(client, started.headers["Location"])
    assert done.status_code == 422 and "line 4:" in done.text.lower() and "Nothing was imported." in done.text
    assert count_events(app) == before


def test_an_import_is_shown_to_its_gm_only(app, client, campaign):
    from tests.conftest import logged_in, register_gm

    app.config["IMPORT_IN_BACKGROUND_BYTES"] = 0
    started = upload(client, client.get(f"/campaigns/{campaign}/backup.jsonl").text)
    register_gm(app, gm_id="othergm", username="other")
    assert logged_in(app, "othergm").get(started.headers["Location"]).status_code == 404
    assert client.get("/import/no-such-job").status_code == 404
    wait_for_import(client, started.headers["Location"])


def test_the_progress_reads_as_phases():
    from tracker.web.import_jobs import Job

    job = Job("j", "gm", lines=200)
    assert (job.phase, job.in_phase, job.percent) == ("Checking", 0, 0)
    job.advance(200)
    assert (job.phase, job.in_phase, job.percent) == ("Importing", 0, 50)
    job.advance(100)
    assert (job.phase, job.in_phase, job.percent) == ("Importing", 100, 75)
