"""Every page of Touché, crawled from the demo and a campaign with a duel of each kind, checked
on a phone, a tablet and a laptop: no sideways scrolling, touch targets of 44 px, the strict CSP
never refused, and no serious or critical accessibility fault (axe-core) in either theme.

Seats (players' own pages) do not exist yet; the players' pages checked are the table display
and the player recap. One server, one crawl and one login serve every test of this module."""
import random
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import served
from tests.browser.crawl import crawl
from tests.browser.showcase import seed
from tests.conftest import FAST_HASH, GM_PASSWORD, register_gm
from tracker import create_app
from tracker.application.services import Context

# Its tests share one module-wide fixture (costly to build): under xdist they run on one worker.
pytestmark = pytest.mark.xdist_group("every-page")

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
TAP = 44  # px: the smallest target a thumb hits reliably (WCAG 2.5.5, Apple and Material guidance)
VIEWPORTS = {"phone-360": (360, 740), "phone-390": (390, 844), "tablet-768": (768, 1024), "laptop-1366": (1366, 800)}
TOUCH = {"phone-360", "phone-390", "tablet-768"}

# Sideways overflow, and every visible action control smaller than a thumb on a touch screen,
# with every <details> opened first (the menu, typed dice, other endings) so none hides a fault.
MEASURE = """(tap) => {
  for (const details of document.querySelectorAll('details')) details.open = true;
  const controls = 'button, a.button, input[type=submit], input[type=button], select, summary, '
    + '.rocet-card, .pirate-insult, .pill, label.check, label.inline, label.pirate-check, '
    + 'label:has(> input[type=checkbox]), label:has(> input[type=radio])';
  const small = [];
  for (const el of document.querySelectorAll(controls)) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
    if (box.width < tap - 0.5 || box.height < tap - 0.5) {
      small.push(`${el.tagName.toLowerCase()}.${el.className || ''} "${(el.textContent || '').trim().slice(0, 30)}" `
        + `${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return {overflow: document.documentElement.scrollWidth - window.innerWidth, small};
}"""

AXE_RUN = """async (rules) => {
  const options = rules ? {runOnly: {type: 'rule', values: rules}, resultTypes: ['violations']} : {resultTypes: ['violations']};
  const result = await axe.run(document, options);
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => `${v.impact} ${v.id}: ${v.help} — ` + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
}"""


AXE_THEME_RULES = ["color-contrast", "link-in-text-block"]  # all that a change of colours can change


class Findings:
    """What the walk found on each page: overflow and small controls per window, axe per theme."""

    def __init__(self):
        self.layout = {name: [] for name in VIEWPORTS}
        self.axe = {"light": [], "dark": []}
        self.refused: list[str] = []

    def check(self, page, url):
        """Measure the page drawn at ``url`` at every window size, then run axe: every rule on a wide
        screen and on a phone, and again in the dark theme the rules a change of colours can fail."""
        for name, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            measured = page.evaluate(MEASURE, TAP)
            if measured["overflow"] > 0:
                self.layout[name].append(f"{url}: {measured['overflow']} px wider than the screen")
            if name in TOUCH and measured["small"]:
                self.layout[name].append(f"{url}: controls under {TAP} px: {measured['small'][:4]}")
        page.evaluate(AXE)  # with every <details> left open by MEASURE, their contents are checked too
        self.axe["light"] += [f"{url} (wide): {fault}" for fault in page.evaluate(AXE_RUN, None)]
        page.set_viewport_size({"width": 390, "height": 844})  # and on a phone, in both themes
        self.axe["light"] += [f"{url} (phone): {fault}" for fault in page.evaluate(AXE_RUN, None)]
        page.emulate_media(color_scheme="dark")
        self.axe["dark"] += [f"{url} (phone): {fault}" for fault in page.evaluate(AXE_RUN, AXE_THEME_RULES)]
        page.emulate_media(color_scheme="light")


@pytest.fixture(scope="module")
def site(browser, tmp_path_factory):
    """The app on a showcase database, crawled once by the logged-in GM, each page checked as drawn."""
    database = str(tmp_path_factory.mktemp("every-page") / "site.db")
    app = create_app({"DATABASE": database, "SECRET_KEY": "browser-tests",
                      "SERVICE_CONTEXT": Context(rng=random.Random(11), password_method=FAST_HASH)})
    register_gm(app)
    ids = seed(database)
    with served(app, threads=8) as base:
        app.config["BASE_URL"] = base  # players' links too

        context = browser.new_context(base_url=base, viewport={"width": 1366, "height": 800}, has_touch=True)
        page = context.new_page()
        findings = Findings()
        page.on("console", lambda message: "Content Security Policy" in message.text
                and findings.refused.append(f"{page.url}: {message.text}"))
        page.on("response", lambda answer: answer.status == 404 and "/static/" in answer.url
                and findings.refused.append(f"missing {answer.url}"))
        page.goto("/login")
        findings.check(page, "/login")
        page.get_by_label("Username").fill("gm")
        page.get_by_label("Password").fill(GM_PASSWORD)
        page.get_by_role("button", name="Log in").click()
        page.wait_for_url("**/")
        starts = ["/", *(f"/duels/{duel}" for duel in ids["duels"].values()), "/duels/no-such-duel"]
        walk = crawl(page, base, starts, on_page=lambda url: findings.check(page, url))
        for refused in refusals(page, ids):
            findings.check(page, refused)
            walk.pages.append(refused)
        login = context.storage_state()
        context.close()
        yield {"base": base, "walk": walk, "login": login, "ids": ids, "findings": findings}


def refusals(page, ids):
    """Draw refused forms, whose pages a crawl of links never sees; a name for each."""
    page.goto(f"/campaigns/{ids['campaign']}/characters/new")
    page.get_by_role("button", name="Create character").click()
    page.locator(".error-summary").wait_for()
    yield "refused: new character"
    page.goto(f"/sessions/{ids['session']}/duels/new?ruleset=pirate")
    page.get_by_role("button", name="Start the duel").click()
    page.locator(".error-summary").wait_for()
    yield "refused: new pirate duel"
    for ruleset, duel in ids["duels"].items():
        page.goto(f"/duels/{duel}")
        if ruleset == "rocet":
            page.get_by_role("button", name="Reveal & roll").click()  # no card chosen
        else:
            page.locator(".actions form input[type=text]").first.fill("999")  # no such die
            page.keyboard.press("Enter")
        page.locator(".actions .error-summary").wait_for()
        yield f"refused: a {ruleset} action (htmx)"


def test_the_crawl_reaches_every_kind_of_page(site):
    pages, fragments = site["walk"].pages, site["walk"].fragments
    print(f"\n{len(pages) + 1} pages (the login page too) and {len(fragments)} htmx fragments checked")
    wanted = ["/", "/campaigns/", "/characters/", "/sessions/", "/duels/", "/travel", "/compare", "/events/", "/streams/",
              "/history", "/statistics", "/record", "/log", "/settings", "/import", "/play/", "/display", "/recap",
              "/duels/new", "/characters/new", "/sessions/new", "/edit"]
    missing = [part for part in wanted if not any(part in url for url in pages)]
    assert not missing, f"the crawl never reached {missing}"
    for duel in site["ids"]["duels"].values():
        assert f"/duels/{duel}" in pages
    assert sum(url.startswith("refused: ") for url in pages) == 5
    assert any("/display/live" in url for url in fragments)


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_no_page_scrolls_sideways_and_every_control_is_thumb_sized(site, viewport):
    faults = site["findings"].layout[viewport]
    assert not faults, "\n".join(faults)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_on_any_page(site, scheme):
    faults = site["findings"].axe[scheme]
    assert not faults, "\n".join(faults)


def test_the_strict_csp_refuses_nothing_and_no_static_file_is_missing(site):
    faults = site["findings"].refused
    assert not faults, "\n".join(faults)


def browse(browser, site, viewport, **options):
    """A logged-in tab of its own, with the window size and options asked for."""
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(base_url=site["base"], storage_state=site["login"],
                                  viewport={"width": width, "height": height}, has_touch=viewport in TOUCH, **options)
    return context.new_page()


def test_axe_on_a_phone_with_the_menu_open(browser, site):
    page = browse(browser, site, "phone-390", color_scheme="dark")
    faults = []
    for url in ["/", f"/duels/{site['ids']['duels']['rocet']}", f"/campaigns/{site['ids']['campaign']}/history"]:
        page.goto(url)
        page.get_by_text("Menu").click()
        page.evaluate(AXE)
        faults += [f"{url}: {fault}" for fault in page.evaluate(AXE_RUN)]
        assert page.evaluate(MEASURE, TAP)["overflow"] <= 0
        expect(page.locator("header.top nav a").first).to_be_visible()
    page.context.close()
    assert not faults, "\n".join(faults)


def test_without_javascript_the_menu_opens_and_the_theme_switch_works(browser, site):
    page = browse(browser, site, "phone-390", java_script_enabled=False, color_scheme="light")
    page.goto(f"/campaigns/{site['ids']['campaign']}")
    settings = page.locator("header.top nav.account a")
    expect(settings).to_be_hidden()                  # folded into the menu on a phone
    page.get_by_text("Menu").click()                 # <details>: no script needed
    expect(settings).to_be_visible()
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.get_by_role("button", name="Dark theme").click()
    page.wait_for_url(f"**/campaigns/{site['ids']['campaign']}")  # back where it was chosen
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    dark = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert light == "rgb(251, 248, 243)" and dark == "rgb(21, 18, 15)", (light, dark)
    page.get_by_text("Menu").click()
    expect(page.get_by_role("button", name="Dark theme")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Auto theme").click()
    expect(page.locator("html")).not_to_have_attribute("data-theme", "dark")
    page.context.close()


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_on_a_wide_screen_the_menu_is_laid_out_flat(browser, site, script):
    page = browse(browser, site, "laptop-1366", java_script_enabled=script)
    page.goto("/")
    expect(page.locator("header.top nav.account a")).to_be_visible()
    expect(page.get_by_text("Menu")).to_be_hidden()
    page.context.close()


def test_a_character_sheet_prints_without_the_app_around_it(browser, site):
    page = browse(browser, site, "laptop-1366", color_scheme="dark")
    page.goto(f"/campaigns/{site['ids']['campaign']}")
    page.locator(".panel a[href^='/characters/']").first.click()
    page.emulate_media(media="print")
    expect(page.locator("header.top")).to_be_hidden()
    expect(page.locator("h1")).to_be_visible()
    expect(page.locator(".bar").first).to_be_visible()
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    assert page.evaluate("getComputedStyle(document.querySelector('h1')).color") == "rgb(0, 0, 0)"
    assert page.locator("form").evaluate_all("forms => forms.every(f => !f.checkVisibility())")
    page.context.close()


def test_the_measure_sees_a_small_control_and_a_page_too_wide(browser):
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.set_content('<button>ok</button><div style="width: 500px">wide</div>'
                     '<details><summary>more</summary><button>hidden</button></details>')
    measured = page.evaluate(MEASURE, TAP)
    assert measured["overflow"] > 0 and len(measured["small"]) == 3  # both buttons and the summary
    page.close()
