"""A duel the players choose on their phones, started the way a GM works: from the set-up form,
with the campaign's own defaults, and kept sealed by a rematch (issue 33, item 1)."""
from __future__ import annotations

import re

from tests.integration.test_seats import SHEET
from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import issue_seat


def table(gm):
    """A Rocèt campaign with two PJs and a planned session: (campaign, session, [Inés, Lope])."""
    campaign = gm.handle({"type": "CreateCampaign", "name": "Season of Steel", "ruleset": "rocet"}).key
    people = [gm.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                         "stats": SHEET}).key for name in ("Inés", "Lope")]
    session = gm.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                         "date": "2026-11-29", "title": "Swords at dawn"}).key
    return campaign, session, people


def selected(page: str, name: str) -> str:
    """The option a select of the form shows as chosen."""
    select = re.search(rf'<select id="f-{name}" name="{name}"[^>]*>(.*?)</select>', page, re.S)
    assert select, f"the form shows no {name}"
    return re.search(r'<option value="([^"]*)" selected', select.group(1)).group(1)


def form_of(page: str) -> dict:
    """What the set-up form would post as it stands: each select's chosen option, each input's value."""
    data = {}
    for name, body in re.findall(r'<select id="f-[^"]*" name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        data.setdefault(name, []).append(chosen.group(1) if chosen else "")
    for name, value in re.findall(r'<input type="(?:text|number|hidden)"[^>]*name="([^"]+)" value="([^"]*)"', page):
        data.setdefault(name, value)
    return {k: v[0] if isinstance(v, list) and len(v) == 1 else v for k, v in data.items()}


def test_the_setup_form_asks_who_chooses_and_a_seated_side_makes_it_sealed(client, gm_service):
    campaign, session, (ines, lope) = table(gm_service)
    bare = client.get(f"/sessions/{session}/duels/new?side_a={ines}&side_b={lope}").text
    assert selected(bare, "choices") == "gm"  # nobody holds a seat: the GM records
    assert selected(bare, "reveal") == "auto" and selected(bare, "dice_by") == "server"
    issue_seat(client, session, ines)
    page = client.get(f"/sessions/{session}/duels/new?side_a={ines}&side_b={lope}").text
    assert selected(page, "choices") == "sealed"
    assert "Each side in secret: players on their seats" in page
    answer = client.post(f"/sessions/{session}/duels", data={**form_of(page), "weapon_type": "Espada"})
    assert answer.status_code == 302, answer.text
    duel = answer.headers["Location"].rsplit("/", 1)[-1]
    assert gm_service.state_of(f"duel-{duel}")[1]["settings"]["choices"] == "sealed"


def test_the_campaign_keeps_who_chooses_as_the_default_of_new_duels(client, gm_service):
    campaign, session, (ines, lope) = table(gm_service)
    edit = client.get(f"/campaigns/{campaign}/edit").text
    assert 'name="choices"' in edit and 'name="dice_by"' in edit
    version = re.findall(r'name="expected_version" value="([^"]+)"', edit)[-1]
    saved = client.post(f"/campaigns/{campaign}/rules/rocet",
                        data={"expected_version": version, "choices": "sealed", "reveal": "gm", "dice_by": "table"})
    assert saved.status_code == 302, saved.text
    page = client.get(f"/sessions/{session}/duels/new?side_a={ines}&side_b={lope}").text
    assert (selected(page, "choices"), selected(page, "reveal"), selected(page, "dice_by")) == ("sealed", "gm", "table")


def test_a_rematch_of_a_sealed_duel_is_sealed_and_of_a_gm_duel_is_not(client, gm_service):
    campaign, session, (ines, lope) = table(gm_service)
    issue_seat(client, session, ines)
    for choices in ("sealed", "gm"):
        duel = gm_service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "kind": "relojes",
                                  "weapon_type": "Espada", "choices": choices, "reveal": "gm", "dice_by": "seats",
                                  "duelists": [{"character_id": ines, "side": "a"},
                                               {"character_id": lope, "side": "b"}]}).key
        page = client.get(f"/duels/{duel}/rematch").text
        assert selected(page, "choices") == choices
        assert selected(page, "reveal") == "gm" and selected(page, "dice_by") == "seats"
        again = client.post(f"/sessions/{session}/duels", data=form_of(page))
        assert again.status_code == 302, again.text
        rematch = again.headers["Location"].rsplit("/", 1)[-1]
        assert gm_service.state_of(f"duel-{rematch}")[1]["settings"]["choices"] == choices


# --- the players' language (issue 33, item 2) ------------------------------------------------

SPANISH_BROWSER = {"Accept-Language": "es-ES,es;q=0.9"}


def test_a_spanish_gms_new_campaign_speaks_spanish_to_its_players(client, gm_service):
    client.post("/language", data={"language": "es", "next": "/"})
    made = client.post("/campaigns", data={"name": "Temporada de Acero", "ruleset": "rocet", "notes": ""})
    assert made.status_code == 302, made.text
    campaign = made.headers["Location"].rsplit("/", 1)[-1]
    assert gm_service.state_of(f"campaign-{campaign}")[1]["language"] == "es"


def test_a_players_espanol_on_the_seat_holds_for_its_polls_and_taps(client, anonymous, gm_service):
    from tests.web.test_seats import choose, setup_duel

    duel = setup_duel(gm_service)  # the campaign never chose: English
    seat = issue_seat(client, duel["session"], duel["people"][0])
    assert "Elige tu carta" in anonymous.get(f"{seat}?lang=es").text
    polled = anonymous.get(f"{seat}/live?v=x", headers={"HX-Request": "true"})
    assert polled.status_code == 200 and "Elige tu carta" in polled.text
    hand = gm_service.state_of(f"duel-{duel['duel']}")[1]["sides"]["a"]["hand"]
    tapped = choose(anonymous, seat, duel["duel"], "a", hand[0])
    assert tapped.status_code == 200 and "Lope" in tapped.text and "Your card" not in tapped.text
    assert "Your card" in anonymous.get(f"{seat}?lang=en").text  # and back, when they say so
