"""The reader's language: the GM's own choice (an event on their account), else the browser's; a
switch on every page; the campaign's language for its players; dates read and written the
language's way; and the log, stored as facts, read again in whichever language is asked."""
from tests.conftest import GM_ID, count_events, redirect_key
from tracker.bootstrap.db import open_db
from tracker.projections import queries

SPANISH = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.8"}


def events_of(app, stream):
    db = open_db(app.config["DATABASE"])
    try:
        return [row[0] for row in db.execute("SELECT type FROM events WHERE stream = ? ORDER BY version", [stream])]
    finally:
        db.close()


def state_of(app, stream):
    db = open_db(app.config["DATABASE"])
    try:
        return queries.stream_state(db, stream)
    finally:
        db.close()


def test_without_a_choice_the_browser_s_language_is_used_and_html_lang_follows(client):
    spanish = client.get("/", headers=SPANISH).text
    assert '<html lang="es"' in spanish and "Campañas" in spanish and "Nueva campaña" in spanish
    english = client.get("/", headers=ENGLISH).text
    assert '<html lang="en"' in english and "New campaign" in english
    assert '<html lang="en"' in client.get("/").text  # no header at all: English


def test_a_gm_s_choice_in_settings_is_an_event_and_wins_over_the_browser(app, client):
    settings = client.get("/settings", headers=ENGLISH).text
    assert "Not chosen yet: your browser's language is used." in settings
    before = count_events(app)
    chosen = client.post("/settings/language", data={"language": "es"}, headers=ENGLISH)
    assert chosen.status_code == 302
    assert count_events(app) == before + 1 and events_of(app, f"gm-{GM_ID}")[-1] == "GMLanguageChosen"
    assert state_of(app, f"gm-{GM_ID}")["language"] == "es"
    page = client.get("/settings?changed=language", headers=ENGLISH).text
    assert '<html lang="es"' in page and "Touché ya te habla en este idioma." in page and "Elegido por ti." in page


def test_a_language_touche_does_not_speak_is_refused_next_to_the_field(app, client):
    before = count_events(app)
    refused = client.post("/settings/language", data={"language": "fr"})
    assert refused.status_code == 422 and count_events(app) == before
    assert 'id="e-language"' in refused.text and "must be one of en, es" in refused.text


def test_the_switch_on_every_page_records_a_gm_s_choice_and_comes_back(app, client):
    page = client.get("/", headers=ENGLISH).text
    assert 'action="/language"' in page and 'value="es" lang="es"' in page and "Español" in page
    switched = client.post("/language", data={"language": "es", "next": "/campaigns"}, headers=ENGLISH)
    assert switched.status_code == 303 and switched.headers["Location"].endswith("/campaigns")
    assert events_of(app, f"gm-{GM_ID}")[-1] == "GMLanguageChosen"
    assert '<html lang="es"' in client.get("/", headers=ENGLISH).text


def test_an_anonymous_visitor_s_choice_is_a_cookie_and_an_address_may_ask_for_one(app, anonymous):
    before = count_events(app)
    assert "Log in" in anonymous.get("/login", headers=ENGLISH).text
    assert "Entrar" in anonymous.get("/login?lang=es", headers=ENGLISH).text
    switched = anonymous.post("/language", data={"language": "es", "next": "/login"})
    assert switched.status_code == 303 and "lang=es" in switched.headers["Set-Cookie"]
    assert count_events(app) == before  # nobody to record it on
    login = anonymous.get("/login", headers=ENGLISH).text
    assert '<html lang="es"' in login and "Nombre de usuario" in login
    assert anonymous.post("/language", data={"language": "xx", "next": "https://elsewhere.example/"}).headers[
        "Location"] == "/"


def test_the_campaign_s_language_is_set_on_its_edit_page(app, client):
    campaign = redirect_key(client.post("/campaigns", data={"name": "Tortuga", "ruleset": "pirate"}))
    edit = client.get(f"/campaigns/{campaign}/edit").text
    assert "The players' language" in edit and '<option value="en" lang="en" selected>' in edit
    saved = client.post(f"/campaigns/{campaign}/language", data={"language": "es", "expected_version": 1})
    assert saved.status_code == 302
    assert events_of(app, f"campaign-{campaign}")[-1] == "CampaignLanguageSet"
    assert state_of(app, f"campaign-{campaign}")["language"] == "es"
    assert '<option value="es" lang="es" selected>' in client.get(f"/campaigns/{campaign}/edit").text
    stale = client.post(f"/campaigns/{campaign}/language", data={"language": "en", "expected_version": 1})
    assert stale.status_code == 409 and state_of(app, f"campaign-{campaign}")["language"] == "es"
    refused = client.post(f"/campaigns/{campaign}/language", data={"language": "klingon", "expected_version": 2})
    assert refused.status_code == 422 and 'id="e-language"' in refused.text


def test_the_api_takes_both_commands(app, client):
    campaign = client.post("/api/commands", json={"type": "CreateCampaign", "name": "Rocèt", "ruleset": "rocet"}).json
    assert client.post("/api/commands", json={"type": "SetCampaignLanguage", "campaign_id": campaign["id"],
                                              "expected_version": 1, "language": "es"}).status_code == 201
    assert client.post("/api/commands", json={"type": "ChooseLanguage", "language": "es"}).status_code == 201
    refused = client.post("/api/commands", json={"type": "ChooseLanguage", "language": "de"}, headers=SPANISH)
    assert refused.status_code == 422 and refused.json["errors"]["language"] == "debe ser uno de: en, es"


def test_the_log_is_facts_read_again_in_the_reader_s_language(app, client):
    campaign = redirect_key(client.post("/campaigns", data={"name": "Tortuga", "ruleset": "pirate"}))
    client.post(f"/campaigns/{campaign}/sessions", data={"number": 1, "date": "2026-11-29", "title": "Al abordaje"})
    english = client.get(f"/campaigns/{campaign}/log", headers=ENGLISH).text
    assert "Campaign “Tortuga” created" in english and "Session 1 planned for 2026-11-29: “Al abordaje”." in english
    spanish = client.get(f"/campaigns/{campaign}/log", headers=SPANISH).text
    assert "Campaña «Tortuga» creada" in spanish and "Sesión 1 planificada para el 2026-11-29: «Al abordaje»." in spanish
    db = open_db(app.config["DATABASE"])
    try:  # the read model keeps the line as data (a message id and its values), never as prose
        kept = db.execute("SELECT summary FROM log_entries WHERE type = 'CampaignCreated'").fetchone()[0]
    finally:
        db.close()
    assert '"msgid":"Campaign “{name}” created ({ruleset})."' in kept and '"name":"Tortuga"' in kept


def test_a_session_date_is_typed_the_language_s_way_and_shown_so(app, client):
    campaign = redirect_key(client.post("/campaigns", data={"name": "Tortuga", "ruleset": "pirate"}))
    form = client.get(f"/campaigns/{campaign}/sessions/new").text
    assert 'type="date"' in form
    planned = client.post(f"/campaigns/{campaign}/sessions", headers=SPANISH,
                          data={"number": 1, "date": "29/11/2026", "title": "Al abordaje"})
    session = redirect_key(planned)
    assert state_of(app, f"session-{session}")["date"] == "2026-11-29"
    assert "29 nov 2026" in client.get(f"/sessions/{session}", headers=SPANISH).text
    assert "Nov 29, 2026" in client.get(f"/sessions/{session}", headers=ENGLISH).text
    english = client.post(f"/campaigns/{campaign}/sessions", headers=ENGLISH,
                          data={"number": 2, "date": "11/30/2026", "title": "Boarding"})
    assert state_of(app, f"session-{redirect_key(english)}")["date"] == "2026-11-30"
    before = count_events(app)
    refused = client.post(f"/campaigns/{campaign}/sessions", headers=SPANISH,
                          data={"number": 3, "date": "31/02/2026", "title": "Nunca"})
    assert refused.status_code == 422 and count_events(app) == before
    assert "debe ser una fecha como 29/11/2026" in refused.text


def test_a_choice_refused_names_the_choices_in_the_reader_s_language(app, client):
    campaign = redirect_key(client.post("/campaigns", data={"name": "Tortuga", "ruleset": "pirate"}))
    before = count_events(app)
    refused = client.post(f"/campaigns/{campaign}/characters", headers=SPANISH, data={"name": "Ana", "rank": "bogus"})
    assert refused.status_code == 422 and count_events(app) == before
    assert "PJ (personaje jugador), Villano, Élite, Campeón, PNJ menor" in refused.text
