"""Fast starts: the set-up form narrowed to the ruleset and kind (htmx redraws it; without
JavaScript a button asks for the terms), filled from the sheets; a challenge from a character
sheet; a rematch from a finished duel; a duel outside any planned session goes into today's."""
import json
import re

from tracker.bootstrap.db import open_db
from tests.conftest import count_events, text_of
from tests.web.test_web import WON_BY_HITS, played, setup_duel

PIRATE = {"atq": "3", "def": "12", "pv": "20", "comunicacion": "2", "sab": "11", "car": "8", "iniciativa": "1"}


def pirates(client):
    campaign = client.post("/campaigns", data={"name": "Tortuga", "ruleset": "pirate"}).headers["Location"]
    campaign = campaign.rsplit("/", 1)[1]
    ids = []
    for name, weapons in (("Anne", "Sable | sword | 1d8\nPistola | pistol | 1d10 | 15"),
                          ("Barbanegra", "Alfanje | sword | 1d6")):
        data = {"name": name, "rank": "pj", **{f"pirate.{k}": v for k, v in PIRATE.items()},
                "pirate.weapons": weapons}
        ids.append(client.post(f"/campaigns/{campaign}/characters", data=data).headers["Location"].rsplit("/", 1)[1])
    return campaign, ids


def shown_fields(page: str) -> set[str]:
    form = page[page.index('id="setup-form"'):]
    return set(re.findall(r'<(?:input|select|textarea)[^>]*name="(\w+)"', form)) - {"csrf_token"}


def test_the_set_up_form_shows_only_the_fields_of_the_ruleset_and_kind(app, client):
    campaign, _ = pirates(client)
    sword = client.get(f"/campaigns/{campaign}/duels/new?ruleset=pirate&kind=sword").text
    assert shown_fields(sword) == {"ruleset", "kind", "side_a", "side_b", "stakes", "judge", "challenger",
                                   "sword_victory", "hits", "weapon_a", "weapon_b"}
    wit = client.get(f"/campaigns/{campaign}/duels/new?ruleset=pirate&kind=wit").text
    assert {"insults", "exchanges", "tie", "wit_end"} <= shown_fields(wit)
    assert "weapon_a" not in shown_fields(wit) and "shots" not in shown_fields(wit)
    # without JavaScript the GM asks for the kind's terms with a button; with htmx a change redraws
    assert re.search(r'<noscript><p><button type="submit" formmethod="get" formaction="/campaigns/\w+/duels/new"', wit)
    assert 'hx-get="/campaigns/' in wit and 'hx-target="#setup-form"' in wit


def test_htmx_redraws_only_the_form_keeping_what_was_typed(app, client):
    campaign, (anne, barba) = pirates(client)
    response = client.get(f"/campaigns/{campaign}/duels/new?ruleset=pirate&kind=pistol&side_a={anne}"
                          f"&side_b={barba}&stakes=A+ship", headers={"HX-Request": "true"})
    assert response.text.lstrip().startswith('<form method="post"') and "<html" not in response.text
    assert '>A ship</textarea>' in response.text and 'name="shots"' in response.text
    assert 'id="f-weapon_a" name="weapon_a" value="Pistola"' in response.text  # Anne's pistol, from her sheet


def test_weapons_are_filled_in_from_the_chosen_characters(app, client):
    campaign, (anne, barba) = pirates(client)
    page = client.get(f"/campaigns/{campaign}/duels/new?ruleset=pirate&kind=sword&side_a={anne}&side_b={barba}").text
    assert 'name="weapon_a" value="Sable"' in page and 'name="weapon_b" value="Alfanje"' in page


def test_a_duel_outside_any_session_goes_into_today_s_planned_on_the_fly(app, client):
    campaign, (anne, barba) = pirates(client)
    page = client.get(f"/campaigns/{campaign}/duels/new").text
    assert "Goes into today's session (Nov 29, 2026), planned when the duel starts" in page
    before = count_events(app)
    refused = client.post(f"/campaigns/{campaign}/duels", data={"ruleset": "pirate", "kind": "sword", "side_a": anne})
    assert refused.status_code == 422 and count_events(app) == before  # no session planned for nothing
    started = client.post(f"/campaigns/{campaign}/duels", data={"ruleset": "pirate", "kind": "sword",
                                                                 "side_a": anne, "side_b": barba})
    assert started.status_code == 302
    duel = client.get(started.headers["Location"]).text
    assert "Session 1: Duels of 2026-11-29" in duel
    again = client.post(f"/campaigns/{campaign}/duels", data={"ruleset": "pirate", "kind": "wit",
                                                               "side_a": barba, "side_b": anne})
    assert "Session 1: Duels of 2026-11-29" in client.get(again.headers["Location"]).text  # the same session


def test_a_session_planned_on_the_fly_stores_the_fact_and_reads_its_title_in_the_reader_s_language(app, client):
    campaign, (anne, barba) = pirates(client)
    started = client.post(f"/campaigns/{campaign}/duels", data={"ruleset": "pirate", "kind": "sword",
                                                                 "side_a": anne, "side_b": barba})
    duel = started.headers["Location"]
    db = open_db(app.config["DATABASE"])
    try:
        schema, data = db.execute("SELECT schema, data FROM events WHERE type = 'SessionPlanned'").fetchone()
    finally:
        db.close()
    planned = json.loads(data)
    assert schema == 2 and planned["on_the_fly"] is True and planned["title"] == ""  # a fact, no prose
    session = planned["session_id"]
    spanish, english = {"Accept-Language": "es"}, {"Accept-Language": "en"}
    for path in (duel, f"/sessions/{session}", f"/campaigns/{campaign}", f"/campaigns/{campaign}/log"):
        assert "Duelos del 2026-11-29" in text_of(client.get(path, headers=spanish).text), path
        assert "Duels of" not in client.get(path, headers=spanish).text, path
        assert "Duels of 2026-11-29" in text_of(client.get(path, headers=english).text), path
    assert "Sesión 1: Duelos del 2026-11-29" in text_of(client.get(duel, headers=spanish).text)
    assert "planificada para el 2026-11-29: «Duelos del 2026-11-29»" in text_of(
        client.get(f"/campaigns/{campaign}/log", headers=spanish).text)
    # The edit form offers the title as the GM reads it; saved, it is the session's own title.
    form = client.get(f"/sessions/{session}/edit", headers=spanish).text
    assert 'value="Duelos del 2026-11-29"' in form


def test_an_older_log_s_english_title_of_a_session_planned_on_the_fly_reads_in_spanish(app, client):
    """Before the fact was stored, the title held the English sentence: it reads as the fact does,
    from the stored read models (and the upcaster turns such an event into the fact on read)."""
    from tracker.domain import events

    campaign, _ = pirates(client)
    response = client.post("/api/v1/commands", json={"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                                     "date": "2026-11-29", "title": "Duels of 2026-11-29"})
    session = response.json["id"]
    page = text_of(client.get(f"/sessions/{session}", headers={"Accept-Language": "es"}).text)
    assert "Sesión 1: Duelos del 2026-11-29" in page
    assert events.upcast("SessionPlanned", 1, {"session_id": session, "campaign_id": campaign, "number": 1,
                                               "date": "2026-11-29", "title": "Duels of 2026-11-29"}) == {
        "session_id": session, "campaign_id": campaign, "number": 1, "date": "2026-11-29", "title": "",
        "on_the_fly": True}
    kept = {"session_id": session, "campaign_id": campaign, "number": 2, "date": "2026-11-29",
            "title": "Duels of 2026-11-30"}  # a title of the GM's own stays theirs
    assert events.upcast("SessionPlanned", 1, dict(kept)) == kept


def test_a_challenge_starts_from_the_character_sheet(app, client):
    campaign, (anne, barba) = pirates(client)
    sheet = client.get(f"/characters/{anne}").text
    link = re.search(r'href="(/campaigns/\w+/duels/new\?[^"]+)">Challenge…', sheet).group(1).replace("&amp;", "&")
    form = client.get(link).text
    assert re.search(rf'<option value="{anne}" selected>Anne</option>', form)
    assert re.search(r'<option value="a" selected>Side A challenged</option>', form)


def test_a_finished_duel_offers_a_rematch_with_the_same_terms(app, client):
    _, duel = setup_duel(client)                          # a sword duel to 2 hits
    assert "Rematch" not in client.get(f"/duels/{duel}").text
    played(client, duel, WON_BY_HITS)
    page = client.get(f"/duels/{duel}").text
    assert f'href="/duels/{duel}/rematch">Rematch' in page
    form = client.get(f"/duels/{duel}/rematch").text
    assert '<option value="id0002" selected>Inés</option>' in form and '<option value="id0003" selected>Lope</option>' in form
    assert 'name="hits" value="2"' in form and re.search(r'<option value="hits" selected>', form)
    action = re.search(r'<form method="post" action="(/sessions/\w+/duels)"', form).group(1)
    rematch = client.post(action, data={"ruleset": "pirate", "kind": "sword", "sword_victory": "hits", "hits": "2",
                                        "side_a": "id0002", "side_b": "id0003"})
    assert rematch.status_code == 302 and rematch.headers["Location"] != f"/duels/{duel}"
