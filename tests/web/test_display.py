"""The table display through the test client: what the players may see (no hands, no secret
initiative skill), answering 204 until the duel moves, and a link that can only read its one duel."""
import dataclasses
import html
import re

import pytest

from tests.conftest import fixed_context
from tests.integration.test_timetravel import CARDS, play_turn, rocet_duel
from tracker.bootstrap.db import open_db
from tracker.rules.pf2e.sheet import SKILLS
from tracker import bootstrap
from tracker.web.player import sign
from tests.conftest import text_of

FIGHTER = {"level": 3, "hp_max": 40, "ac": 20, "attack_bonus": 10, "weapon": "Longsword", "damage": "1d8+4",
           "deception": 7, "deception_rank": "trained", "intimidation": 9, "intimidation_rank": "expert",
           "perception": 8, "perception_rank": "trained"}


@pytest.fixture
def gm_service(app):
    """A service on the app's database, acting as the logged-in GM."""
    db = open_db(app.config["DATABASE"])
    service = bootstrap.service(db, dataclasses.replace(fixed_context(), actor="gmtest"))
    service.app = app  # to sign the links it issues
    yield service
    db.close()


def display_link(service, target, kind="display"):
    """Issue a player link as the GM would: the path the players open."""
    link_id = service.handle({"type": "IssuePlayerLink", "kind": kind, "target": target}).events[0].data["link_id"]
    with service.app.app_context():
        return f"/play/{sign(link_id)}/display", link_id


def live(page: str, waiting: bool = False) -> str:
    """The address the display follows (the duel's version in it): its long-poll as the page
    draws it, or (by default) the same question answered at once, without the wait."""
    address = html.unescape(re.search(r'hx-get="([^"]+/display/live\?v=\d+[^"]*)"', page).group(1))
    return address if waiting else re.sub(r"&wait=\d+", "", address)


def pf2e_duel(service):
    campaign = service.handle({"type": "CreateCampaign", "name": "Absalom Nights", "ruleset": "pf2e"}).key
    people = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": rank,
                              "stats": {"pf2e": FIGHTER}}).key for name, rank in (("Seelah", "pj"), ("Vex", "villano"))]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": "The Grand Bazaar"}).key
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "pf2e", "kind": "combat",
                           "victory": "knockout", "duelists": [{"character_id": people[0], "side": "a"},
                                                               {"character_id": people[1], "side": "b"}]}).key
    for who, skill, die in ((people[0], "intimidation", 15), (people[1], "deception", 9)):
        service.handle({"type": "RollInitiative", "duel_id": duel, "expected_version": service.version(f"duel-{duel}"),
                        "duelist": who, "skill": skill, "dice_roll": [die]})
    return duel


def test_the_display_of_a_virtual_card_duel_shows_no_hand(client, anonymous, gm_service):
    duel = rocet_duel(gm_service)
    path, _ = display_link(gm_service, duel)
    gm_page = client.get(f"/duels/{duel}").text
    assert any(card in gm_page for card in CARDS)  # the GM sees both hands
    shown = anonymous.get(path)
    assert shown.status_code == 200 and "<html" in shown.text
    assert not any(card in shown.text for card in CARDS)
    assert "Hand: 3 cards" in text_of(shown.text) and 'class="hand"' not in shown.text
    assert "<form" not in shown.text and "/duels/" not in shown.text  # nothing to do, no way to GM pages
    play_turn(gm_service, duel)
    after = anonymous.get(path).text
    assert "Turn 1" in after and 'class="hand"' not in after and "Clock 2/3" in after
    assert "Lope &lt;b&gt;el Bravo&lt;/b&gt;" in after and "<b>el Bravo" not in after


def test_the_display_of_a_pf2e_duel_shows_no_initiative_skill(client, anonymous, gm_service):
    duel = pf2e_duel(gm_service)
    path, _ = display_link(gm_service, duel)
    assert "Intimidation" in client.get(f"/duels/{duel}").text  # the GM sees it
    shown = anonymous.get(path).text
    assert "Seelah" in shown and "24" in shown  # the totals are public: 15 + 9
    assert not any(skill in shown.lower() for skill in SKILLS)
    assert "Bullying Press" not in shown and "Deceptive Sidestep" not in shown


def test_the_display_answers_204_until_the_duel_moves_then_the_new_fragment(anonymous, gm_service):
    duel = rocet_duel(gm_service)
    path, _ = display_link(gm_service, duel)
    poll = live(anonymous.get(path).text)
    unchanged = anonymous.get(poll, headers={"HX-Request": "true"})
    assert unchanged.status_code == 204 and unchanged.text == ""
    assert unchanged.headers["Cache-Control"] == "no-store"
    play_turn(gm_service, duel)
    moved = anonymous.get(poll, headers={"HX-Request": "true"})
    assert moved.status_code == 200 and moved.text.lstrip().startswith('<div id="display"')
    assert "<html" not in moved.text and "Turn 1" in moved.text
    assert live(moved.text) != poll and anonymous.get(live(moved.text)).status_code == 204


def test_a_revoked_link_answers_404_and_the_polling_display_says_so(client, anonymous, gm_service):
    duel = rocet_duel(gm_service)
    path, link_id = display_link(gm_service, duel)
    poll = live(anonymous.get(path).text)
    client.post(f"/duels/{duel}/display-links/{link_id}/revoke")
    assert anonymous.get(path).status_code == 404
    gone = anonymous.get(poll, headers={"HX-Request": "true"})
    assert gone.status_code == 404 and "revoked" in gone.text and "hx-get" not in gone.text


def test_a_forged_or_recap_link_opens_no_display(anonymous, gm_service):
    duel = rocet_duel(gm_service)
    path, _ = display_link(gm_service, duel)
    session = gm_service.db.execute("SELECT id FROM sessions").fetchone()[0]
    recap, _ = display_link(gm_service, session, kind="recap")
    assert anonymous.get(recap).status_code == 404
    assert anonymous.get(path.replace("/display", "x/display")).status_code == 404
    with gm_service.app.app_context():
        forged = f"/play/{sign('made-up')}/display"
    assert anonymous.get(forged).status_code == 404


def test_a_player_link_can_write_nothing_and_reach_no_gm_page(app, anonymous, gm_service):
    duel = rocet_duel(gm_service)
    path, link_id = display_link(gm_service, duel)
    events = gm_service.db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert anonymous.get(path).status_code == 200
    for url in (path, live(anonymous.get(path).text)):
        assert anonymous.post(url).status_code in (404, 405)
        assert anonymous.put(url).status_code in (404, 405)
    for url in (f"/duels/{duel}", f"/duels/{duel}/travel", f"/duels/{duel}/compare?a=1&b=2"):
        assert anonymous.get(url).status_code == 302  # to the login page
    assert anonymous.post(f"/duels/{duel}/display-links/{link_id}/revoke").status_code == 302
    assert anonymous.post(f"/duels/{duel}/do/Yield", data={"side": "a"}).status_code == 302
    assert anonymous.get(f"/api/duels/{duel}").status_code == 401
    assert gm_service.db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == events
