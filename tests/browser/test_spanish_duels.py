"""A Spanish-speaking GM plays one duel of each ruleset in a real browser, in Spanish, from the
set-up form to the recap: the browser asks for Spanish, the campaign's language is Spanish, and
the players' recap link and the GM's downloaded recap read in Spanish.

Every step finds its controls by their place in the page (ids, classes, form actions), never by
their words, so the flow runs whatever language the pages are drawn in. The words themselves are
checked in two tests:

- ``test_a_duel_in_spanish_from_the_set_up_form_to_the_recap`` checks what this branch translates
  (the recaps, the table's pages) and must pass now;
- ``test_every_page_of_the_duel_reads_in_spanish`` checks the GM's pages and the rules' own words.
"""
import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.browser.test_pf2e_duel import SEELAH, VEX
from tests.browser.test_pirate_duel import INES as PIRATE_INES, LOPE as PIRATE_LOPE
from tests.conftest import GM_PASSWORD, register_gm
from tests.languages import set_campaign_language
from tracker import bootstrap
from tracker.bootstrap.db import open_db

ROCET = {"des": "d8", "int": "d8", "pg_max": 30, "pm_max": 20}
RULESETS = {
    "rocet": {"campaign": "Temporada de acero", "a": ("Inés", {**ROCET, "weapons": "Ropera | Espada | 3"}),
              "b": ("Lope", {**ROCET, "weapons": "Sable | Espada | 2"}), "terms": {"f-clock_size": "3"}},
    "pirate": {"campaign": "Mar de las Antillas", "a": ("Inés", PIRATE_INES), "b": ("Lope", PIRATE_LOPE),
               "kind": "sword", "terms": {}},
    "pf2e": {"campaign": "Noches de Absalom", "a": ("Seelah", SEELAH), "b": ("Baron Vex", VEX),
             "kind": "combat", "terms": {}},
}
# Words the recaps must say in Spanish (this branch's), and English that must not show there.
SPANISH_RECAP = ["Resumen de los jugadores", "Sesión 1: Duelos al alba", "29 nov 2026", "Turno a turno", "Al final",
                 "Personajes al final de la sesión", "bando A", "bando B"]
SPANISH_GM_RECAP = ["# Sesión 1: Duelos al alba", "Resumen del DJ", "29 nov 2026", "### Turno a turno",
                    "### Al final", "## Personajes al final de la sesión", "**Resultado:**", "**Reglamento:**"]
ENGLISH_RECAP = ["Players' recap", "GM's recap", "Turn by turn", "At the end", "Characters at the end", "side A",
                 "Nov 29, 2026", "Outcome", "Ruleset"]


def seed(app, ruleset: str) -> dict:
    """A campaign in Spanish with the ruleset's two rivals and tonight's session."""
    plan = RULESETS[ruleset]
    db = open_db(app.config["DATABASE"])
    try:
        service = bootstrap.service(db)
        campaign = service.handle({"type": "CreateCampaign", "name": plan["campaign"], "ruleset": ruleset}).key
        a, b = (service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name,
                                "rank": "pj" if side == "a" else "villano", "stats": {ruleset: stats}}).key
                for side, (name, stats) in (("a", plan["a"]), ("b", plan["b"])))
        session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                                  "title": "Duelos al alba"}).key
        set_campaign_language(service, db, campaign, "es")
    finally:
        db.close()
    return {"campaign": campaign, "a": a, "b": b, "session": session}


@pytest.fixture
def spanish_page(browser, live_app):
    """A browser that asks for Spanish, the GM logged in through the login form (found by its fields)."""
    register_gm(live_app)
    context = browser.new_context(base_url=live_app.config["LIVE_URL"], locale="es-ES",
                                  extra_http_headers={"Accept-Language": "es-ES,es;q=0.9"},
                                  viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.goto("/login")
    page.locator("#f-username").fill("gm")
    page.locator("#f-password").fill(GM_PASSWORD)
    page.locator("form.panel button[type=submit]").click()
    page.wait_for_url("**/")
    yield page
    context.close()


def set_up(page, ruleset: str, ids: dict) -> str:
    """The set-up form, filled and sent: the new duel's address."""
    plan = RULESETS[ruleset]
    # The form narrowed to the ruleset, kind and sides as its no-JavaScript path asks for it (the
    # query string is the form): the htmx redraw has its own tests, and a select changed in the
    # instant before htmx wires up a freshly drawn form is a race of the test, not of a GM.
    asked = urlencode({"ruleset": ruleset, **({"kind": plan["kind"]} if plan.get("kind") else {}),
                       "side_a": ids["a"], "side_b": ids["b"]})
    page.goto(f"/sessions/{ids['session']}/duels/new?{asked}")
    expect(page.locator("#f-side_b-0")).to_have_value(ids["b"])
    for field, value in plan["terms"].items():
        page.locator(f"#{field}").fill(value)
    page.locator("form[action$='/duels'] button[type=submit]:not([formaction])").click()
    page.wait_for_url(re.compile(r"/duels/[^/]+$"))
    expect(page.locator("#duel")).to_be_visible()
    return page.url


def one_action(page, ruleset: str) -> None:
    """The ruleset's first move, by keyboard from the control the page focuses, server dice."""
    lines = page.locator(".history li")
    before = lines.count()
    if ruleset == "rocet":
        expect(page.locator(".action-PlayTurn input[name=card_a]").first).to_be_focused()
        for key in ("Space", "Tab", "Space", "Enter"):  # side A's card, side B's, reveal & roll
            page.keyboard.press(key)
        expect(page.locator(".rocet-last caption")).to_be_visible()
        for step in (".action-DealDamage button", ".action-Discard button"):
            if page.locator(step).count():
                page.locator(step).first.click()
                expect(page.locator(step)).to_have_count(0)
    else:  # the page's next step, its focused button: the round's initiative
        page.locator(".actions button[autofocus]").first.click()
        expect(lines.nth(before)).to_be_attached()


def yield_duel(page) -> None:
    """Side B yields, its words quoted: the duel ends."""
    yielding = page.locator(".action-Yield")
    page.locator("details:has(.action-Yield) > summary").click()
    if yielding.locator("select[name=side]").count():
        yielding.locator("select[name=side]").select_option("b")
    else:
        yielding.locator("input[name=side][value=b]").check()
    yielding.locator("input[name=detail]").fill("¡Me rindo!")
    yielding.locator("button[type=submit]").click()
    expect(page.locator(".outcome")).to_be_visible()


def recaps(page, ids: dict) -> dict:
    """The session page's recap panel: a players' link made and opened, the GM's Markdown downloaded."""
    page.goto(f"/sessions/{ids['session']}")
    panel = page.locator("#recap")
    panel.locator("form[action$='/recap-links'] button[type=submit]").click()
    link = page.locator("#recap a[href*='/play/']").first
    expect(link).to_be_visible()
    players = link.get_attribute("href")
    with page.expect_download() as download:
        page.locator("#recap a[href*='recap.md?audience=gm']").click()
    gm_markdown = open(download.value.path(), encoding="utf-8").read()
    page.goto(players)
    return {"players": page.locator("article.recap").inner_text(), "players_html": page.content(),
            "gm": gm_markdown}


def play(page, live_app, ruleset: str) -> dict:
    """One duel from the set-up form to the recap: what the GM and the players read on the way."""
    ids = seed(live_app, ruleset)
    seen = {"setup": None}
    page.goto(f"/sessions/{ids['session']}/duels/new?ruleset={ruleset}")
    seen["setup"] = page.locator("main").inner_text()
    set_up(page, ruleset, ids)
    one_action(page, ruleset)
    seen["duel"] = page.locator("main").inner_text()
    seen["lang"] = page.locator("html").get_attribute("lang")
    yield_duel(page)
    seen["outcome"] = page.locator(".outcome").inner_text()
    seen["history"] = page.locator(".history").inner_text()
    seen.update(recaps(page, ids))
    return seen


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_a_duel_in_spanish_from_the_set_up_form_to_the_recap(spanish_page, live_app, ruleset):
    seen = play(spanish_page, live_app, ruleset)
    assert seen["outcome"] and RULESETS[ruleset]["b"][0] in seen["gm"]
    for words in SPANISH_RECAP:
        assert words in seen["players"], words
    assert '<html lang="es"' in seen["players_html"]
    for words in SPANISH_GM_RECAP:
        assert words in seen["gm"], words
    for english in ENGLISH_RECAP:
        assert english not in seen["players"] and english not in seen["gm"], english
    assert re.search(r"tras \d+ (turnos?|asaltos?|intercambios?)\.", seen["gm"]), seen["gm"]  # the headline's count


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_every_page_of_the_duel_reads_in_spanish(spanish_page, live_app, ruleset):
    seen = play(spanish_page, live_app, ruleset)
    assert seen["lang"] == "es"  # needs: i18n-web (lang on <html> follows the GM's language)
    for page in ("setup", "duel"):  # needs: i18n-web (the set-up form and the duel page's chrome)
        for english in ("Start the duel", "Stakes", "Judge", "History", "Yield", "Abandon the duel", "Side A"):
            assert english not in seen[page], (page, english)
    # needs: i18n-rules (the outcome, the log lines and the duel's kind in the rules' own words)
    assert " won by " not in seen["outcome"] and " yields" not in seen["history"]
    for english in (" won by ", "Sword duel", "Combat duel", "Pirate duels", " yields"):
        assert english not in seen["players"] and english not in seen["gm"], english
