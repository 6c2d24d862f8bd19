"""On a phone, the GM fixes "the cleric healed him" in a running duel: the adjustment folded
under the actions opens with one tap, takes an amount and a reason, and the history tells it."""
from playwright.sync_api import expect

from tests.browser.test_pf2e_duel import seed


def test_the_gm_adjusts_hp_by_hand_on_a_phone(page, live_app):
    duel = seed(live_app)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/duels/{duel}")
    folded = page.locator("details.adjust")
    expect(folded.locator("#AdjustDuelTrack-amount")).to_be_hidden()
    folded.locator("summary").click()
    box = folded.locator("summary").bounding_box()
    assert box["height"] >= 44 and box["width"] <= 390
    folded.get_by_label("Whose track").select_option(label="Baron Vex — HP 38/38")
    folded.get_by_label("Amount").fill("-5")
    folded.get_by_label("Reason").fill("the poisoned blade")
    folded.get_by_role("button", name="Adjust").click()
    expect(page.locator(".history")).to_contain_text("Baron Vex's HP -5 (the poisoned blade)")
    page.locator("details.adjust summary").click()
    expect(page.get_by_label("Whose track")).to_contain_text("Baron Vex — HP 33/38")
    page.get_by_label("Amount").fill("-40")
    page.get_by_label("Reason").fill("a killing blow by hand")
    page.get_by_role("button", name="Adjust").click()
    expect(page.locator("#e-AdjustDuelTrack-amount")).to_contain_text("a duelist falls through the duel's own actions")
