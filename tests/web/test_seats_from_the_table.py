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
