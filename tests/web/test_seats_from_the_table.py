"""Seats from the table's side (issue 33) through the test client: what the GM and the players read
in Spanish around seated duels."""
from tests.conftest import text_of
from tests.languages import set_campaign_language
from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import choose_insult, issue_seat, wit_sealed

ES = {"Accept-Language": "es"}


def test_a_spanish_wit_duel_counts_exchanges_never_rounds(client, anonymous, gm_service):
    """A duelo de labia counts intercambios on every page: the recap's headline, the statistics'
    longest duels, the assumptions; "asalto" is a sword fight's word. Its best line is quoted."""
    duel = wit_sealed(gm_service)
    d = duel["duel"]
    set_campaign_language(gm_service, gm_service.db, duel["campaign"], "es")
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    choose_insult(anonymous, seats[0], d, "a", "Burla ingeniosa", "Luchas como un granjero.")
    assert choose_insult(anonymous, seats[1], d, "b", "Insulto directo", "Hueles a pescado.").status_code == 200
    recap = client.get(f"/sessions/{duel['session']}/recap.md?audience=gm", headers=ES).text
    pages = {"recap": recap,
             "players' recap": client.get(f"/sessions/{duel['session']}/recap.md?audience=players", headers=ES).text,
             "statistics": text_of(client.get(f"/campaigns/{duel['campaign']}/statistics", headers=ES).text),
             "duel": text_of(client.get(f"/duels/{d}", headers=ES).text),
             "seat": text_of(anonymous.get(seats[0]).text)}
    for name, text in pages.items():
        assert "asalto" not in text.lower(), name
    assert "tras 1 intercambio (Intercambio 2: iniciativa)" in recap
    assert "**Mejor frase:** “Luchas como un granjero.” (Burla ingeniosa) de Inés" in recap
    assert "1 intercambios" in pages["statistics"]
    assert "En cada intercambio ambos duelistas tiran iniciativa" in pages["duel"]
    assert "intercambio" in pages["seat"]


def test_the_next_exchanges_line_field_is_a_new_empty_field(client, anonymous, gm_service):
    """The seat's words field carries its exchange in its id (htmx keeps a field by id across a
    redraw), and comes back empty for the next exchange."""
    duel = wit_sealed(gm_service)
    d = duel["duel"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    chosen = choose_insult(anonymous, seats[0], d, "a", "Burla ingeniosa", "Line one.").text
    assert f'id="seat-line-{d}-1"' in chosen and 'value="Line one."' in chosen
    thrown = choose_insult(anonymous, seats[1], d, "b", "Insulto directo", "Line two.").text
    assert f'id="seat-line-{d}-2"' in thrown and f'id="seat-line-{d}-1"' not in thrown
    assert 'value="Line one."' not in thrown and 'value="Line two."' not in thrown


# PF2e's words a Spanish table reads from the Spanish books (docs/glossary.md), and English the
# Spanish pages once showed: none of these may show on a Spanish page (names the GM typed aside).
PF2E_ENGLISH = ["None", "expert", "trained", "untrained", "Treat Wounds", "Medicine", "Hit Points", "deception",
                "Skip to content", "The duel moved", "Stride", "Raise a Shield", "Recall Knowledge", "Deception",
                "Intimidation", "Perception", "Will", "DC", "Demoralize", "Feint", "Strike", "Strikes", "AC", "HP",
                "Deceptive Sidestep", "Bullying Press", "Sense Weakness", "Dueling Counter", "Arcana", "Nature",
                "Occultism", "Religion", "arcane", "primal", "occult", "divine"]
PF2E_SPANISH = ["Engaño", "Percepción", "Voluntad", "CD", "Desmoralizar", "Fintar", "Golpe", "CA", "PG"]


def words_of(page: str) -> str:
    """A page's visible words and the words of its attributes people read (placeholders, labels)."""
    import html
    import re

    said = re.findall(r'(?:placeholder|aria-label|title|data-announce|data-moved|data-moved-show|alt)="([^"]*)"', page)
    return text_of(page) + " | " + " ".join(html.unescape(value) for value in said)


def english_in(page: str, words=PF2E_ENGLISH) -> list[str]:
    import re

    text = words_of(page)
    return [w for w in words if re.search(r"(?<!\w)" + re.escape(w) + r"(?!\w)", text)]


def test_a_spanish_pf2e_duel_its_sheet_and_seats_read_the_spanish_books_words(client, anonymous, gm_service):
    from tests.web.test_seats import choose_skill, pf2e_sealed

    duel = pf2e_sealed(gm_service)
    d, (seelah, vex) = duel["duel"], duel["people"]
    set_campaign_language(gm_service, gm_service.db, duel["campaign"], "es")
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    assert choose_skill(anonymous, seats[0], d, seelah, "deception").status_code == 200
    assert choose_skill(anonymous, seats[1], d, vex, "perception").status_code == 200
    pages = {"seat A": anonymous.get(seats[0]).text, "seat B": anonymous.get(seats[1]).text,
             "duel": client.get(f"/duels/{d}", headers=ES).text,
             "sheet": client.get(f"/characters/{seelah}", headers=ES).text,
             "history": client.get(f"/campaigns/{duel['campaign']}/history", headers=ES).text}
    for name, page in pages.items():
        assert '<html lang="es"' in page, name
        assert english_in(page) == [], name
    duel_page = words_of(pages["duel"])
    for word in PF2E_SPANISH:
        assert word in duel_page, word
    assert "Engaño" in words_of(pages["seat A"])  # the skill Seelah's player chose, by its Spanish name
    assert "Competencia en Engaño Entrenado" in text_of(pages["sheet"])
    assert "Zancada, Alzar un escudo…" in duel_page  # the other action's placeholder


def test_the_history_names_a_rulesets_own_ending_in_spanish(app, client):
    """Rocèt's "clock" ending reads "Reloj" in the Spanish duel history (it showed the raw key)."""
    import dataclasses

    from tests.conftest import fixed_context
    from tracker import bootstrap, rules
    from tracker.bootstrap.db import open_db

    db = open_db(app.config["DATABASE"])
    try:
        service = bootstrap.service(db, dataclasses.replace(fixed_context(), actor="gmtest"))
        campaign = service.handle({"type": "CreateCampaign", "name": "Reloj", "ruleset": "rocet"}).key
        session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                  "date": "2026-11-29", "title": "A las doce"}).key
        people = {side: service.handle({"type": "CreateCharacter", "campaign_id": campaign, **sheet}).key
                  for side, sheet in zip("ab", rules.get("rocet").samples.DUELISTS)}
        duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet",
                               "duelists": [{"character_id": i, "side": s} for s, i in people.items()],
                               "setup": {"kind": "relojes", "cards": "physical", "weapon_type": "Espada",
                                         "clock_size": 3}}).key
        for _ in range(12):
            state = service.state_of(f"duel-{duel}")[1]
            if state.get("outcome"):
                break
            command = ({"type": "DeclineDamage"} if state.get("pending_damage") else
                       {"type": "PlayTurn", "card_a": "Estocada Alta", "card_b": "Insulto", "dice_a": [3, 4],
                        "dice_b": [2, 3]})
            service.handle({**command, "duel_id": duel, "expected_version": service.version(f"duel-{duel}")})
    finally:
        db.close()
    assert state["outcome"]["ending"] == "clock"
    page = client.get(f"/campaigns/{campaign}/history", headers=ES).text
    assert '<small class="ending">Reloj</small>' in page and "clock" not in text_of(page)


# --- smaller gaps (issue 33 item 11) ---------------------------------------------------------------

def recovered(gm, character):
    return [r for r in gm.store.read_stream(f"character-{character}") if r.type == "CharacterRecovered"]


def test_a_new_sessions_date_starts_on_today(client, gm_service):
    from tests.web.test_seats import setup_duel

    campaign = setup_duel(gm_service)["campaign"]
    form = client.get(f"/campaigns/{campaign}/sessions/new").text
    today = client.application.config["SERVICE_CONTEXT"].now()[:10]  # the service's clock (fixed in tests)
    assert f'value="{today}"' in form and 'type="date"' in form


def test_a_finished_duel_rests_both_duelists_in_one_tap_once(client, gm_service):
    from tests.web.test_seats import setup_duel

    duel = setup_duel(gm_service)
    d = duel["duel"]
    assert "rest-both" not in client.get(f"/duels/{d}").text  # only once the duel is over
    gm_service.handle({"type": "Yield", "duel_id": d, "side": "b", "expected_version": gm_service.version(f"duel-{d}")})
    page = client.get(f"/duels/{d}", headers=ES).text
    assert "Ambos duelistas descansan" in page
    import re

    command_id = re.search(r'class="rest-both".*?name="command_id" value="([0-9a-f]+)"', page, re.S).group(1)
    for _ in range(2):  # a double tap of the same page rests them once
        answer = client.post(f"/duels/{d}/rest", data={"command_id": command_id}, headers={"HX-Request": "true", **ES})
        assert answer.status_code == 200
        assert "Los duelistas han descansado" in answer.text
    for character in duel["people"]:
        rests = recovered(gm_service, character)
        assert len(rests) == 1 and rests[0].data["recovery"] == "rest"


def test_the_duel_page_offers_no_seat_for_an_npc(client, gm_service):
    from tests.web.test_seats import setup_duel

    duel = setup_duel(gm_service, npc=True)
    page = client.get(f"/duels/{duel['duel']}").text
    offered = page[page.index('id="seat-character"'):].split("</select>")[0]
    assert duel["people"][0] in offered and duel["people"][1] not in offered


def test_the_duel_history_is_numbered_forwards(client, gm_service):
    from tests.web.test_seats import setup_duel

    d = setup_duel(gm_service)["duel"]
    gm_service.handle({"type": "NoteDuel", "duel_id": d, "text": "first note"})
    gm_service.handle({"type": "Yield", "duel_id": d, "side": "b", "expected_version": gm_service.version(f"duel-{d}")})
    page = client.get(f"/duels/{d}").text
    history = page[page.index('<section class="panel history">'):].split("</section>")[0]
    assert "<ol reversed" not in history and "<ol>" in history
    lines = [text_of(item) for item in history.split("<li>")[1:]]
    assert len(lines) >= 2 and "yield" in lines[-1].lower()  # the last thing that happened comes last


def test_each_theme_button_is_named_with_its_visible_word(client):
    """axe's label-content-name-mismatch: "Auto" was named "Tema automático" in Spanish."""
    import re

    for language in ("en", "es"):
        page = client.get("/", headers={"Accept-Language": language}).text
        buttons = re.findall(r'<button type="submit" name="theme" value="\w+"[^>]*aria-label="([^"]+)">([^<]+)</button>',
                             re.sub(r"\s+", " ", page))
        assert len(buttons) == 3, language
        for spoken, shown in buttons:
            assert shown.strip().lower() in spoken.lower(), (language, spoken, shown)


def test_the_downloaded_html_recap_has_its_main_landmark(client, gm_service):
    from tests.web.test_seats import setup_duel

    session = setup_duel(gm_service)["session"]
    document = client.get(f"/sessions/{session}/recap.html?audience=gm").text
    assert document.count("<main>") == 1 and "</main>" in document


# --- recaps (issue 33 item 9) ---------------------------------------------------------------------

def played_and_rested(client, anonymous, gm_service):
    """A seated Rocèt turn (Inés changes her mind once), a yield, then the sheet's rests and heals."""
    from tests.web.test_seats import choose, setup_duel, state

    duel = setup_duel(gm_service)
    d = duel["duel"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    hands = state(gm_service, d)["sides"]
    choose(anonymous, seats[0], d, "a", hands["a"]["hand"][0])
    choose(anonymous, seats[0], d, "a", hands["a"]["hand"][1])
    choose(anonymous, seats[1], d, "b", hands["b"]["hand"][0])
    gm_service.handle({"type": "Yield", "duel_id": d, "side": "b", "expected_version": gm_service.version(f"duel-{d}")})
    ines, lope = duel["people"]
    gm_service.handle({"type": "AdjustTrack", "character_id": ines, "ruleset": "rocet", "track": "PG", "amount": -5,
                       "reason": "a fall"})
    gm_service.handle({"type": "AdjustTrack", "character_id": ines, "ruleset": "rocet", "track": "PG", "amount": 2,
                       "reason": "healed by the cleric"})
    gm_service.handle({"type": "RecoverCharacter", "character_id": lope, "ruleset": "rocet", "recovery": "rest"})
    return duel


def test_the_html_recap_opens_in_the_browser_under_a_scriptless_policy_and_still_downloads(client, gm_service):
    from tests.web.test_seats import setup_duel

    session = setup_duel(gm_service)["session"]
    shown = client.get(f"/sessions/{session}/recap.html?audience=gm")
    assert shown.headers["Content-Disposition"].startswith("inline;")
    policy = shown.headers["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "style-src 'sha256-" in policy and "script-src" not in policy
    saved = client.get(f"/sessions/{session}/recap.html?audience=gm&download=1")
    assert saved.headers["Content-Disposition"].startswith("attachment;")
    assert client.get(f"/sessions/{session}/recap.md?audience=gm").headers["Content-Disposition"].startswith("attachment;")
    panel = client.get(f"/sessions/{session}").text
    assert f"/sessions/{session}/recap/chat?audience=gm" in panel
    assert f"/sessions/{session}/recap.html?audience=gm&amp;download=1" in panel


def test_the_chat_summary_is_plain_text_to_copy_with_a_button(client, anonymous, gm_service):
    duel = played_and_rested(client, anonymous, gm_service)
    page = client.get(f"/sessions/{duel['session']}/recap/chat?audience=gm", headers=ES).text
    import html
    import re

    text = html.unescape(re.search(r'<textarea id="chat-text"[^>]*readonly>(.*?)</textarea>', page, re.S).group(1))
    assert "Swords at dawn" in text and "Inés vs Lope" in text and "**" not in text and "\\" not in text
    assert re.search(r'<button type="button" class="copy" data-copy="chat-text" data-copied="Copiado[^"]*" hidden>Copiar</button>',
                     page)


def test_the_full_recap_tells_the_rests_and_heals_and_ends_as_the_sheet_does(client, anonymous, gm_service):
    duel = played_and_rested(client, anonymous, gm_service)
    recap = client.get(f"/sessions/{duel['session']}/recap.md?audience=gm").text
    between = recap[recap.index("## Between duels"):recap.index("## Characters at the end")]
    assert "a fall" in between and "healed by the cleric" in between and "Lope" in between
    sheet = text_of(client.get(f"/characters/{duel['people'][0]}").text)
    assert "27/30" in sheet or "27 /30" in sheet
    assert "- **Inés**: 1 win; PG 27/30" in recap
    assert "has chosen a card" not in recap and "has changed their card" not in recap  # the reveal tells it
    assert "Turn 1: Inés plays" in recap
    html_recap = client.get(f"/sessions/{duel['session']}/recap.html?audience=gm").text
    assert "healed by the cleric" in html_recap and "has chosen a card" not in html_recap
