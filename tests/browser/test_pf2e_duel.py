"""One round of a Pathfinder 2e combat duel played in a real browser, as a GM at the table:
secret initiative skills, a Strike with Bullying Press, both turns ended, interactions counted."""
from playwright.sync_api import expect

from tracker.bootstrap.db import open_db
from tracker import bootstrap

SEELAH = dict(level=3, hp_max=40, ac=20, attack_bonus=10, weapon="Longsword", damage="1d8+4",
              deception=7, deception_rank="trained", intimidation=9, intimidation_rank="expert",
              perception=8, perception_rank="trained")
VEX = dict(level=3, hp_max=38, ac=19, attack_bonus=9, weapon="Rapier", damage="1d6+4",
           deception=10, deception_rank="expert", intimidation=6, intimidation_rank="trained",
           perception=7, perception_rank="trained")


def seed(app, victory="knockout") -> str:
    """A campaign, Seelah against Baron Vex, and a combat duel (to knockout): the duel's id."""
    service = bootstrap.service(open_db(app.config["DATABASE"]))
    campaign = service.handle({"type": "CreateCampaign", "name": "Absalom Nights", "ruleset": "pf2e"}).key
    seelah, vex = (service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": rank,
                                   "stats": {"pf2e": block}}).key
                   for name, rank, block in (("Seelah", "pj", SEELAH), ("Baron Vex", "villano", VEX)))
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": "The Grand Bazaar"}).key
    return service.handle({"type": "StartDuel", "session_id": session, "ruleset": "pf2e", "kind": "combat",
                           "victory": victory, "judge": "Magistrate Ilse",
                           "duelists": [{"character_id": seelah, "side": "a"},
                                        {"character_id": vex, "side": "b"}]}).key


def test_one_round_of_a_combat_duel(page, live_app):
    duel = seed(live_app)
    page.goto(f"/duels/{duel}")
    actions = page.locator(".pf2e-actions")
    state = page.locator(".pf2e-round")
    interactions = 0

    def act(step):
        nonlocal interactions
        interactions += 1
        step()

    # Initiative: each duelist's secret skill; Seelah's player rolled a 20 at the table, the
    # server rolls Baron Vex's d20.
    act(lambda: actions.get_by_label("Intimidation +9").check())
    act(lambda: actions.get_by_label("d20 (as rolled)").first.fill("20"))
    act(lambda: page.keyboard.press("Enter"))
    expect(actions.get_by_role("button", name="Roll initiative for Seelah")).to_have_count(0)
    act(lambda: actions.get_by_label("Intimidation +6").check())  # his usual skill is Deception
    act(lambda: actions.get_by_role("button", name="Roll initiative for Baron Vex").click())
    expect(state.get_by_role("heading")).to_contain_text("Seelah’s turn")
    expect(state.locator(".secret").first).to_have_text("Intimidation")  # the GM sees the skills
    round_start = interactions

    # Seelah's turn: the d20 field has the focus; Bullying Press declared with a tap, dice typed.
    attack = page.locator("#Strike-dice_attack")
    expect(attack).to_be_focused()
    act(lambda: actions.get_by_label("Bullying Press").check())
    act(lambda: attack.fill("12"))                       # 22 vs AC 19: a hit
    act(lambda: page.locator("#Strike-dice_damage").fill("5"))
    act(lambda: page.keyboard.press("Enter"))
    vex = page.locator(".side-b")
    expect(vex).to_contain_text("HP 29/38")
    expect(vex).to_contain_text("Frightened 1")
    expect(page.locator(".side-a")).to_contain_text("Bullying Press: used")
    act(lambda: actions.get_by_role("button", name="End Seelah’s turn").click())

    # Baron Vex's turn: the server rolls everything.
    expect(state.get_by_role("heading")).to_contain_text("Baron Vex’s turn")
    act(lambda: actions.get_by_role("button", name="Strike", exact=True).click())
    expect(page.locator(".history")).to_contain_text("Baron Vex Strikes Seelah")
    act(lambda: actions.get_by_role("button", name="End Baron Vex’s turn").click())

    expect(state.get_by_role("heading")).to_have_text("Round 2 · initiative")
    expect(vex).not_to_contain_text("Frightened 1")
    assert (round_start, interactions - round_start, interactions) == (5, 7, 12)
    history = page.locator(".history").inner_text()
    assert "Round 1 initiative: Seelah" in history and "Intimidation" not in history


def test_a_round_with_two_strikes_a_side_and_server_dice_takes_at_most_six_interactions(page, live_app):
    """Initiative for everyone with their usual skills, then each side Strikes twice, the second
    Strike ending the turn; a Deceptive Sidestep the target may use is answered when asked."""
    duel = seed(live_app)
    page.goto(f"/duels/{duel}")
    actions = page.locator(".pf2e-actions")
    state = page.locator(".pf2e-round")
    history = page.locator(".history li")
    interactions = 0

    def tap(name: str) -> None:
        nonlocal interactions
        before = history.count()
        actions.get_by_role("button", name=name, exact=True).click()
        interactions += 1
        expect(history.nth(before)).to_be_attached()  # logged and swapped

    def answer_sidestep() -> None:
        if actions.get_by_role("button", name="Let the hit stand").count():
            tap("Let the hit stand")

    tap("Roll initiative for everyone")
    expect(state.get_by_role("heading")).to_contain_text("’s turn")
    for _ in range(2):
        first = state.get_by_role("heading").inner_text()
        expect(actions.get_by_role("heading", name="Strike")).to_be_visible()
        tap("Strike")
        answer_sidestep()
        expect(actions).to_contain_text("2 of 3 actions left")
        tap("Strike, end turn")
        answer_sidestep()
        expect(state.get_by_role("heading")).not_to_have_text(first)
    expect(state.get_by_role("heading")).to_have_text("Round 2 · initiative")
    strikes = page.locator(".history").inner_text().count(" Strikes ")
    print(f"\nPF2e round, two Strikes a side, server dice: {interactions} GM interactions")
    assert strikes == 4 and interactions <= 6, interactions


def test_a_whole_duel_to_first_blood_confirmed_by_the_judge(page, live_app):
    duel = seed(live_app, victory="first_blood")
    page.goto(f"/duels/{duel}")
    actions = page.locator(".pf2e-actions")
    actions.get_by_label("Intimidation +9").check()
    actions.get_by_label("d20 (as rolled)").first.fill("20")
    page.keyboard.press("Enter")
    # Wait for the swap: Vex's form is on the page before it too, and a tick made there is lost.
    expect(actions.get_by_role("button", name="Roll initiative for Seelah")).to_have_count(0)
    actions.get_by_label("Intimidation +6").check()
    actions.get_by_label("d20 (as rolled)").first.fill("2")
    page.keyboard.press("Enter")
    page.locator("#Strike-dice_attack").fill("12")
    page.locator("#Strike-dice_damage").fill("5")
    page.keyboard.press("Enter")
    expect(page.locator(".side-b")).to_contain_text("HP 29/38")
    actions.get_by_role("button", name="Confirm").first.click()
    expect(page.locator(".outcome")).to_contain_text("Seelah won by first blood")
