"""The table display on a second screen: the GM issues its link on the duel page, logs actions in
one tab, and the players' tab follows within 2 seconds without a reload, showing no hand."""
import time

from playwright.sync_api import expect

from tests.conftest import fixed_context
from tests.integration.test_timetravel import CARDS, rocet_duel
from tracker.bootstrap.db import open_db
from tracker import bootstrap

FOLLOWS_WITHIN_MS = 2000


def test_the_display_follows_the_gm_within_two_seconds_and_shows_no_hand(page, browser, live_app):
    service = bootstrap.service(open_db(live_app.config["DATABASE"]), fixed_context())
    duel = rocet_duel(service)

    page.goto(f"/duels/{duel}")
    page.get_by_role("button", name="Issue a display link").click()
    link = page.get_by_label("Display link to share")
    expect(link).to_have_count(1)

    players = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()  # no GM session
    players.goto(link.input_value())
    expect(players.locator("#display h1")).to_contain_text("Inés vs Lope")
    expect(players.locator(".rocet-label").first).to_have_text("Hand: 3 cards")
    assert not any(card in players.locator("body").inner_text() for card in CARDS)
    players.evaluate("window.sameDocument = true")  # gone if the display reloads

    # The GM plays a turn in their own tab.
    page.locator(".action-PlayTurn .rocet-group.side-a label.rocet-card").first.click()
    page.locator(".action-PlayTurn .rocet-group.side-b label.rocet-card").last.click()
    page.get_by_role("button", name="Reveal & roll").click()
    expect(page.locator(".rocet-last caption")).to_contain_text("Turn 1:")
    logged = time.perf_counter()
    expect(players.locator(".rocet-last caption")).to_contain_text("Turn 1:", timeout=FOLLOWS_WITHIN_MS)
    followed_ms = (time.perf_counter() - logged) * 1000
    expect(players.locator("ul.hand")).to_have_count(0)
    expect(players.locator("form")).to_have_count(0)

    # An action logged some other way (the service, as the JSON API would) shows up too.
    service.handle({"type": "Abandon", "duel_id": duel, "expected_version": service.version(f"duel-{duel}"),
                    "reason": "the watch arrived"})
    expect(players.locator(".outcome")).to_contain_text("abandoned", timeout=FOLLOWS_WITHIN_MS)
    assert players.evaluate("window.sameDocument") is True

    # Revoked on the duel page: the players' screen says so at its next poll.
    page.goto(f"/duels/{duel}")
    page.get_by_role("button", name="Revoke").click()
    expect(page.get_by_label("Display link to share")).to_have_count(0)
    expect(players.locator("#display")).to_contain_text("revoked", timeout=FOLLOWS_WITHIN_MS)
    players.context.close()
    service.db.close()
    print(f"\nthe display showed the GM's turn {followed_ms:.0f} ms after it was logged")
