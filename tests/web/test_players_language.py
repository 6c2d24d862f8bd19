"""What players see follows their campaign's language, whatever their browser says: the table
display (page, live fragment, its last words once revoked, its JSON), a seat (page, fragment, a
refused tap) and the players' recap; the GM's import page speaks the GM's language."""
import html
import json

import pytest

from tests.conftest import text_of
from tests.integration.test_timetravel import play_turn, rocet_duel
from tests.languages import set_campaign_language
from tests.web.test_backup_web import campaign, upload, wait_for_import  # noqa: F401 (fixture)
from tests.web.test_display import display_link, gm_service, live  # noqa: F401 (fixture)
from tests.web.test_seats import issue_seat, setup_duel
from tracker.web.links import sign

ENGLISH_BROWSER = {"Accept-Language": "en-GB,en;q=0.9"}
SPANISH_BROWSER = {"Accept-Language": "es-ES,es;q=0.9"}


def campaign_of(gm, duel):
    return gm.db.execute("SELECT campaign_id FROM duels WHERE id = ?", [duel]).fetchone()[0]


def in_spanish(gm, duel):
    set_campaign_language(gm, gm.db, campaign_of(gm, duel), "es")


def test_the_table_display_reads_in_the_campaigns_language(anonymous, gm_service):
    duel = rocet_duel(gm_service)
    play_turn(gm_service, duel)
    in_spanish(gm_service, duel)
    path, _ = display_link(gm_service, duel)
    page = anonymous.get(path, headers=ENGLISH_BROWSER).text
    words = text_of(page)
    assert "Lo último" in words and "Recargar" in words and "esta pantalla sigue el duelo por sí sola" in words
    assert 'aria-label="Últimas acciones"' in page
    assert "Latest" not in words and "Reload" not in words
    # The live fragment too, once the duel moves on.
    poll = live(page)
    play_turn(gm_service, duel)
    fragment = anonymous.get(poll, headers={**ENGLISH_BROWSER, "HX-Request": "true"})
    assert fragment.status_code == 200 and "Lo último" in fragment.text


def test_an_english_campaign_shows_english_to_a_spanish_browser(anonymous, gm_service):
    duel = rocet_duel(gm_service)
    play_turn(gm_service, duel)
    path, _ = display_link(gm_service, duel)
    words = text_of(anonymous.get(path, headers=SPANISH_BROWSER).text)
    assert "Latest" in words and "Lo último" not in words


def test_a_revoked_display_says_so_in_the_campaigns_language(client, anonymous, gm_service):
    duel = rocet_duel(gm_service)
    in_spanish(gm_service, duel)
    path, link_id = display_link(gm_service, duel)
    poll = live(anonymous.get(path).text)
    client.post(f"/duels/{duel}/display-links/{link_id}/revoke")
    gone = anonymous.get(poll, headers={**ENGLISH_BROWSER, "HX-Request": "true"})
    assert gone.status_code == 404 and "Este enlace a la pantalla de mesa ya no es válido: el DJ lo revocó." in gone.text


def test_the_display_json_is_read_in_the_campaigns_language(anonymous, gm_service, app):
    """The JSON's human fields (a duel's lines) are drawn in the campaign's language: the request's
    language is the campaign's while the read is built."""
    duel = rocet_duel(gm_service)
    play_turn(gm_service, duel)
    in_spanish(gm_service, duel)
    path, _ = display_link(gm_service, duel)
    token = path.split("/")[2]
    captured = {}
    from flask_babel import get_locale

    @app.after_request
    def remember(response):
        captured["locale"] = str(get_locale())
        return response

    answer = anonymous.get(f"/api/v1/display/{token}", headers=ENGLISH_BROWSER)
    assert answer.status_code == 200 and captured["locale"] == "es"
    json.loads(answer.text)


def test_a_seat_reads_in_the_campaigns_language(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    set_campaign_language(gm_service, gm_service.db, duel["campaign"], "es")
    seat = issue_seat(client, duel["session"], duel["people"][0])
    page = anonymous.get(seat, headers=ENGLISH_BROWSER).text
    words = text_of(page)
    assert "<title>Asiento de Inés" in html.unescape(page)
    assert "Sesión 1: Swords at dawn" in words and "Recargar" in words
    assert "esta página sigue la mesa por sí sola" in words and "Reload" not in words
    fragment = anonymous.get(f"{seat}/live?v=x", headers={**ENGLISH_BROWSER, "HX-Request": "true"})
    assert fragment.status_code == 200 and "Sesión 1: Swords at dawn" in text_of(fragment.text)


def test_a_closed_sessions_seat_reads_in_spanish(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    set_campaign_language(gm_service, gm_service.db, duel["campaign"], "es")
    seat = issue_seat(client, duel["session"], duel["people"][0])
    client.post(f"/sessions/{duel['session']}/close")
    closed = text_of(anonymous.get(seat, headers=ENGLISH_BROWSER).text)
    assert "Esta sesión está cerrada: este asiento ya no funciona. ¡Gracias por jugar!" in closed


def test_a_revoked_seat_says_so_in_spanish(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    set_campaign_language(gm_service, gm_service.db, duel["campaign"], "es")
    seat = issue_seat(client, duel["session"], duel["people"][0])
    link_id = gm_service.db.execute("SELECT link_id FROM seats ORDER BY rowid").fetchone()[0]
    client.post(f"/sessions/{duel['session']}/seats/{link_id}/revoke")
    gone = anonymous.get(f"{seat}/live?v=x", headers={**ENGLISH_BROWSER, "HX-Request": "true"})
    assert gone.status_code == 404 and "Este asiento ya no funciona: el DJ lo revocó." in gone.text


def test_a_late_tap_is_refused_in_spanish(client, anonymous, gm_service, monkeypatch):
    """A tap that lands after the duel moved on (two phones at once) is answered in Spanish."""
    from tracker.eventstore.store import Conflict
    from tracker.web import seats

    class Late:
        def handle(self, message):
            raise Conflict(f"duel-{message['duel_id']}", 1, 2)

    duel = setup_duel(gm_service)
    set_campaign_language(gm_service, gm_service.db, duel["campaign"], "es")
    seat = issue_seat(client, duel["session"], duel["people"][0])
    hand = gm_service.state_of(f"duel-{duel['duel']}")[1]["sides"]["a"]["hand"]
    monkeypatch.setattr(seats, "service", lambda *args, **kwargs: Late())
    answer = anonymous.post(f"{seat}/do/ChooseCard", headers={**ENGLISH_BROWSER, "HX-Request": "true"},
                            data={"duel_id": duel["duel"], "side": "a", "card": hand[0], "turn": 1, "command_id": "p1"})
    assert answer.status_code == 409
    assert "El duelo avanzó antes de que llegara tu toque: vuelve a mirar y elige." in answer.text


def test_the_players_recap_reads_in_the_campaigns_language_or_in_lang(anonymous, gm_service):
    duel = rocet_duel(gm_service)
    play_turn(gm_service, duel)
    in_spanish(gm_service, duel)
    session = gm_service.db.execute("SELECT session_id FROM duels WHERE id = ?", [duel]).fetchone()[0]
    link_id = gm_service.handle({"type": "IssuePlayerLink", "kind": "recap", "target": session}).events[0].data["link_id"]
    with gm_service.app.app_context():
        path = f"/play/{sign(link_id)}/recap"
    page = anonymous.get(path, headers=ENGLISH_BROWSER).text
    assert '<html lang="es"' in page and "Resumen de los jugadores" in page and "Descargar Markdown" in page
    assert "Turno a turno" in page and "29 nov 2026" in page
    md = anonymous.get(f"{path}?format=md", headers=ENGLISH_BROWSER).text
    assert md.startswith("# Sesión 1: Swords at dawn") and "Resumen de los jugadores" in md
    english = anonymous.get(f"{path}?lang=en", headers=SPANISH_BROWSER).text
    assert '<html lang="en"' in english and "Players' recap" in english and "Turn by turn" in english


@pytest.mark.parametrize("background", [False, True])
def test_an_import_refusal_reads_in_the_gms_language(app, client, campaign, background):  # noqa: F811 (fixture)
    if background:
        app.config["IMPORT_IN_BACKGROUND_BYTES"] = 0
    lines = client.get(f"/campaigns/{campaign}/backup.jsonl").text.splitlines()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es-ES,es;q=0.9"
    answer = upload(client, "\n".join(lines[:3] + lines[4:]) + "\n")
    if background:
        answer = wait_for_import(client, answer.headers["Location"])
    assert answer.status_code == 422
    assert ("Línea 4: la línea no coincide con su hash: se editó a mano, o se quitaron o movieron líneas antes de "
            "ella. No se importó nada.") in html.unescape(answer.text)
    empty = client.post("/import", data={}, content_type="multipart/form-data")
    assert "Elige un archivo de registro (.jsonl) para importar." in empty.text
    assert "Importar una campaña" in empty.text


def test_the_import_progress_counts_in_the_gms_language(app):
    from flask import render_template

    from tracker.web.import_jobs import Job

    job = Job("j", "gm", lines=12345, done=100)
    with app.test_request_context(headers=SPANISH_BROWSER):
        assert "Comprobando: 100 de 12.345 líneas" in render_template("backup/_progress.html", job=job)
    with app.test_request_context(headers=ENGLISH_BROWSER):
        assert "Checking: 100 of 12,345 lines" in render_template("backup/_progress.html", job=job)
