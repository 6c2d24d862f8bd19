"""The GM's first steps in a real browser: a campaign, a character, a session, the log."""
from playwright.sync_api import expect


def test_create_a_campaign_a_character_and_a_session(page):
    page.goto("/")
    page.get_by_label("Name").fill("Season of Steel")
    page.get_by_label("Default ruleset").select_option("rocet")
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Season of Steel")

    page.get_by_role("link", name="New character").click()
    page.get_by_label("Name").fill("Inés")
    page.get_by_label("DES die").select_option("10")
    page.get_by_role("button", name="Create character").click()
    expect(page.locator(".error")).not_to_have_count(0)  # INT and the maxima are still missing
    expect(page.get_by_label("Name")).to_have_value("Inés")
    page.get_by_label("INT die").select_option("8")
    page.get_by_label("PG (max)").fill("40")
    page.get_by_label("PM (max)").fill("30")
    page.locator("#f-rocet\\.weapons").fill("Espada ropera | Espada | 3")
    page.get_by_role("button", name="Create character").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Inés")
    expect(page.get_by_text("PG 40/40")).to_be_visible()

    page.get_by_role("link", name="Season of Steel").click()
    page.get_by_role("link", name="New session").click()
    page.get_by_label("Date").fill("2026-11-29")
    page.get_by_label("Title").fill("Swords at dawn")
    page.get_by_role("button", name="Plan session").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Swords at dawn")

    page.get_by_role("link", name="Event log").click()
    expect(page.locator("ol.log li")).to_have_count(3)
