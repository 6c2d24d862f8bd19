"""A seat follows by long-poll in a real browser (issues 28, 30 and 33 item 4): the rival's tap
shows on the other phone without a poll, and an answer that left before the player's own tap, come
back after it, never replaces what the tap drew (neither the request of the fragment the tap
replaced, nor an older answer to the fragment now shown); the seat goes on following after both."""
import time

from playwright.sync_api import expect

from tests.browser.test_seats import hand_out_seats, phones, rocet_session
from tracker import bootstrap
from tracker.bootstrap.db import open_db
from tracker.application.services import Context


def stamp(phone) -> int:
    return int(phone.locator("#seat").get_attribute("data-stamp"))


def test_a_stale_answer_never_replaces_a_newer_tap_and_the_seat_follows_on(page, browser, live_app):
    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    session, duel = rocet_session(service)
    seats = hand_out_seats(page, session)
    players = phones(browser, {"b": seats["b"]})
    rival = players["b"]
    phone = browser.new_context(**{"viewport": {"width": 390, "height": 844}, "is_mobile": True}).new_page()
    phone.set_default_timeout(10_000)
    held = []

    def hold_the_first_two(route):
        if len(held) < 2:
            held.append(route)  # left waiting: answered below, with the page as it was before the tap
        else:
            route.continue_()

    phone.route("**/live?*", hold_the_first_two)
    phone.goto(seats["a"])
    expect(phone.locator("h1")).to_have_text("Inés")
    before = phone.locator("#seat").evaluate("seat => seat.outerHTML")
    drawn = stamp(phone)
    card = phone.locator(".seat-ChooseCard button.seat-card").first.get_attribute("value")
    phone.locator(f'.seat-ChooseCard button.seat-card[value="{card}"]').click()
    expect(phone.locator(".seat-status")).to_contain_text(f"Your card: {card}.")
    tapped = stamp(phone)
    assert tapped > drawn
    # The rival's phone follows by long-poll: it shows the choice within two seconds of the tap.
    expect(rival.locator(".seat-rival")).to_have_text("Inés has chosen.", timeout=2_000)

    deadline = time.monotonic() + 5
    while len(held) < 2 and time.monotonic() < deadline:  # the fragment the tap drew asks in turn
        phone.wait_for_timeout(50)
    assert len(held) == 2
    # Every stamp the seat shows from now on (a stale fragment swapped in even for a moment counts).
    phone.evaluate("""() => { window.shown = []; new MutationObserver(() => {
        const seat = document.getElementById("seat"); if (seat) window.shown.push(+seat.dataset.stamp);
    }).observe(document.body, {childList: true, subtree: true, attributes: true}); }""")
    for route in held:  # both come back now, with the page from before the tap
        route.fulfill(status=200, body=before, headers={"Content-Type": "text/html; charset=utf-8",
                                                         "Cache-Control": "no-store"})
    phone.wait_for_timeout(800)
    expect(phone.locator(".seat-status")).to_contain_text(f"Your card: {card}.")
    assert stamp(phone) == tapped
    assert min(phone.evaluate("window.shown"), default=tapped) == tapped  # never the page before the tap

    # And it follows on: the rival's card, tapped on the other phone, reaches this one.
    rival.locator(".seat-ChooseCard button.seat-card").first.click()
    started = time.monotonic()
    while stamp(phone) <= tapped and time.monotonic() - started < 5:
        phone.wait_for_timeout(50)
    assert stamp(phone) > tapped and time.monotonic() - started < 2.5
    for context in (phone.context, rival.context):
        context.close()
    service.db.close()
