"""A GM corrects a mistake from the event log, then downloads the session's recap, in a real browser."""
import random

from playwright.sync_api import expect

from bench.driver import play
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker import bootstrap
from tracker.application.services import Context


def seed(app):
    """A Rocèt duel played a few turns with server dice: the campaign, Inés's id and the session."""
    service = bootstrap.service(open_db(app.config["DATABASE"]), Context(rng=random.Random(5)))
    campaign = service.handle({"type": "CreateCampaign", "name": "Toledo", "ruleset": "rocet"}).key
    ines, lope = (service.handle({"type": "CreateCharacter", "campaign_id": campaign, **c}).key
                  for c in demo.CHARACTERS[:2])
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": "Swords at dawn"}).key
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "stakes": "an apology",
                           "duelists": [{"character_id": ines, "side": "a"}, {"character_id": lope, "side": "b"}],
                           "setup": {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada"}}).key
    play(service, duel, random.Random(5), max_actions=6, end_with="Yield")
    return campaign, ines, session


def test_retract_a_mistake_from_the_log_then_download_the_recap(page, live_app):
    campaign, ines, session = seed(live_app)
    page.goto(f"/characters/{ines}/edit")
    page.get_by_label("Name", exact=True).fill("Inés the Unbeaten")
    page.get_by_role("button", name="Save sheet").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Inés the Unbeaten")

    page.goto(f"/campaigns/{campaign}/log")
    entry = page.locator("ol.log li").filter(has_text="sheet was edited")
    entry.locator("a.pos").click()
    page.get_by_label("Retract this event").fill("a typo: nobody is unbeaten")
    page.get_by_role("button", name="Retract").click()
    expect(page.locator(".retracted")).to_contain_text("Retracted by")
    page.goto(f"/campaigns/{campaign}/log")
    expect(page.locator("ol.log li").first).to_contain_text("Retracted: Inés the Unbeaten's sheet was edited")
    expect(page.locator("ol.log li.retracted")).to_contain_text("sheet was edited")
    page.goto(f"/characters/{ines}")
    expect(page.get_by_role("heading", level=1)).to_have_text("Inés de Ayala")

    page.goto(f"/sessions/{session}")
    with page.expect_download() as download:
        page.locator("#recap").get_by_role("link", name="Markdown").first.click()
    recap = open(download.value.path(), encoding="utf-8").read()
    assert "Swords at dawn" in recap and "Inés de Ayala" in recap and "an apology" in recap
    assert "Unbeaten" not in recap
