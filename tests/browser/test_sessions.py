"""A GM's sessions in a real browser: changing the password from Settings logs the other
browser out, and "Log out everywhere" ends this one too."""
from playwright.sync_api import expect

from tests.conftest import GM_PASSWORD


def test_a_new_password_logs_other_browsers_out_and_log_out_everywhere_ends_this_one(page, browser, live_app):
    other = browser.new_context(base_url=live_app.config["LIVE_URL"]).new_page()
    other.goto("/login")
    other.get_by_label("Username").fill("gm")
    other.get_by_label("Password").fill(GM_PASSWORD)
    other.get_by_role("button", name="Log in").click()
    expect(other.get_by_role("heading", level=1)).to_have_text("Campaigns")

    page.goto("/settings")
    page.get_by_role("link", name="Change your password").click()
    page.get_by_label("Current password").fill("not it at all")
    page.get_by_label("New password").fill("a brand new secret")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("#e-current_password")).to_have_text("is not your current password")
    page.get_by_label("Current password").fill(GM_PASSWORD)
    page.get_by_label("New password").fill("a brand new secret")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("p.notice[role=status]")).to_contain_text("Your password was changed")

    other.goto("/")
    expect(other.get_by_role("heading", level=1)).to_have_text("Log in")

    page.get_by_role("button", name="Log out everywhere").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Log in")
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Log in")
    other.context.close()
