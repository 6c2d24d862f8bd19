"""A whole evening played from the pages alone (issue 33, "Done when"): once the GM's account
exists, nothing goes through the service or the API. The GM, on a desktop, writes the campaign,
the characters and the session on their forms, hands out two seats and starts every duel from
its set-up form; Inés and Lope play on 390 px phones. Everything is in Spanish: a sealed Rocèt duel
to its end, its rematch (still sealed), a PF2e round whose initiative skills are chosen in secret
on the phones, and a pirate wit exchange with typed lines.

Asserted and printed: the GM's interactions per Rocèt turn (0), that each phone reads the end and
who won, no English sentence of the catalogs on any page seen, no axe-core violation, no console
error, and the median time from a phone's revealing tap to the rival phone showing the reveal.
Screenshots of a phone's reveal and win screens are saved under test-results/."""
import statistics
import time
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.test_rocet_duel import Gm as CountedHands
from tests.browser.test_seats import PHONE
from tests.browser.test_every_page import AXE
from tests.crawl.test_duels_played_out import ENGLISH_ONLY
from tests.web.test_seats_from_the_table import english_in

NAMES = ("Inés", "Lope")
RESULTS = Path(__file__).parents[2] / "test-results"
MAX_TURNS = 30
AXE_ALL = """async () => {
  await Promise.all(document.getAnimations().map(a => a.finished));  // a reveal's cards turned over
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => `${v.impact} ${v.id}: ${v.help} — `
    + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
}"""
ROCET = {"des": "8", "int": "8", "pg_max": "80", "pm_max": "20", "weapons": "Ropera | Espada | 3"}
PIRATE = {"Inés": {"atq": "5", "def": "13", "pv": "12", "comunicacion": "4", "sab": "12", "car": "10", "iniciativa": "2"},
          "Lope": {"atq": "3", "def": "12", "pv": "9", "comunicacion": "2", "sab": "11", "car": "8", "iniciativa": "1"}}
PF2E = {"Inés": {"level": 3, "hp_max": 40, "ac": 20, "attack_bonus": 10, "weapon": "Espada larga", "damage": "1d8+4",
                 "deception": 7, "intimidation": 9, "perception": 8},
        "Lope": {"level": 3, "hp_max": 38, "ac": 19, "attack_bonus": 9, "weapon": "Estoque", "damage": "1d6+4",
                 "deception": 10, "intimidation": 6, "perception": 7}}


class Watched:
    """Every page of the evening: its console errors, and each distinct page drawn checked once
    for English sentences and for axe-core violations."""

    def __init__(self):
        self.errors, self.english, self.axe, self.seen = [], [], [], set()

    def listen(self, page, who):
        page.on("console", lambda m: m.type == "error" and self.errors.append(f"{who}: {m.text}"))
        page.on("pageerror", lambda e: self.errors.append(f"{who}: {e}"))

    def check(self, page, what):
        """Read the page as drawn now: no English sentence (nor PF2e term), and (once per ``what``) no axe fault."""
        text = page.locator("body").inner_text()
        self.english += [f"{what}: {s!r}" for s in ENGLISH_ONLY if s in text]
        self.english += [f"{what}: {word!r}" for word in english_in(page.content())]  # PF2e's words, one by one
        if what not in self.seen:
            self.seen.add(what)
            if not page.evaluate("typeof axe !== 'undefined'"):
                page.evaluate(AXE)
            self.axe += [f"{what}: {fault}" for fault in page.evaluate(AXE_ALL)]


SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def redraw(gm, locator, **by):
    """Choose in a select that htmx redraws the set-up form from, and wait for the new form."""
    with gm.page.expect_response(lambda r: "/duels/new" in r.url):
        gm.select(locator, **by)
    gm.page.wait_for_function(SETTLED)



class Gm(CountedHands):
    """The GM's hands on the desktop page: every click, fill and choice counted."""

    def fill(self, locator, text):
        locator.fill(str(text))
        self.count += 1

    def select(self, locator, value=None, **by):
        locator.select_option(value, **by)
        self.count += 1


def write_the_table(gm: Gm, watched: Watched) -> str:
    """The campaign, both characters (stats of the three rulesets) and tonight's session, all
    from their forms: the session's address."""
    page = gm.page
    page.goto("/")
    watched.check(page, "campaigns")
    gm.fill(page.get_by_label("Nombre"), "Temporada de acero")
    gm.click(page.get_by_role("button", name="Crear la campaña"))
    expect(page.locator("h1")).to_contain_text("Temporada de acero")
    watched.check(page, "campaign")
    campaign = page.url.rstrip("/")
    for name in NAMES:
        gm.click(page.get_by_role("link", name="Nuevo personaje"))
        page.evaluate("document.querySelectorAll('details.stats').forEach(d => d.open = true)")
        watched.check(page, "character form")
        gm.fill(page.locator("#f-name"), name)
        gm.select(page.locator("[id='f-rocet.des']"), ROCET["des"])
        gm.select(page.locator("[id='f-rocet.int']"), ROCET["int"])
        for key in ("pg_max", "pm_max", "weapons"):
            gm.fill(page.locator(f"[id='f-rocet.{key}']"), ROCET[key])
        for key, value in PIRATE[name].items():
            gm.fill(page.locator(f"[id='f-pirate.{key}']"), value)
        for key, value in PF2E[name].items():
            gm.fill(page.locator(f"[id='f-pf2e.{key}']"), value)
        gm.click(page.get_by_role("button", name="Crear el personaje"))
        expect(page.locator("h1")).to_have_text(name)
        watched.check(page, "character")
        page.goto(campaign)
    gm.click(page.get_by_role("link", name="Nueva sesión"))
    watched.check(page, "session form")
    gm.fill(page.get_by_label("Título"), "Espadas al alba")
    gm.click(page.get_by_role("button", name="Planificar la sesión"))
    expect(page.locator("h1")).to_contain_text("Espadas al alba")
    return page.url


def hand_out_seats(gm: Gm, watched: Watched) -> dict:
    page = gm.page
    for name in NAMES:
        gm.select(page.get_by_label("Asiento para"), label=name)
        gm.click(page.get_by_role("button", name="Crear un asiento"))
        expect(page.get_by_label(f"Enlace del asiento de {name} para compartir")).to_have_count(1)
    watched.check(page, "session")
    return {side: page.get_by_label(f"Enlace del asiento de {name} para compartir").input_value()
            for side, name in zip("ab", NAMES)}


def set_up(gm: Gm, session: str, ruleset: str, **choices) -> None:
    """From the session page, the set-up form of ``ruleset``: both sides, ``choices`` (select
    values or typed numbers), then "Empezar el duelo"."""
    page = gm.page
    page.goto(session)
    RESULTS.mkdir(exist_ok=True)
    gm.click(page.locator(f"a[href$='/duels/new?ruleset={ruleset}']"))
    for side, name in zip("ab", NAMES):
        select = page.locator(f"#f-side_{side}-0")
        redraw(gm, select, label=name)
    for field, value in choices.items():
        locator = page.locator(f"#f-{field}")
        if locator.evaluate("e => e.tagName") != "SELECT":
            gm.fill(locator, value)
        elif locator.get_attribute("hx-get"):
            redraw(gm, locator, value=value)
        else:
            gm.select(locator, value)


def test_a_whole_evening_from_the_pages_alone(page, browser, live_app):
    watched = Watched()
    url = live_app.config["LIVE_URL"]
    gm_page = page
    gm_page.set_viewport_size({"width": 1366, "height": 800})
    gm_page.context.add_cookies([{"name": "lang", "value": "es", "url": url}])
    watched.listen(gm_page, "GM")
    gm = Gm(gm_page)
    session = write_the_table(gm, watched)
    seats = hand_out_seats(gm, watched)
    players = phones(browser, seats, watched)

    set_up(gm, session, "rocet", choices="sealed", clock_size="3")
    expect(gm_page.locator("#f-choices")).to_have_value("sealed")
    gm.click(gm_page.get_by_role("button", name="Empezar el duelo"))
    expect(gm_page.locator(".duel-head")).to_contain_text("Inés")
    watched.check(gm_page, "rocet duel")
    first = play_rocet(gm, players, watched, shots=True)
    watched.check(gm_page, "rocet duel over")

    gm.click(gm_page.get_by_role("link", name="Revancha"))
    expect(gm_page.locator("#f-choices")).to_have_value("sealed")  # a rematch of a sealed duel stays sealed
    watched.check(gm_page, "rematch form")
    gm.click(gm_page.get_by_role("button", name="Empezar el duelo"))
    expect(gm_page.locator(".duel-head")).to_contain_text("Inés")
    second = play_rocet(gm, players, watched)
    watched.check(gm_page, "rematch over")

    set_up(gm, session, "pf2e", choices="sealed")
    gm.click(gm_page.get_by_role("button", name="Empezar el duelo"))
    expect(gm_page.locator(".duel-head")).to_contain_text("Inés")
    for phone in players.values():
        expect(phone.locator(".seat-ChooseSkill button.seat-card").first).to_be_visible()
        watched.check(phone, "pf2e seat choosing")
    players["a"].locator(".seat-ChooseSkill button.seat-card").first.click()
    expect(players["b"].locator(".seat-rival")).to_contain_text("Inés ha elegido")
    players["b"].locator(".seat-ChooseSkill button.seat-card").last.click()
    for phone in players.values():
        expect(phone.locator(".seat-revealed")).to_contain_text("Revelado: iniciativa del asalto 1")
        expect(phone.locator(".seat-reveal .reveal-card")).to_have_count(2)  # both totals, side by side
        watched.check(phone, "pf2e seat revealed")
    expect(players["a"].locator(".reveal-card.mine .reveal-name")).to_have_text("Engaño")  # its skill, in Spanish
    gm_page.reload()
    watched.check(gm_page, "pf2e duel")
    for _ in range(16):  # the round's Strikes, on the GM's page with the server's dice, to first blood
        if gm_page.locator(".outcome").count():
            break
        for phone in players.values():  # a prompt on a seat (a reaction to ready…): its player answers it
            offered = phone.locator(".seat-choices button.seat-card")
            if offered.count():
                offered.last.click()
                phone.wait_for_timeout(300)
        gm_page.reload()
        confirm = gm_page.get_by_role("button", name="Confirmar: gana")
        if confirm.count():  # first blood: the judge (the GM) confirms the victory
            gm.click(confirm)
            break
        roll = gm_page.locator("#Strike-server_roll")
        if not roll.is_checked():
            gm.click(roll)
        with gm_page.expect_response(lambda r: r.request.method == "POST"):
            gm.click(gm_page.locator(".action-Strike button[name=end_turn]"))
        gm_page.wait_for_load_state()
    expect(gm_page.locator(".outcome")).to_be_visible()
    watched.check(gm_page, "pf2e duel over")
    pf2e_winner = seen_the_end(players, watched, "pf2e")

    set_up(gm, session, "pirate", kind="wit", choices="sealed", exchanges="1")
    gm.click(gm_page.get_by_role("button", name="Empezar el duelo"))
    expect(gm_page.locator(".duel-head")).to_contain_text("Inés")
    lines = {"a": "Luchas como un granjero.", "b": "Hueles a pescado podrido."}
    for exchange in range(1, 6):
        for side, phone in players.items():
            expect(phone.get_by_label("Lo que dices")).to_have_value("")
            watched.check(phone, "wit seat choosing")
            phone.get_by_label("Lo que dices").fill(f"{lines[side]} ({exchange})")
            phone.locator("button.seat-card[name=insult]").first.click()
        for side, phone in players.items():
            rival = "b" if side == "a" else "a"
            expect(phone.locator(".seat-reveal .reveal-line").filter(has_text=f"({exchange})")).to_have_count(2)
            expect(phone.locator(".reveal-card.theirs .reveal-line")).to_contain_text(lines[rival])
            watched.check(phone, "wit seat reveal")
        if either(players, ".seat-outcome", seconds=1.5):
            break
    wit_winner = seen_the_end(players, watched, "wit")
    gm_page.reload()
    watched.check(gm_page, "wit duel over")
    rocet_turns = first["gm_per_turn"] + second["gm_per_turn"]
    latencies = first["latencies"] + second["latencies"]
    assert max(rocet_turns) == 0, rocet_turns
    assert watched.english == [], watched.english
    assert watched.axe == [], watched.axe
    assert watched.errors == [], watched.errors
    median = statistics.median(latencies)
    assert median < 1.5, latencies
    print(f"\nWhole evening from the pages: {len(rocet_turns)} Rocèt turns (duel and its sealed rematch), "
          f"GM interactions per turn {rocet_turns}; winners {first['winner']}, {second['winner']}, "
          f"PF2e and wit duels won by {pf2e_winner}, {wit_winner}, each read on both phones; "
          f"median reveal latency (revealing tap to the rival phone showing it) {median * 1000:.0f} ms "
          f"({', '.join(f'{x * 1000:.0f}' for x in latencies)} ms); {len(watched.seen)} pages checked: "
          f"0 English sentences, 0 axe violations, 0 console errors; GM interactions in all {gm.count}; "
          f"screenshots: {RESULTS / 'evening-reveal.png'}, {RESULTS / 'evening-win.png'}")


def phones(browser, seats, watched) -> dict:
    found = {}
    for (side, seat), name in zip(seats.items(), NAMES):
        phone = browser.new_context(**PHONE, locale="es-ES").new_page()
        phone.set_default_timeout(10_000)
        watched.listen(phone, name)
        phone.goto(seat)
        expect(phone.locator("h1")).to_have_text(name)
        expect(phone.locator("html")).to_have_attribute("lang", "es")
        watched.check(phone, "seat idle")
        found[side] = phone
    return found


def either(players, selector, seconds=8.0):
    """The side whose phone shows ``selector`` first, or None when none did in ``seconds``."""
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        for side, phone in players.items():
            if phone.locator(selector).count():
                return side
        time.sleep(.03)
    return None


def play_rocet(gm, players, watched, shots=False) -> dict:
    """A sealed Rocèt duel to its end, every card chosen on the phones: the GM's interactions per
    turn, the reveal latencies, the winner."""
    gm_per_turn, latencies, turn = [], [], 0
    for side, phone in players.items():
        expect(phone.locator(".seat-ChooseCard button.seat-card").first).to_be_visible()
        watched.check(phone, "seat choosing")
    while turn < MAX_TURNS:
        turn += 1
        before = gm.count
        first, second = ("a", "b") if turn % 2 else ("b", "a")
        for side in "ab":
            expect(players[side].locator(".seat-ChooseCard button.seat-card").first).to_be_visible()
        players[first].locator(".seat-ChooseCard button.seat-card").first.click()
        name = NAMES["ab".index(first)]
        expect(players[second].locator(".seat-rival")).to_contain_text(f"{name} ha elegido")
        tapped = time.perf_counter()
        players[second].locator(".seat-ChooseCard button.seat-card").last.click()  # reveals both
        expect(players[first].locator(f".seat-reveal[data-turn='{turn}']")).to_have_count(1)
        latencies.append(time.perf_counter() - tapped)
        expect(players[second].locator(f".seat-reveal[data-turn='{turn}']")).to_have_count(1)
        if shots and turn == 1:  # once both cards have turned over (a shot mid-turn shows them ghosted)
            players["a"].evaluate("Promise.all(document.getAnimations().map(a => a.finished)).then(() => true)")
            players["a"].screenshot(path=str(RESULTS / "evening-reveal.png"))
        watched.check(players["a"], "seat reveal")
        while True:  # what the turn left to decide, each on its own phone, or the end, or the next turn
            side = either(players, ".seat-outcome, .seat-Discard button.seat-card, .seat-DealDamage button")
            if side is None or players[side].locator(".seat-outcome").count():
                break
            if players[side].locator(".seat-Discard button.seat-card").count():
                players[side].locator(".seat-Discard button.seat-card").first.click()
                expect(players[side].locator(".seat-Discard")).to_have_count(0)
            else:
                players[side].locator(".seat-DealDamage button").first.click()
                expect(players[side].locator(".seat-DealDamage")).to_have_count(0)
            if either(players, ".seat-ChooseCard button.seat-card", seconds=.5):
                break
        gm_per_turn.append(gm.count - before)
        if side is not None and players[side].locator(".seat-outcome").count():
            break
    winner = seen_the_end(players, watched, "rocet")
    if shots:
        players[winner].evaluate("Promise.all(document.getAnimations().map(a => a.finished)).then(() => true)")
        players[winner].screenshot(path=str(RESULTS / "evening-win.png"))
    return {"gm_per_turn": gm_per_turn, "latencies": latencies, "winner": winner}


def seen_the_end(players, watched, what) -> str:
    """Every phone reads that the duel is over and who won: the winning side."""
    for phone in players.values():
        expect(phone.locator(".seat-outcome")).to_be_visible()
    winner = next(s for s, p in players.items() if p.locator(".seat-outcome.won").count())
    expect(players[winner].locator(".seat-outcome.won")).to_contain_text("¡Has ganado el duelo!")
    loser = "b" if winner == "a" else "a"
    expect(players[loser].locator(".seat-outcome.lost")).to_contain_text("has perdido")
    expect(players[loser].locator(".seat-outcome.lost")).to_contain_text(NAMES["ab".index(winner)])
    for side, phone in players.items():
        watched.check(phone, f"{what} seat won" if side == winner else f"{what} seat lost")
    return winner
