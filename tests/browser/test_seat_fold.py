"""A Rocèt seat on a 390x844 phone keeps its hand of three within the screen, without scrolling:
while choosing the first card, and after the reveal (both cards, their numbers and the TA above the
hand, the next card to choose), in English and in Spanish (the longer words)."""
import random
import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_seats import PHONE, hand_out_seats, phones, rocet_session
from tests.browser.test_whole_evening import either
from tracker import bootstrap
from tracker.bootstrap.db import open_db
from tracker.application.services import Context

SETTLED = "Promise.all(document.getAnimations().map(a => a.finished)).then(() => true)"
HAND = ".seat-ChooseCard button.seat-card"


def three_different_cards_each(service):
    """A sealed Rocèt duel whose two hands hold three different cards each (a pair is one button)."""
    for _ in range(30):
        session, duel = rocet_session(service)
        sides = service.state_of(f"duel-{duel}")[1]["sides"]
        if all(len(set(sides[side]["hand"])) == 3 for side in "ab"):
            return session, duel
    pytest.fail("no deal gave both hands three different cards")


def past_the_reveal(players) -> None:
    """What the first turn left to decide (the loser's discard, the winner's damage), decided on
    its phone, until both phones choose the second card under the first reveal."""
    deadline = time.perf_counter() + 30
    while not all(phone.locator(f".seat-reveal[data-turn='1'] ~ {HAND}").count() for phone in players.values()):
        assert time.perf_counter() < deadline, [phone.locator("#seat").inner_text() for phone in players.values()]
        side = either(players, ".seat-Discard button.seat-card, .seat-DealDamage button", seconds=1)
        if side is None:
            continue
        phone = players[side]
        phone.locator(".seat-Discard button.seat-card, .seat-DealDamage button").first.click()
        expect(phone.locator(".seat-Discard, .seat-DealDamage")).to_have_count(0)


def third_card_in_view(phone, height: int) -> dict:
    """The third card's box once nothing moves; it must lie wholly in the first screen."""
    phone.evaluate(SETTLED)
    cards = phone.locator(HAND)
    if cards.count() < 3:
        return {}
    box = cards.nth(2).bounding_box()
    assert phone.evaluate("window.scrollY") == 0
    assert 0 <= box["y"] and box["y"] + box["height"] <= height, box
    assert box["height"] >= 44  # still a thumb's tap
    return box


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_third_card_stays_above_the_fold_choosing_and_revealed(page, browser, live_app, language):
    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context(rng=random.Random(5)))
    session, duel = three_different_cards_each(service)
    campaign = service.state_of(f"duel-{duel}")[1]["campaign_id"]
    service.handle({"type": "SetCampaignLanguage", "campaign_id": campaign, "language": language,
                    "expected_version": service.version(f"campaign-{campaign}")})
    players = phones(browser, hand_out_seats(page, session))
    height = PHONE["viewport"]["height"]
    for side, phone in players.items():
        expect(phone.locator(HAND)).to_have_count(3)
        print("choosing", side, third_card_in_view(phone, height))
    for phone in players.values():
        phone.locator(HAND).first.click()
    past_the_reveal(players)
    measured = 0
    for side, phone in players.items():
        expect(phone.locator(".seat-reveal .reveal-card")).to_have_count(2)
        box = third_card_in_view(phone, height)  # a hand left with a pair shows two cards
        print("revealed", side, box, phone.locator(HAND).count())
        measured += bool(box)
    assert measured, "no phone held three different cards after the reveal"
    for phone in players.values():
        phone.context.close()
    service.db.close()
