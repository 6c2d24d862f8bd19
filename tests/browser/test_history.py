"""The duel history in a real browser: a filter swaps the table in place and the URL follows it,
so the view can be bookmarked; the charts draw under the strict Content-Security-Policy."""
import dataclasses
import re

from tests.conftest import fixed_context
from tests.integration.test_history import Campaign
from tracker.bootstrap.db import open_db
from tracker import bootstrap


def test_a_filter_swaps_the_table_and_the_url_can_be_bookmarked(page, live_app):
    db = open_db(live_app.config["DATABASE"])
    ids = iter(range(1, 10**6))
    table = Campaign(bootstrap.service(db, dataclasses.replace(fixed_context(), new_id=lambda: f"b{next(ids):04d}")))
    table.rocet_duel()
    table.wit_duel()
    table.pf2e_duel()
    db.close()
    refused = []
    page.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text
            else None)

    page.goto(f"/campaigns/{table.id}")
    page.get_by_role("link", name="Duel history").click()
    page.wait_for_url(re.compile(r"/history$"))  # count() does not wait for the page to load
    rows = page.locator("#history-duels tbody tr")
    assert rows.count() == 3
    page.get_by_label("Ruleset").select_option("pirate")
    page.wait_for_url(re.compile(r"ruleset=pirate"))
    assert rows.count() == 1 and "Burla" not in rows.first.inner_text()

    page.reload()  # the bookmarked view
    assert page.get_by_label("Ruleset").input_value() == "pirate" and rows.count() == 1

    page.goto(f"/campaigns/{table.id}/statistics")
    assert page.locator("svg[role=img] rect.won").count() >= 3
    assert refused == []
