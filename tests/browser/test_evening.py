"""A GM runs an evening in a real browser, on a phone: a challenge from a sheet, a Rocèt duel to
the end with an undo and its restore on the way, a rest and an adjustment between duels, then a
rematch back to back, counting every click, key press and field filled, and printing the
interactions each Rocèt turn took."""
import re

from playwright.sync_api import expect

from tests.browser.test_rocet_duel import Gm
from tests.conftest import fixed_context
from tracker import bootstrap
from tracker.bootstrap.db import open_db


def seed(database: str) -> dict:
    """A Rocèt campaign with Inés and Lope, who have fought before (Inés is down to 31/40 PG)."""
    service = bootstrap.service(open_db(database), fixed_context())
    campaign = service.handle({"type": "CreateCampaign", "name": "Season of Steel", "ruleset": "rocet"}).key
    ids = {"campaign": campaign}
    for name, rank, weapon in (("Inés", "pj", "Ropera | Espada | 3"), ("Lope", "villano", "Sable | Espada | 2")):
        ids[name] = service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": rank,
                                    "stats": {"rocet": {"des": "d8", "int": "d8", "pg_max": 40, "pm_max": 30,
                                                        "weapons": weapon}}}).key
    service.handle({"type": "AdjustTrack", "character_id": ids["Inés"], "ruleset": "rocet", "track": "PG",
                    "amount": -9, "reason": "wounded on the road"})
    service.db.close()
    return ids


class Evening(Gm):
    """The GM's hands, also filling fields (one interaction each) and following links."""

    def fill(self, locator, text):
        locator.fill(text)
        self.count += 1

    def choose(self, locator, value):
        """Pick an option of a select that htmx redraws the form from, and wait for the redraw."""
        with self.page.expect_response(lambda r: "/duels/new" in r.url):
            locator.select_option(value)
        self.count += 1

    def visit(self, path):
        """Go to a page the GM would reach by a link or a bookmark: one interaction."""
        self.page.goto(path)
        self.count += 1


def play_to_the_end(page, gm: Evening, undo_at: int | None = None) -> tuple[list[int], list]:
    """Play Rocèt turns by touch with server rolls until the duel ends: the interactions of each
    turn, and of every step after a turn (damage, discard, undo, restore)."""
    per_turn, extras, turn = [], [], 0
    for _ in range(60):
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
            gm.click(deal.first)
            expect(page.locator(".action-DealDamage")).to_have_count(0)
            extras.append(("damage", gm.count - before))
        else:
            turn += 1
            before = gm.count
            gm.click(page.locator(".action-PlayTurn .rocet-group.side-a label.rocet-card").first)
            gm.click(page.locator(".action-PlayTurn .rocet-group.side-b label.rocet-card").last)
            gm.click(page.get_by_role("button", name="Reveal & roll"))
            expect(page.locator(".rocet-last caption")).to_contain_text(f"Turn {turn}:")
            per_turn.append(gm.count - before)
            if turn == undo_at:  # "that was the wrong card": undo it, then think better of it
                before = gm.count
                gm.click(page.locator("a.undo-last"))  # one tap asks, the next confirms
                expect(page.locator(".undo-last")).to_contain_text(f"Turn {turn}")
                gm.click(page.get_by_role("button", name="Yes, undo it"))
                expect(page.locator(".notice")).to_contain_text("Undone.")
                expect(page.locator(".rocet-last caption")).not_to_contain_text(f"Turn {turn}:")
                extras.append(("undo", gm.count - before))
                before = gm.count
                gm.click(page.get_by_role("button", name="Restore what was undone"))
                expect(page.locator(".notice")).to_contain_text("Restored")
                expect(page.locator(".rocet-last caption")).to_contain_text(f"Turn {turn}:")
                extras.append(("restore", gm.count - before))
    expect(page.locator(".outcome")).to_contain_text("won by clock")
    return per_turn, extras


def test_an_evening_of_duels_on_a_phone(page, live_app):
    ids = seed(live_app.config["DATABASE"])
    page.set_viewport_size({"width": 390, "height": 844})
    gm = Evening(page)
    counts = {}

    # A challenge from Inés's sheet: the set-up shows only the Clocks terms, the weapons filled in.
    page.goto(f"/characters/{ids['Inés']}")
    expect(page.locator(".bar").first).to_contain_text("PG 31/40")
    start = gm.count
    gm.click(page.get_by_role("link", name="Challenge…"))
    gm.choose(page.locator("#f-side_b-0"), ids["Lope"])
    expect(page.locator("#f-weapon_b")).to_have_value("Sable")  # htmx redrew the form from Lope's sheet
    expect(page.locator("#f-weapon_type")).to_have_value("Espada")
    expect(page.locator("#f-meter_steps")).to_have_count(0)  # a Superioridad term, not shown for Clocks
    gm.fill(page.locator("#f-clock_size"), "3")
    gm.click(page.get_by_role("button", name="Start the duel"))
    expect(page.locator(".duel-head")).to_contain_text("Inés vs Lope")
    counts["challenge"] = gm.count - start
    expect(page.locator("p.meta").first).to_contain_text("Duels of")  # today's session, planned on the fly
    first_duel = page.url

    turns_1, extras_1 = play_to_the_end(page, gm, undo_at=2)

    # Between the duels: Inés rests, then the GM remembers the cleric's healing for Lope.
    start = gm.count
    gm.visit(f"/characters/{ids['Inés']}")
    gm.click(page.locator("form.recover").get_by_role("button", name="Rest"))
    expect(page.locator(".bar").first).to_contain_text("PG 40/40")
    expect(page.locator("#between-duels")).to_contain_text("Rest")
    counts["rest"] = gm.count - start
    gm.visit(f"/characters/{ids['Lope']}")
    lope_pg = int(re.search(r"PG (\d+)/40", page.locator(".bar").first.inner_text()).group(1))
    start = gm.count
    gm.click(page.locator("details.adjust summary"))
    amount = 2 if lope_pg <= 38 else -2
    gm.fill(page.locator("#f-amount-rocet"), str(amount))
    gm.fill(page.locator("#f-reason-rocet"), "healed by the cleric")
    gm.click(page.get_by_role("button", name="Adjust"))
    expect(page.locator(".bar").first).to_contain_text(f"PG {lope_pg + amount}/40")
    expect(page.locator("#between-duels")).to_contain_text("Adjusted: healed by the cleric")
    counts["adjustment"] = gm.count - start

    # The rematch, back to back: the same terms, two taps.
    page.goto(first_duel)
    start = gm.count
    gm.click(page.get_by_role("link", name="Rematch"))
    expect(page.locator("#f-clock_size")).to_have_value("3")
    gm.click(page.get_by_role("button", name="Start the duel"))
    expect(page.locator(".duel-head")).to_contain_text("Inés vs Lope")
    counts["rematch"] = gm.count - start
    assert page.url != first_duel
    turns_2, extras_2 = play_to_the_end(page, gm)

    turns = turns_1 + turns_2
    assert all(n == 3 for n in turns), turns
    assert ("undo", 2) in extras_1 and ("restore", 1) in extras_1
    assert counts["rematch"] == 2 and counts["rest"] == 2 and counts["adjustment"] == 4
    assert counts["challenge"] == 4
    print(f"\nEvening: {gm.count} GM interactions in all; {len(turns)} Rocèt turns at "
          f"{sum(turns) / len(turns):.1f} interactions per turn ({turns}); after-turn steps: {extras_1 + extras_2}; "
          f"fast starts and between duels: {counts}")
