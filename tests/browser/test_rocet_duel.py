"""A GM runs a short Rocèt clock duel in a real browser: cards, server rolls, damage,
discards, to the victory, counting the clicks and key presses each turn takes."""
from playwright.sync_api import expect

from tests.conftest import fixed_context
from tracker.bootstrap.db import open_db
from tracker import bootstrap


def seed_duel(database: str) -> str:
    """Inés and Lope in a 3-interval clock duel with virtual cards: the duel's id."""
    service = bootstrap.service(open_db(database), fixed_context())
    campaign = service.handle({"type": "CreateCampaign", "name": "Season of Steel", "ruleset": "rocet"}).key
    people = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": rank,
                              "stats": {"rocet": {"des": "d8", "int": "d8", "pg_max": 60, "pm_max": 40,
                                                  "weapons": weapon}}}).key
              for name, rank, weapon in (("Inés", "pj", "Ropera | Espada | 3"),
                                         ("Lope", "villano", "Sable | Espada | 2"))]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": "Swords at dawn"}).key
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "kind": "relojes",
                           "clock_size": 3, "cards": "virtual", "weapon_type": "Espada",
                           "duelists": [{"character_id": people[0], "side": "a"},
                                        {"character_id": people[1], "side": "b"}]}).key
    service.db.close()
    return duel


class Gm:
    """The GM's hands on the page: every click and key press is counted."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def click(self, locator):
        locator.click()
        self.count += 1

    def press(self, key):
        self.page.keyboard.press(key)
        self.count += 1


def test_a_short_clock_duel_with_server_rolls(page, live_app):
    duel = seed_duel(live_app.config["DATABASE"])
    page.set_viewport_size({"width": 768, "height": 1024})  # a tablet held upright
    page.goto(f"/duels/{duel}")
    page.evaluate("window.sameDocument = true")  # gone if any action reloads the page

    card = page.locator(".action-PlayTurn .rocet-group.side-a label.rocet-card").first
    assert card.bounding_box()["height"] >= 44  # a touch target

    gm, per_turn, extras, turn = Gm(page), [], [], 0
    for _ in range(40):
        if page.locator(".outcome").count():
            break
        discard = page.locator(".action-Discard button")
        deal = page.locator(".action-DealDamage button")
        if discard.count():
            before = gm.count
            gm.click(discard.first)
            expect(page.locator(".action-Discard")).to_have_count(0)
            extras.append(("discard", gm.count - before))
        elif deal.count():
            before = gm.count
            expect(deal.first).to_be_focused()
            gm.click(deal.first)
            expect(page.locator(".action-DealDamage")).to_have_count(0)
            extras.append(("damage", gm.count - before))
        else:
            turn += 1
            before = gm.count
            if turn == 2:  # the keyboard alone: the first card of side A has the focus
                expect(page.locator(".action-PlayTurn input[name=card_a]").first).to_be_focused()
                gm.press("Space")   # side A's card
                gm.press("Tab")     # to side B's cards
                gm.press("Space")   # side B's card
                gm.press("Enter")   # reveal & roll
            else:  # by touch
                cards_a = page.locator(".action-PlayTurn .rocet-group.side-a label.rocet-card")
                feint = cards_a.filter(has_text="Finta").or_(cards_a.filter(has_text="Treta"))
                gm.click(feint.first if feint.count() else cards_a.first)  # a feint forces a discard
                gm.click(page.locator(".action-PlayTurn .rocet-group.side-b label.rocet-card").last)
                gm.click(page.get_by_role("button", name="Reveal & roll"))
            expect(page.locator(".rocet-last caption")).to_contain_text(f"Turn {turn}:")
            per_turn.append(gm.count - before)

    expect(page.locator(".outcome")).to_contain_text("won by clock")
    expect(page.locator(".rocet-won")).to_have_count(1)
    expect(page.locator(".rocet-actions")).to_have_count(0)
    assert page.evaluate("window.sameDocument") is True  # every action swapped #duel in place
    assert turn >= 2 and all(n <= 4 for n in per_turn), per_turn
    assert all(n == 1 for _, n in extras), extras
    history = page.locator(".history li")
    expect(history.last).to_contain_text("Duel ended: ")
    print(f"\nRocèt turns: {per_turn} interactions per turn; after-turn steps: {extras}")
