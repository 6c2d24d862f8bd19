"""Touché from the keyboard alone, on a phone-sized window: the skip link, the order of the
header's controls, a whole Rocèt turn, and refused forms whose error summary takes the focus and
leads to each field at fault (after a full page load and after an htmx swap)."""
from playwright.sync_api import expect

from tests.browser.test_rocet_duel import seed_duel

FOCUSED = """() => {
  const el = document.activeElement;
  return el ? (el.id || el.className || el.tagName) + ' | ' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40) : '';
}"""


def focused_text(page) -> str:
    return page.evaluate(FOCUSED)


def tab_until(page, locator, limit=60):
    """Press Tab until ``locator`` has the focus; the Tab presses it took."""
    for presses in range(1, limit + 1):
        page.keyboard.press("Tab")
        if locator.evaluate("el => el === document.activeElement"):
            return presses
    raise AssertionError(f"{limit} Tabs never reached {locator}; the focus is on {focused_text(page)}")


def test_skip_link_then_header_in_reading_order(page):
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    order = []
    for _ in range(2):
        page.keyboard.press("Tab")
        order.append(focused_text(page))
    assert "Touché" in order[0] and "Menu" in order[1], order  # the brand, then the folded menu
    page.keyboard.press("Enter")  # opens the menu
    page.keyboard.press("Tab")
    expect(page.locator("header.top nav.account a")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Log out")).to_be_focused()

    page.goto("/")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the skip link: the next Tab is inside the page's content
    expect(page.locator("main")).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate("document.querySelector('main').contains(document.activeElement)")


def test_a_whole_rocet_turn_from_the_keyboard(page, live_app):
    duel = seed_duel(live_app.config["DATABASE"])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/duels/{duel}")
    first_card = page.locator(".action-PlayTurn input[name=card_a]").first
    expect(first_card).to_be_focused()  # the page opens on the next legal action
    assert first_card.evaluate("el => el.getBoundingClientRect().top") < 844  # in thumb reach, no scrolling
    page.keyboard.press("Space")                  # side A's card
    page.keyboard.press("Tab")                    # to side B's cards
    expect(page.locator(".action-PlayTurn input[name=card_b]").first).to_be_focused()
    page.keyboard.press("ArrowRight")             # side B picks its second card
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Reveal & roll")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".rocet-last caption")).to_contain_text("Turn 1:")
    expect(page.locator("#announcer")).to_contain_text("Logged. Turn 1:")  # what a screen reader hears

    # The turn goes on from the keyboard: each step (damage, a forced discard) opens with the focus
    # on its first button, and Enter takes it, until the next turn's cards have the focus.
    for _ in range(4):
        page.wait_for_function("() => document.querySelector('.rocet-actions').contains(document.activeElement)")
        if page.evaluate("document.activeElement.name") == "card_a":
            break
        expect(page.locator(".rocet-actions button").first).to_be_focused()
        version = page.locator("input[name=expected_version]").first.input_value()
        page.keyboard.press("Enter")
        page.wait_for_function("v => document.querySelector('input[name=expected_version]').value !== v", arg=version)
    expect(page.locator(".action-PlayTurn h3")).to_contain_text("Turn 2")
    expect(page.locator(".action-PlayTurn input[name=card_a]").first).to_be_focused()
    assert "Turn 1:" in page.locator(".history li").last.inner_text() or page.locator(".history li").count() >= 2


def test_a_refused_action_puts_the_focus_on_its_error_summary(page, live_app):
    duel = seed_duel(live_app.config["DATABASE"])
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/duels/{duel}")
    summary = page.locator(".rocet-typed summary")
    tab_until(page, summary)
    page.keyboard.press("Enter")                   # open "type the dice"
    page.keyboard.press("Tab")
    expect(page.locator("#f-dice_a")).to_be_focused()
    page.keyboard.type("9 9 9")                    # not dice, and no card chosen
    page.keyboard.press("Enter")
    errors = page.locator(".action-PlayTurn .error-summary")
    expect(errors).to_be_focused()                 # after the htmx swap, not the page body
    expect(errors).to_contain_text("Card, side A")
    expect(page.locator("#announcer")).not_to_contain_text("Logged")
    page.keyboard.press("Tab")
    link = errors.locator("a").first
    expect(link).to_be_focused()
    page.keyboard.press("Enter")                   # the link leads to the field at fault
    assert page.evaluate("document.activeElement.name") == link.get_attribute("data-field")


def test_a_refused_form_page_opens_on_its_error_summary(page, live_app):
    from tracker.bootstrap.db import open_db
    from tracker import bootstrap

    service = bootstrap.service(open_db(live_app.config["DATABASE"]))
    campaign = service.handle({"type": "CreateCampaign", "name": "Season of Steel", "ruleset": "rocet"}).key
    service.db.close()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/campaigns/{campaign}/characters/new")
    name = page.locator("#f-name")
    tab_until(page, name)
    page.keyboard.press("Enter")                   # submit with no name: refused, the whole page again
    errors = page.locator(".error-summary")
    expect(errors).to_be_focused()
    expect(errors.locator("a[href='#f-name']")).to_have_count(1)
    page.keyboard.press("Tab")
    expect(errors.locator("a").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(errors.locator("a").first.get_attribute("href"))).to_be_focused()
    page.keyboard.type("Inés")
    tab_until(page, page.get_by_role("button", name="Create character"))


def refuse_typed_die(page):
    """Type an impossible d20 into the next action's first dice box and press Enter."""
    box = page.locator(".actions form input[type=text]").first
    box.focus()
    page.keyboard.type("999")
    page.keyboard.press("Enter")
    return box.get_attribute("name")


def test_refused_pirate_and_pf2e_actions_focus_their_error_summary(page, live_app):
    from tests.browser.test_pf2e_duel import seed as seed_pf2e
    from tests.browser.test_pirate_duel import seed_duel as seed_pirate

    page.set_viewport_size({"width": 390, "height": 844})
    for duel in (seed_pirate(live_app, kind="sword"), seed_pf2e(live_app)):
        page.goto(f"/duels/{duel}")
        name = refuse_typed_die(page)
        errors = page.locator(".actions .error-summary")
        expect(errors).to_be_focused()
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.name") == name
