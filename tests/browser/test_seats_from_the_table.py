"""Seats from the table's side (issue 33), what only a browser shows: a Spanish GM's duel page
while the players' phones act."""
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_seats import NAMES, hand_out_seats, phones, rocet_session, settled
from tracker import bootstrap
from tracker.bootstrap.db import open_db
from tracker.application.services import Context


SETTLED = "Promise.all(document.getAnimations().map(animation => animation.finished))"


def in_spanish(page, live_app) -> None:
    page.context.add_cookies([{"name": "lang", "value": "es", "url": live_app.config["LIVE_URL"]}])


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= height + 1


def test_the_duel_moved_notice_is_the_servers_in_the_gms_language_on_screen_and_keeps_the_form(
        page, browser, live_app):
    """A Spanish GM fills the adjustment form at the bottom of the page when a player taps: the
    notice reads in Spanish at the top of the screen and the form keeps its input (a sealed choice
    alone does not even conflict with it); once the turn is revealed, sending it is a conflict said in Spanish, next to the form, still holding what the GM typed."""
    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    session, duel = rocet_session(service)
    players = phones(browser, hand_out_seats(page, session))
    in_spanish(page, live_app)
    page.goto(f"/duels/{duel}")
    expect(page.locator("html")).to_have_attribute("lang", "es")

    page.locator("details.adjust > summary").click()
    page.locator("#AdjustDuelTrack-amount").fill("-3")
    page.locator("#AdjustDuelTrack-reason").fill("le dio el cura")
    page.locator("#AdjustDuelTrack-reason").scroll_into_view_if_needed()
    players["a"].locator(".seat-ChooseCard button.seat-card").first.click()

    notice = page.locator("#moved-notice")
    expect(notice).to_contain_text("El duelo ha avanzado mientras rellenabas un formulario")
    expect(notice.get_by_role("button")).to_have_text("Ver el duelo ahora")
    expect(notice).not_to_contain_text("The duel moved")
    expect(notice).to_have_attribute("aria-live", "polite")
    page.mouse.wheel(0, 2000)  # wherever the GM scrolls, the notice stays on screen
    page.wait_for_timeout(300)
    assert in_view(page, notice)
    expect(page.locator("#AdjustDuelTrack-amount")).to_have_value("-3")
    expect(page.locator("#AdjustDuelTrack-reason")).to_have_value("le dio el cura")

    players["b"].locator(".seat-ChooseCard button.seat-card").first.click()  # the turn is revealed
    expect(players["a"].locator(".seat-revealed")).to_have_count(1)
    page.wait_for_timeout(600)  # a poll or two: still not redrawn under the form
    expect(page.locator("#AdjustDuelTrack-reason")).to_have_value("le dio el cura")
    with page.expect_response(lambda r: "/adjust" in r.url) as answer:
        page.locator(".action-AdjustDuelTrack button[type=submit]").click()
    assert answer.value.status == 409
    banner = page.locator(".action-AdjustDuelTrack .error.banner")
    expect(banner).to_contain_text("Tu ajuste NO se registró")
    expect(page.locator("#AdjustDuelTrack-amount")).to_have_value("-3")
    expect(page.locator("#AdjustDuelTrack-reason")).to_have_value("le dio el cura")
    assert in_view(page, banner)
    expect(page.locator("body")).not_to_contain_text("The duel moved")
    for phone in players.values():
        phone.context.close()
    service.db.close()


def test_a_wit_exchange_thrown_leaves_the_next_exchanges_line_empty(page, browser, live_app):
    """The words a player typed for exchange 1 are spoken at its reveal and gone from the field the
    seat offers for exchange 2 (htmx kept the old field, by its id, across the redraw)."""
    from tests.web.test_seats import wit_sealed

    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    session = wit_sealed(service)["session"]
    players = phones(browser, hand_out_seats(page, session))
    words = "You fight like a dairy farmer."
    players["a"].get_by_label("What you say").fill(words)
    players["a"].get_by_role("button", name="Burla ingeniosa").click()
    expect(players["a"].locator(".seat-status")).to_contain_text("Your insult: Burla ingeniosa")
    players["b"].get_by_label("What you say").fill("You smell of fish.")
    players["b"].get_by_role("button", name="Insulto directo").click()  # both chose: the exchange is thrown
    for phone in players.values():
        expect(phone.locator(".seat-status.choose")).to_contain_text("exchange 2")
        expect(phone.get_by_label("What you say")).to_have_value("")
    players["a"].wait_for_timeout(1200)  # the seat's polls redraw it: still empty
    expect(players["a"].get_by_label("What you say")).to_have_value("")
    players["a"].get_by_label("What you say").fill("Second line")
    players["a"].wait_for_timeout(1200)  # while the player types, the polls keep what they type
    expect(players["a"].get_by_label("What you say")).to_have_value("Second line")
    for phone in players.values():
        phone.context.close()
    service.db.close()


ONE_ROW = """(selector) => [...document.querySelectorAll(selector)].map(group =>
  new Set([...group.children].map(child => Math.round(child.getBoundingClientRect().top))).size)"""


def test_on_a_390_px_phone_the_languages_and_each_clock_keep_to_one_row(page, browser, live_app):
    """The seat's two language links share one line of the header; a clock's segments never wrap
    (the longest clock there is, at 390 px); and nothing logs a console error (a refused style…)."""
    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    session, duel = rocet_session(service, clock_size=24)
    errors = []
    players = phones(browser, hand_out_seats(page, session))
    for phone in players.values():
        phone.on("console", lambda message: message.type == "error" and errors.append(message.text))
        phone.reload()
        expect(phone.locator(".clock .seg")).to_have_count(48)
        assert phone.evaluate(ONE_ROW, "header.top nav.language") == [1]
        assert phone.evaluate(ONE_ROW, ".clock .segs") == [1, 1]
        assert phone.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    players["a"].locator(".seat-ChooseCard button.seat-card").first.click()
    players["b"].locator(".seat-ChooseCard button.seat-card").first.click()
    expect(players["a"].locator(".seat-revealed")).to_have_count(1)
    players["a"].wait_for_timeout(1200)
    assert errors == []
    for phone in players.values():
        phone.context.close()
    service.db.close()


def test_the_chat_summary_copies_its_plain_text_and_the_html_recap_opens(page, live_app):
    """The GM's Spanish chat summary: "Copiar" puts the plain text on the clipboard and says so;
    the HTML recap opens as a page, its stylesheet allowed, nothing refused."""
    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    session, duel = rocet_session(service)
    service.handle({"type": "Yield", "duel_id": duel, "side": "b", "expected_version": service.version(f"duel-{duel}")})
    in_spanish(page, live_app)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_app.config["LIVE_URL"])
    refused = []
    page.on("console", lambda message: message.type == "error" and refused.append(message.text))
    page.goto(f"/sessions/{session}")
    page.locator(f"#recap a[href$='/recap/chat?audience=gm']").click()
    text = page.locator("#chat-text").input_value()
    assert "Swords at dawn" in text and "**" not in text
    page.get_by_role("button", name="Copiar").click()
    expect(page.locator(".copy-status")).to_have_text("Copiado: pégalo en el chat.")
    assert page.evaluate("navigator.clipboard.readText()") == text

    page.goto(f"/sessions/{session}")
    with page.context.expect_page() as opened:
        page.locator("#recap a[target=_blank][href$='recap.html?audience=gm']").click()
    recap = opened.value
    recap.on("console", lambda message: message.type == "error" and refused.append(message.text))
    recap.wait_for_load_state()
    expect(recap.locator("main h1")).to_contain_text("Swords at dawn")
    assert recap.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
    assert recap.evaluate("document.styleSheets.length") == 1
    assert refused == []
    service.db.close()


def test_the_seats_reveal_turns_both_cards_with_their_numbers_and_the_winner_gets_a_win_screen(
        page, browser, live_app):
    """Item 7: the reveal shows both cards side by side with the dice that decided it and the TA,
    turned over in a short animation that a phone asking for reduced motion does without; the
    duel's end is a win screen on the winner's phone and its loss on the other."""
    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    session, duel = rocet_session(service)
    players = phones(browser, hand_out_seats(page, session))
    players["b"].emulate_media(reduced_motion="reduce")
    for phone in players.values():
        phone.locator(".seat-ChooseCard button.seat-card").first.click()
    for side, phone in players.items():
        reveal = phone.locator(".seat-reveal")
        expect(reveal).to_have_count(1)
        cards = reveal.locator(".reveal-card")
        expect(cards).to_have_count(2)
        phone.evaluate(SETTLED)  # the cards turned over (mid-turn, the rival's lags by .05 s)
        tops = [round(cards.nth(i).bounding_box()["y"]) for i in range(2)]
        assert tops[0] == tops[1]  # side by side on a 390 px phone
        expect(cards.first.locator(".reveal-who")).to_have_text("You")
        expect(cards.locator(".reveal-roll")).to_have_count(2)
        expect(cards.first.locator(".reveal-roll")).to_contain_text("DES ")
        expect(reveal.locator(".reveal-ta")).to_contain_text("TA ")
        expect(reveal.locator(".reveal-card.winner")).to_have_count(1)
    moving = players["a"].evaluate("getComputedStyle(document.querySelector('.reveal-card')).animationName")
    still = players["b"].evaluate("getComputedStyle(document.querySelector('.reveal-card')).animationName")
    assert moving == "reveal-turn" and still == "none"

    service.handle({"type": "Yield", "duel_id": duel, "side": "b", "expected_version": service.version(f"duel-{duel}")})
    expect(players["a"].locator(".seat-outcome.won")).to_contain_text("You won the duel!")
    expect(players["b"].locator(".seat-outcome.lost")).to_contain_text("you lost")
    assert players["a"].evaluate("parseFloat(getComputedStyle(document.querySelector('.seat-outcome strong')).fontSize)") > 24
    for phone in players.values():
        phone.context.close()
    service.db.close()



def test_the_rocet_reveal_says_the_points_each_side_lost_in_the_turn(page, browser, live_app):
    """Once the winner deals the damage (or an Insulto costs PM), the reveal says it on the card of
    the side who lost them: "−7 PG"."""
    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    session, duel = rocet_session(service)
    players = phones(browser, hand_out_seats(page, session))
    for turn in range(1, 9):
        for phone in players.values():
            phone.locator(".seat-ChooseCard button.seat-card").first.click()
        state = settled(service, duel, lambda s, n=turn: s["turn"] >= n and not s.get("tie"))
        offer = state.get("pending_damage")
        if offer:
            winner = players[offer["side"]]
            winner.locator(".seat-DealDamage button.seat-card").first.click()
            settled(service, duel, lambda s: not s.get("pending_damage"))
        lost = players["a"].locator(".seat-reveal .reveal-lost")
        if offer or state["last_turn"]["card"] == "Insulto":
            expect(lost).to_have_count(1)
            expect(lost).to_have_text(re.compile(r"^−\d+ P[GM]$"))
            return
        if state.get("pending_discard"):
            players[state["pending_discard"]].locator(".seat-Discard button.seat-card").first.click()
            settled(service, duel, lambda s: not s.get("pending_discard"))
        expect(players["a"].locator(".seat-ChooseCard")).to_have_count(1)
    pytest.fail("eight turns without a point lost")


def test_a_wit_exchanges_reveal_shows_both_insults_with_their_words_and_numbers(page, browser, live_app):
    """The pirate seat's reveal: both insults side by side (it showed one history line), each with
    the words spoken, its d20 against SAB and the CAR it cost."""
    from tests.web.test_seats import wit_sealed

    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    session = wit_sealed(service)["session"]
    players = phones(browser, hand_out_seats(page, session))
    players["a"].get_by_label("What you say").fill("You fight like a dairy farmer.")
    players["a"].get_by_role("button", name="Burla ingeniosa").click()
    players["b"].get_by_role("button", name="Insulto directo").click()
    for phone in players.values():
        cards = phone.locator(".seat-reveal .reveal-card")
        expect(cards).to_have_count(2)
        expect(cards.first.locator(".reveal-who")).to_have_text("You")
        expect(cards.locator(".reveal-roll")).to_have_count(2)
        expect(cards.first.locator(".reveal-roll")).to_contain_text("vs SAB")
    expect(players["a"].locator(".reveal-card.mine .reveal-name")).to_have_text("Burla ingeniosa")
    expect(players["a"].locator(".reveal-card.mine .reveal-line")).to_have_text("“You fight like a dairy farmer.”")
    expect(players["b"].locator(".reveal-card.theirs .reveal-line")).to_have_text("“You fight like a dairy farmer.”")
    expect(players["b"].locator(".reveal-card.mine .reveal-name")).to_have_text("Insulto directo")
    for phone in players.values():
        phone.context.close()
    service.db.close()


def test_a_pf2e_seats_initiative_reveal_shows_both_skills_side_by_side(page, browser, live_app):
    """The PF2e seat's reveal of the secret initiative skills: a card each, side by side with its
    total, the higher one marked; the seat's own card names its skill and roll, the rival's keeps
    its skill the GM's secret (it would tell which reaction the rival holds)."""
    from tests.browser.test_pf2e_duel import SEELAH, VEX

    service = bootstrap.service(open_db(live_app.config["DATABASE"]), Context())
    campaign = service.handle({"type": "CreateCampaign", "name": "Absalom", "ruleset": "pf2e"}).key
    people = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                              "stats": {"pf2e": stats}}).key for name, stats in (("Inés", SEELAH), ("Lope", VEX))]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": "Bazaar"}).key
    service.handle({"type": "StartDuel", "session_id": session, "ruleset": "pf2e", "kind": "combat",
                    "victory": "knockout", "choices": "sealed",
                    "duelists": [{"character_id": people[0], "side": "a"}, {"character_id": people[1], "side": "b"}]})
    players = phones(browser, hand_out_seats(page, session))
    for phone in players.values():
        phone.locator(".seat-ChooseSkill button.seat-card").first.click()
    expect(players["a"].locator(".seat-reveal .reveal-card")).to_have_count(2, timeout=3000)
    for side, phone in players.items():
        cards = phone.locator(".seat-reveal .reveal-card")
        expect(cards).to_have_count(2)
        phone.evaluate(SETTLED)  # the cards turned over (mid-turn, the rival's lags by .05 s)
        tops = [round(cards.nth(i).bounding_box()["y"]) for i in range(2)]
        assert tops[0] == tops[1]  # side by side on a 390 px phone
        expect(cards.first.locator(".reveal-who")).to_have_text("You")
        expect(cards.first.locator(".reveal-name")).to_have_text("Deception")  # the first skill offered
        expect(cards.first.locator(".reveal-roll")).to_contain_text(re.compile(r"^\d+ \+\d+ = \d+$"))
        expect(cards.nth(1).locator(".reveal-who")).to_have_text(NAMES["b" if side == "a" else "a"])
        expect(cards.nth(1).locator(".reveal-name")).to_have_text(re.compile(r"^initiative \d+$"))
        expect(cards.nth(1)).not_to_contain_text("Deception")
        expect(phone.locator(".seat-reveal .reveal-card.winner")).not_to_have_count(0)
    for phone in players.values():
        phone.context.close()
    service.db.close()
