"""First start in a real browser: no GM yet, so Touché asks for one, with the set-up code printed
in the console; then logging out and in."""
from playwright.sync_api import expect

from tracker.application import setup_code


def test_first_start_creates_the_gm_then_login_and_logout(anonymous_page, live_app):
    page = anonymous_page
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Welcome to Touché")
    page.get_by_label("Username").fill("marta")
    page.get_by_label("Password").fill("short")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator("#e-password")).to_have_text("must be at least 10 characters")
    page.get_by_label("Password").fill("a long enough secret")
    page.get_by_role("button", name="Create account").click()
    expect(page.locator("#e-code")).to_contain_text("is not this Touché's set-up code")

    page.goto(f"/setup?code={setup_code.read(live_app)}")  # the link the console printed
    page.get_by_label("Username").fill("marta")
    page.get_by_label("Password").fill("a long enough secret")
    page.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Campaigns")

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Log in")
    page.goto("/")
    assert page.url.endswith("/login?next=/")
    page.get_by_label("Username").fill("marta")
    page.get_by_label("Password").fill("wrong password!")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_have_text("Wrong username or password.")
    page.get_by_label("Password").fill("a long enough secret")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Campaigns")
    cookie = next(c for c in page.context.cookies() if c["name"] == "session")
    assert cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Lax"
