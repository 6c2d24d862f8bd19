"""Recaps in the campaign's language (Spanish here), or in the one asked for: Markdown, HTML, JSON,
on the web and on the command line, from one scripted duel of each ruleset.

The rules' own words (a duel's lines, its kind, its outcome) are read in the recap's language too;
until the rules' catalogs hold Spanish they read in English, so what this file checks of them is
that each line is the rules' Text read in Spanish, and ``test_the_rules_words_are_spanish_too``
(marked until then) names the Spanish the rules must bring.
"""
import dataclasses
import json
import random

import pytest
from flask_babel import force_locale

from bench.driver import play
from tests.conftest import GM_ID
from tests.integration.test_recap import Actions, start
from tests.languages import set_campaign_language
from tracker import bootstrap, recap, rules
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker.projections import queries
from tracker.rules.text import render

# Headings and labels every Spanish recap of a finished duel shows, and their English that must not.
SPANISH_GM = ["Resumen del DJ", "Turno a turno", "Al final", "Personajes al final de la sesión",
              "Supuestos (DJ)", "Secretos al final (DJ)", "Sesión 1: Swords at dawn", "29 nov 2026", "Reglamento",
              "Resultado", "Notas del DJ:", "bando A", "bando B"]
SPANISH_PLAYERS = ["Resumen de los jugadores", "Turno a turno", "Al final", "Personajes al final de la sesión",
                   "Sesión 1: Swords at dawn", "29 nov 2026", "bando A"]
ENGLISH = ["GM's recap", "Players' recap", "Turn by turn", "At the end", "Characters at the end of the session",
           "Assumptions (GM)", "Secrets at the end (GM)", "Nov 29, 2026", "side A", "GM notes:"]


@pytest.fixture
def night(app):
    """The demo session, its campaign in Spanish: a Rocèt duel played with virtual cards, a PF2e duel
    won by a Strike, a pirate duel ended by a yield."""
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, dataclasses.replace(app.config["SERVICE_CONTEXT"], actor=GM_ID))
    campaign = demo.seed(db, service)
    session = db.execute("SELECT id FROM sessions WHERE campaign_id = ?", [campaign]).fetchone()[0]
    ids = [row[0] for row in db.execute("SELECT id FROM characters WHERE campaign_id = ? ORDER BY rowid", [campaign])]
    rocet = db.execute("SELECT id FROM duels WHERE session_id = ?", [session]).fetchone()[0]
    play(service, rocet, random.Random(5), 25)
    pf2e = start(service, session, "pf2e", ids[4], ids[5], {"kind": "combat"})
    do = Actions(service, pf2e)
    do("RollInitiative", duelist=ids[4], skill="deception", dice_roll=[5])
    do("RollInitiative", duelist=ids[5], skill="intimidation", dice_roll=[15])
    do("Strike", dice_attack=[10])
    do("DeclineSidestep", dice_damage=[5])
    pirate = start(service, session, "pirate", ids[2], ids[3], {"kind": "sword"})
    Actions(service, pirate)("Yield", side="b", detail="¡Basta!")
    set_campaign_language(service, db, campaign, "es")
    db.close()
    return {"campaign": campaign, "session": session}


def get(client, session, fmt, audience, lang=None):
    query = f"?audience={audience}" + (f"&lang={lang}" if lang else "")
    response = client.get(f"/sessions/{session}/recap.{fmt}{query}", headers={"Accept-Language": "en"})
    assert response.status_code == 200, response.text
    return response.text


def words(text: str, fmt: str) -> str:
    """What a reader reads: the JSON's strings, the HTML's apostrophes unescaped."""
    if fmt == "json":
        return json.dumps(json.loads(text), ensure_ascii=False)
    return text.replace("&#39;", "'").replace("\\'", "'")


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
@pytest.mark.parametrize("audience, spanish", [("gm", SPANISH_GM), ("players", SPANISH_PLAYERS)])
def test_the_recap_reads_in_the_campaigns_language_whatever_the_gms_browser(client, night, fmt, audience, spanish):
    text = words(get(client, night["session"], fmt, audience), fmt)
    wanted = [w for w in spanish if fmt != "json" or w not in ("Reglamento", "Resultado", "Notas del DJ:", "bando A",
                                                               "bando B", "Turno a turno", "Al final",
                                                               "Personajes al final de la sesión",
                                                               "Supuestos (DJ)", "Secretos al final (DJ)",
                                                               "Resumen del DJ", "Resumen de los jugadores",
                                                               "Sesión 1: Swords at dawn")]
    for expected in wanted:
        assert expected in text, expected
    for english in ENGLISH:
        assert english not in text, english


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_lang_asks_for_another_language(client, night, fmt):
    text = words(get(client, night["session"], fmt, "gm", lang="en"), fmt)
    assert "Nov 29, 2026" in text and "29 nov 2026" not in text
    if fmt != "json":
        assert "GM's recap" in text and "Turn by turn" in text and "Resumen del DJ" not in text


def test_an_unknown_lang_falls_back_to_the_campaigns(client, night):
    assert "Turno a turno" in get(client, night["session"], "md", "gm", lang="xx")


def test_the_json_says_its_language_and_keeps_data_as_data(client, night):
    data = json.loads(get(client, night["session"], "json", "gm"))
    assert data["language"] == "es" and data["session"]["date"] == "2026-11-29"
    assert data["session"]["date_text"] == "29 nov 2026"
    sentences = [duel["headline"]["sentence"] for duel in data["duels"]]
    assert any(" tras " in s and ("turnos." in s or "asaltos." in s or "asalto." in s or "turno." in s
                                    or "intercambio." in s or "intercambios." in s)
               for s in sentences), sentences
    results = {d["result"]: d["result_label"] for duel in data["duels"] for d in duel["duelists"] if d["result"]}
    assert results.get("win") == "victoria" and results.get("loss") == "derrota"
    records = [c["record_text"] for c in data["characters"]]
    assert "1 victoria" in records and "1 derrota" in records
    assert " contra " in data["duels"][0]["title"]


def test_an_english_campaign_reads_english_unless_asked(client, night, app):
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, dataclasses.replace(app.config["SERVICE_CONTEXT"], actor=GM_ID))
    set_campaign_language(service, db, night["campaign"], "en")
    db.close()
    assert "Turn by turn" in get(client, night["session"], "md", "gm")
    assert "Turno a turno" in get(client, night["session"], "md", "gm", lang="es")


def test_each_narrative_line_is_the_rules_line_read_in_spanish(app, night):
    """Holds before and after the rules speak Spanish: the recap shows the rules' own Text, in Spanish."""
    db = open_db(app.config["DATABASE"])
    with app.app_context():
        data = recap.build(db, night["session"], "gm")
        with force_locale("es"):
            for duel in data["duels"]:
                state = queries.stream_state(db, f"duel-{duel['id']}")
                view = rules.get(state["ruleset"]).seen_by(state, "gm")
                history = {line["at"]: render(line["text"]) for line in view["history"]}
                for line in duel["narrative"]:
                    assert line["text"] == history[line["at"]]
    db.close()


def test_the_rules_words_are_spanish_too(client, night):
    data = json.loads(get(client, night["session"], "json", "gm"))
    english_kinds = {"Sword duel", "Pistol duel", "Combat duel", "Spellcasting duel", "Relojes", "Clock duel"}
    for duel in data["duels"]:
        assert duel["kind_label"] not in english_kinds
        assert duel["ruleset_title"] != "Pirate duels"
        if duel["outcome"]:
            assert " won by " not in duel["outcome"]["summary"]
        assert not any(" hits " in line["text"] or " yields" in line["text"] for line in duel["narrative"])


# --- the command line ---------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_flask_recap_lang_es(runner, night, fmt):
    result = runner.invoke(args=["recap", night["session"], "--format", fmt, "--lang", "es"])
    assert result.exit_code == 0, result.output
    text = words(result.output, fmt)
    assert "29 nov 2026" in text
    if fmt != "json":
        for expected in SPANISH_GM:
            assert expected in text, expected


def test_flask_recap_reads_the_campaigns_language_and_lang_en_overrides_it(runner, night):
    assert "Turno a turno" in runner.invoke(args=["recap", night["session"]]).output
    english = runner.invoke(args=["recap", night["session"], "--lang", "en", "--audience", "players"]).output
    assert "Players' recap" in english and "Turno a turno" not in english


def test_flask_recap_html_document_says_its_language(runner, night):
    page = runner.invoke(args=["recap", night["session"], "--format", "html", "--lang", "es"]).output
    assert '<html lang="es">' in page and "<title>Sesión 1: Swords at dawn · Resumen del DJ</title>" in page


def test_the_short_recap_in_spanish_fits_one_chat_message(app, runner, night):
    short = runner.invoke(args=["recap", night["session"], "--format", "short.md", "--audience", "players"]).output
    assert short.splitlines()[0] == "**Sesión 1: Swords at dawn** · 29 nov 2026"
    assert len(short) <= recap.CHAT_LIMIT and " contra " in short and " tras " in short
    data = json.loads(runner.invoke(args=["recap", night["session"], "--format", "json"]).output)
    crowded = dict(data, duels=[dict(data["duels"][0], title="Un título muy largo " * 6)] * 60)
    with app.app_context():  # drawn again from its JSON: in the language the JSON says
        assert recap.render(crowded, "short.md").rstrip().endswith("55 duelos más en el resumen completo.")
