"""The pirate duel page in a real browser, by keyboard with server dice: a whole duelo de labia, a sword round."""
import re

from playwright.sync_api import expect

from tracker.bootstrap.db import open_db
from tracker import bootstrap

INES = {"atq": 5, "def": 13, "pv": 12, "comunicacion": 4, "sab": 12, "car": 10, "iniciativa": 2,
        "weapons": "Sable | sword | 1d8"}
LOPE = {"atq": 3, "def": 12, "pv": 9, "comunicacion": 2, "sab": 11, "car": 8, "iniciativa": 1,
        "weapons": "Espada ropera | sword | 1d6"}


def seed_duel(app, **terms) -> str:
    db = open_db(app.config["DATABASE"])
    try:
        service = bootstrap.service(db)
        campaign = service.handle({"type": "CreateCampaign", "name": "Mar de las Antillas", "ruleset": "pirate"}).key
        ines, lope = (service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                                      "stats": {"pirate": stats}}).key
                      for name, stats in (("Inés", INES), ("Lope", LOPE)))
        session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                  "date": "2026-11-29", "title": "Tortuga"}).key
        return service.handle({"type": "StartDuel", "session_id": session, "ruleset": "pirate",
                               "duelists": [{"character_id": ines, "side": "a"},
                                            {"character_id": lope, "side": "b"}], **terms}).key
    finally:
        db.close()


def test_a_wit_duel_from_the_keyboard_to_its_end_banner(page, live_app):
    duel = seed_duel(live_app, kind="wit")
    page.goto(f"/duels/{duel}")
    expect(page.locator(".pirate-terms")).to_contain_text("Exchange 1 of 3")
    keys_per_exchange = []

    def act(*keys: str) -> None:
        """Press keys (or type text) like a GM at the table, then wait for htmx to log it and swap the page."""
        before = page.locator(".history li").count()
        for key in keys:
            if len(key) > 1 and " " in key:
                page.keyboard.type(key)
            else:
                page.keyboard.press(key)
        expect(page.locator(".history li").nth(before)).to_be_attached()   # one more line (no eval: CSP)
        keys_per_exchange[-1] += len(keys)

    # The first insult with the dice typed from the table: the dice field is one Tab past the button.
    keys_per_exchange.append(0)
    act("Enter")
    expect(page.get_by_role("radio", name=re.compile("^Burla ingeniosa"))).to_be_focused()
    act("ArrowDown", "Tab", "Tab", "15 4", "Enter")
    expect(page.locator(".history li").last).to_contain_text(
        re.compile(r"tries Insulto directo on \S+, d20 15 .*: hit, 1d6 \[4\] = 4"))
    expect(page.locator(".pirate-points").filter(has_text="4")).to_have_count(1)
    act("ArrowDown", "Enter")

    while not page.locator(".outcome").count():
        assert len(keys_per_exchange) < 10, "the duel should be over by now"
        keys_per_exchange.append(0)
        # After every swap the next action's main control has the focus: Enter rolls initiative…
        expect(page.get_by_role("button", name="Roll initiative")).to_be_focused()
        act("Enter")
        for _ in range(2):
            if page.locator(".outcome").count():
                break
            # …and each duelist's last insult is ticked and focused: Enter insults with it again.
            expect(page.get_by_role("radio", name=re.compile("^Insulto directo"))).to_be_focused()
            act("Enter")

    expect(page.locator(".outcome")).to_contain_text(re.compile("won by (points|humiliation)|a draw"))
    expect(page.locator(".pirate-actions")).to_have_count(0)
    expect(page.locator(".pirate-terms")).not_to_contain_text("Exchanges left")
    expect(page.locator(".pirate-terms")).to_contain_text(re.compile(r"Fought \d+ exchanges? of 3"))
    assert page.locator(".history li").filter(has_text="tries Insulto directo").count() >= 2
    # The first exchange picks and types: Enter, then ArrowDown + Tab Tab + dice + Enter, then
    # ArrowDown + Enter = 8. Afterwards, server dice: one Enter each for initiative and both insults.
    assert keys_per_exchange[0] == 8 and all(keys <= 3 for keys in keys_per_exchange[1:]), keys_per_exchange
    print(f"\ninteractions per wit exchange (keys): {keys_per_exchange}")


def test_a_sword_round_is_three_presses_of_enter(page, live_app):
    page.goto(f"/duels/{seed_duel(live_app, kind='sword', sword_victory='death')}")
    for presses, button in enumerate(("Roll initiative", "Attack: ", "Attack: "), start=1):
        expect(page.get_by_role("button", name=re.compile("^" + button))).to_be_focused()   # htmx settled
        page.keyboard.press("Enter")
        expect(page.locator(".history li")).to_have_count(1 + presses)
    expect(page.locator(".history li").last).to_contain_text("Round 1: ")
    expect(page.locator(".pirate-now")).to_contain_text("Round 2: roll initiative")


def test_a_wit_exchange_is_three_taps_with_server_dice(page, live_app):
    """By touch: Roll initiative, then each duelist's Insult button (their usual insult ticked)."""
    duel = seed_duel(live_app, kind="wit")
    page.goto(f"/duels/{duel}")
    actions = page.locator(".pirate-actions")
    taps_per_exchange = []
    while not page.locator(".outcome").count() and len(taps_per_exchange) < 6:
        taps_per_exchange.append(0)
        for button in ("Roll initiative", "Insult:", "Insult:"):
            if page.locator(".outcome").count():
                break
            before = page.locator(".history li").count()
            actions.get_by_role("button", name=button).click()
            taps_per_exchange[-1] += 1
            expect(page.locator(".history li").nth(before)).to_be_attached()
    expect(page.locator(".outcome")).to_be_visible()
    expect(page.locator(".pirate-terms")).not_to_contain_text("Exchanges left")
    print(f"\ntaps per wit exchange, server dice: {taps_per_exchange}")
    assert all(taps <= 3 for taps in taps_per_exchange) and taps_per_exchange[0] == 3, taps_per_exchange
