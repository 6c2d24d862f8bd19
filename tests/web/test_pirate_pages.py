"""The pirate duel page through Flask's test client: set-up, every kind of duel played with typed dice,
refusals next to their field, the htmx fragment, the JSON API, and retractions anywhere in a duel."""
import html
import itertools
import random
import re

import pytest

from tests.conftest import fixed_context  # noqa: F401  (the app fixture's context)
from tracker.bootstrap.db import get_db
from tracker.projections import queries
from tracker.projections.rebuild import rebuild
from tracker import rules
from tracker.rules.base import Refused
from tracker.rules.pirate import DEFAULT_INSULTS
from tracker import bootstrap
from tracker.application.services import Context
from tracker.eventstore.store import EventStore
from tests.conftest import count_events, text_of, redirect_key as key

INES = {"atq": "5", "def": "13", "pv": "12", "comunicacion": "4", "sab": "12", "car": "10", "iniciativa": "2",
        "weapons": "Sable | sword | 1d8\nPistola de chispa | pistol | 1d10 | 15"}
LOPE = {"atq": "3", "def": "12", "pv": "9", "comunicacion": "2", "sab": "11", "car": "8", "iniciativa": "1",
        "weapons": "Espada ropera | sword | 1d6\nPistola | pistol | 1d8 | 10"}


@pytest.fixture
def table(client):
    """A pirate campaign with Inés (side A) and Lope (side B), and a session to duel in."""
    campaign = key(client.post("/campaigns", data={"name": "Mar de las Antillas", "ruleset": "pirate"}))
    ines = key(client.post(f"/campaigns/{campaign}/characters",
                           data={"name": "Inés", "rank": "pj", **{f"pirate.{k}": v for k, v in INES.items()}}))
    lope = key(client.post(f"/campaigns/{campaign}/characters",
                           data={"name": "Lope", "rank": "villano", **{f"pirate.{k}": v for k, v in LOPE.items()}}))
    session = key(client.post(f"/campaigns/{campaign}/sessions",
                              data={"number": "1", "date": "2026-11-29", "title": "Tortuga"}))
    return {"campaign": campaign, "ines": ines, "lope": lope, "session": session}


def start(client, table, **terms):
    response = client.post(f"/sessions/{table['session']}/duels",
                           data={"ruleset": "pirate", "side_a": table["ines"], "side_b": table["lope"],
                                 "stakes": "the map", "judge": "Capitana Ruiz", "challenger": "a", **terms})
    return key(response)


class Page:
    """One duel played through its page: each action posted as the form would, version tracked."""

    def __init__(self, client, duel):
        self.client, self.duel, self.version = client, duel, 1

    def do(self, command, htmx=False, **data):
        headers = {"HX-Request": "true"} if htmx else {}
        response = self.client.post(f"/duels/{self.duel}/do/{command}", headers=headers,
                                    data={"expected_version": str(self.version), **data})
        if response.status_code in (200, 302):
            self.version = self.client.get(f"/api/duels/{self.duel}").json["version"]
        return response

    def ok(self, command, **data) -> str:
        response = self.do(command, htmx=True, **data)
        assert response.status_code == 200, text_of(response.text)
        return text_of(response.text)

    def text(self) -> str:
        return text_of(self.client.get(f"/duels/{self.duel}").text)


def test_the_set_up_page_shows_the_insult_table_as_editable_lines(client, table):
    page = client.get(f"/sessions/{table['session']}/duels/new?ruleset=pirate&kind=wit").text
    area = re.search(r'<textarea id="f-insults" name="insults"[^>]*>(.*?)</textarea>', page, re.S)
    assert area, "the insult table is a textarea"
    lines = html.unescape(area.group(1)).splitlines()
    assert lines == ["Burla ingeniosa | +1 | 1d4", "Insulto directo | +0 | 1d6",
                     "Provocación | +0 | 1d8 | 1d4", "Humillación | -2 | 1d10"]
    assert len(lines) == len(DEFAULT_INSULTS)


def test_a_sword_duel_to_first_blood_through_the_page(app, client, table):
    duel = Page(client, start(client, table, kind="sword", sword_victory="first_blood"))
    page = duel.text()
    assert "Fought to first blood" in page
    assert "Warning" not in page                      # no single hit of a d6 or d8 can take 12 or 9 PV
    assert "Round 1: roll initiative" in page
    assert "PV 12/12" in page and "PV 9/9" in page and "Hits 0/1" in page
    assert "Sable (1d8) · ATQ +5 · DEF 13" in page

    page = duel.ok("RollInitiative", dice_a="14", dice_b="9")
    assert "Round 1: Inés to attack, then Lope." in page
    assert "initiative 16" in page and "initiative 10" in page
    assert "Round 1: Inés attacks Lope with Sable" in page

    page = duel.ok("Attack", side="a", dice_a="5")          # 5 + 5 = 10 against DEF 12: a miss
    assert "Round 1: Lope to attack." in page
    assert "d20 5 +5 = 10 vs DEF 12: miss" in page
    page = duel.ok("Attack", side="b", ventaja="true", dice_b="4 17 3")   # Ventaja keeps 17: 20 vs 13, 3 damage
    assert "with Ventaja (2d20, keep the higher) 4, 17 → 17 +3 = 20 vs DEF 13: hit, 1d6 [3] = 3" in page
    assert "PV 9/12" in page and "Hits 1/1" in page
    assert "Lope won by first blood (Inés took 3 PV)" in page
    assert "Roll initiative" not in page and "action-Attack" not in page  # no forms once it is over

    sheet = text_of(client.get(f"/characters/{table['ines']}").text)
    assert "PV 9/12" in sheet


def test_a_sword_duel_to_the_death_waits_for_the_gm_at_0_pv(client, table):
    duel = Page(client, start(client, table, kind="sword", sword_victory="death"))
    assert "Fought to the death" in duel.text() and "Hits landed: 0" in duel.text()
    duel.ok("RollInitiative", dice_a="14", dice_b="9")
    duel.ok("Attack", side="a", dice_a="15 8")                # 20 vs DEF 12: 8 damage
    duel.ok("Attack", side="b", dice_b="1")
    duel.ok("RollInitiative", dice_a="14", dice_b="9")
    page = duel.ok("Attack", side="a", dice_a="15 4")
    assert "PV 0/9" in page and "Hits landed: 2" in page
    assert "Lope is at 0 PV: the GM rules on the fall." in page
    assert "Lope is at 0 PV: what is their fate? Down (alive, out of the fight) Dead" in page
    page = duel.ok("RecordFall", side="b", fate="down")
    assert "Lope is at 0 PV and down: what is their fate? Dead" in page and "Lope down Side B" in page
    page = duel.ok("RecordFall", side="b", fate="dead")
    assert "Inés won by death (Lope is dead)" in page


def test_worthiness_marks_show_beside_the_name(client, table):
    duel = Page(client, start(client, table, kind="sword"))
    page = duel.ok("MarkWorthiness", side="b", verdict="unworthy", note="a feint below the belt")
    assert "Lope unworthy" in page
    assert "Lope is marked an unworthy opponent: a feint below the belt." in page
    refused = duel.do("MarkWorthiness", htmx=True, side="c", verdict="worthy")
    assert refused.status_code == 422 and '<details class="pirate-more" open>' in refused.text
    assert re.search(r'id="e-side">must be one of', refused.text)


def test_the_public_view_shows_the_state_without_forms(app, client, table):
    duel = Page(client, start(client, table, kind="wit"))
    duel.ok("RollInitiative", dice_a="11", dice_b="2")
    state = client.get(f"/api/duels/{duel.duel}").json["state"]
    with app.test_request_context():
        from flask import render_template

        shown = render_template("duels/pirate/_state.html", state=pirate.public(state), public_view=True,
                                ruleset=pirate)
    assert "<form" not in shown and "CAR 10/10" in text_of(shown) and "Inés to insult" in text_of(shown)


def test_a_pistol_duel_beyond_range_through_the_page(client, table):
    duel = Page(client, start(client, table, kind="pistol", distance="12", second_a="Tomás", second_b="Blas",
                              shots="2"))
    page = duel.text()
    assert "Warning: this duel can kill." in page and "Lope has 9 PV: one hit of Inés's Pistola de chispa" in page
    assert "Distance 12 paces" in page and "2 shots each" in page
    assert "Second: Tomás" in page and "Second: Blas" in page
    assert "Shots left 2/2" in page
    assert "range 10 paces beyond range: Desventaja" in page      # Lope's pistol reaches 10 paces
    assert "range 15 paces beyond" not in page

    duel.ok("RollInitiative", dice_a="3", dice_b="15")
    page = duel.text()
    assert "Lope fires Pistola at Inés" in page
    assert "12 paces is beyond Pistola's range of 10 paces: this shot is at Desventaja already." in page
    page = duel.ok("Shoot", side="b", dice_b="18 6")         # Desventaja keeps 6: 9 vs 13, a miss
    assert "beyond its range of 10, with Desventaja (2d20, keep the lower) 18, 6 → 6 +3 = 9 vs DEF 13: miss" in page
    assert "Shots left 1/2" in page
    refused = duel.do("Shoot", side="a", dice_a="8")            # 8 + 5 = 13 vs 12 hits: the damage die is missing
    assert refused.status_code == 422 and re.search(r'id="e-dice_a">type another d10', refused.text)
    page = duel.ok("Shoot", side="a", dice_a="8 7")
    assert "Lope's PV 9 → 2" in page and "PV 2/9" in page
    assert "Inés won by hit (Lope was hit)" in page


def test_a_wit_duel_to_points_through_the_page(client, table):
    duel = Page(client, start(client, table, kind="wit", exchanges="1", tie="draw"))
    page = duel.text()
    assert "Warning" not in page
    assert "Exchange 1 of 1" in page and "Exchanges left: 1" in page and "a tie is a draw" in page
    assert "CAR 10/10" in page and "CAR 8/8" in page and "Points (damage dealt): 0" in page

    duel.ok("RollInitiative", dice_a="11", dice_b="2")
    form = client.get(f"/duels/{duel.duel}").text
    radios = re.findall(r'<input type="radio" name="insult" value="([^"]+)"', form)
    assert radios == [i["name"] for i in DEFAULT_INSULTS]
    # The first insult of a duel: the table's first is ticked, so one tap insults.
    assert re.findall(r'value="([^"]+)" checked autofocus', form) == [DEFAULT_INSULTS[0]["name"]]
    assert "+1 to hit (d20 +5) 1d4 to CAR" in text_of(form)
    assert "a miss costs Inés 1d4" in text_of(form)

    page = duel.ok("Insult", side="a", insult="Insulto directo", dice_a="11 3")   # 11 + 4 = 15 vs SAB 11: 3 to CAR
    assert "Inés tries Insulto directo on Lope, d20 11 +4 = 15 vs SAB 11: hit, 1d6 [3] = 3" in page
    assert "CAR 5/8" in page and "Points (damage dealt): 3" in page and "Lope to insult" in page
    page = duel.ok("Insult", side="b", insult="Provocación", dice_b="2 2")        # 2 + 2 = 4 vs SAB 12: backlash
    assert "the backlash 1d4 [2] costs Lope 2 CAR (5 → 3)" in page
    assert "CAR 3/8" in page and "Points (damage dealt): 0" in page
    assert "Inés won by points (3 to 0)" in page
    # Over: the terms say how many exchanges were fought, never "exchanges left".
    assert "Fought 1 exchange of 1" in page and "Exchanges left" not in page and "Exchange 1 of 1" not in page


def test_each_duelist_s_last_insult_is_ticked_for_their_next_one(client, table):
    duel = Page(client, start(client, table, kind="wit", exchanges="3"))
    duel.ok("RollInitiative", dice_a="11", dice_b="2")
    duel.ok("Insult", side="a", insult="Humillación", dice_a="2")
    duel.ok("Insult", side="b", insult="Provocación", dice_b="2 2")
    duel.ok("RollInitiative", dice_a="2", dice_b="11")
    form = client.get(f"/duels/{duel.duel}").text
    assert "Lope insults Inés" in text_of(form)
    assert re.findall(r'value="([^"]+)" checked autofocus', form) == ["Provocación"]
    page = duel.ok("Insult", side="b", dice_b="2 2", insult="Provocación")
    form = client.get(f"/duels/{duel.duel}").text
    assert re.findall(r'value="([^"]+)" checked autofocus', form) == ["Humillación"]


def test_a_refused_action_says_why_next_to_its_field_and_appends_nothing(app, client, table):
    duel = Page(client, start(client, table, kind="wit"))
    duel.ok("RollInitiative", dice_a="11", dice_b="2")
    before = count_events(app)
    response = duel.do("Insult", side="a", insult="Humillación", dice_a="25")
    assert response.status_code == 422
    assert re.search(r'id="e-dice_a">a d20 cannot show 25', response.text)
    assert 'value="Humillación" checked' in response.text      # the choice is kept
    response = duel.do("Insult", side="a", dice_a="5")
    assert response.status_code == 422 and re.search(r'id="e-insult">is required<', response.text)
    response = duel.do("Insult", side="b", insult="Burla ingeniosa", dice_b="5 2")
    assert response.status_code == 422
    assert "it is Inés&#39;s turn to insult, not Lope&#39;s" in response.text
    assert count_events(app) == before


def test_a_stale_form_says_the_duel_changed_at_its_top(app, client, table):
    duel = Page(client, start(client, table, kind="sword"))
    duel.ok("RollInitiative", dice_a="14", dice_b="9")
    before = count_events(app)
    duel.version -= 1                                           # a second tablet still shows the old page
    stale = duel.do("RollInitiative", htmx=True, dice_a="3", dice_b="4")
    assert stale.status_code == 409
    form = re.search(r'<form[^>]*action-RollInitiative.*?</form>', stale.text, re.S)
    assert form is None                                         # the duel moved on: no initiative form now
    assert "This duel changed since you opened it" in stale.text and count_events(app) == before


def test_the_fragment_goes_to_htmx_and_a_plain_post_redirects(client, table):
    duel = Page(client, start(client, table, kind="sword"))
    plain = duel.do("RollInitiative", dice_a="14", dice_b="9")
    assert plain.status_code == 302
    fragment = duel.do("Attack", htmx=True, side="a", dice_a="5")
    assert fragment.text.lstrip().startswith('<div id="duel"') and "<html" not in fragment.text
    assert 'href="/static/pirate.css"' in fragment.text
    page = client.get(f"/duels/{duel.duel}").text
    assert "<html" in page and page.count('href="/static/pirate.css"') == 1


def test_a_whole_duel_through_the_json_api(client, table):
    started = client.post("/api/commands", json={
        "type": "StartDuel", "session_id": table["session"], "ruleset": "pirate", "kind": "wit",
        "duelists": [{"character_id": table["ines"], "side": "a"}, {"character_id": table["lope"], "side": "b"}],
        "insults": [{"name": "Pulla", "to_hit": 2, "damage": "1d4", "backlash": ""}], "exchanges": 1})
    assert started.status_code == 201, started.json
    duel = started.json["id"]
    version = started.json["version"]

    def command(type_, **fields):
        nonlocal version
        response = client.post("/api/commands", json={"type": type_, "duel_id": duel,
                                                      "expected_version": version, **fields})
        assert response.status_code == 201, response.json
        version = response.json["version"]
        return [e["type"] for e in response.json["events"]]

    assert command("RollInitiative", dice_a=[11], dice_b=[2]) == ["PirateInitiativeRolled"]
    assert command("Insult", side="a", insult="pulla", dice_a=[15, 4]) == ["PirateInsultTraded"]
    assert command("Insult", side="b", insult="Pulla", dice_b=[1]) == ["PirateInsultTraded", "DuelWon"]
    state = client.get(f"/api/duels/{duel}").json
    assert state["status"] == "over" and state["winner"] == "a" and state["ending"] == "points"
    assert state["state"]["fighters"]["a"]["points"] == 4 and state["state"]["fighters"]["b"]["car"] == 4
    refused = client.post("/api/commands", json={"type": "RollInitiative", "duel_id": duel,
                                                 "expected_version": version, "dice_a": [3], "dice_b": [4]})
    assert refused.status_code == 422 and "this duel is over" in refused.json["message"]
    assert "Pulla +2 to hit (d20 +6) 1d4 to CAR" not in text_of(client.get(f"/duels/{duel}").text)


# --- retracting any event of a duel ---------------------------------------------------------

pirate = rules.get("pirate")


def snapshot(db):
    from tracker.projections import schema

    return {t: sorted(db.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in schema.TABLES}


IDS = itertools.count(1)

SCRIPTS = {
    "sword": ({"kind": "sword", "sword_victory": "hits", "hits": 2}, [
        ("RollInitiative", {"dice_a": [14], "dice_b": [9]}),
        ("MarkWorthiness", {"side": "b", "verdict": "unworthy", "note": "a low feint"}),
        ("Attack", {"side": "a", "dice_a": [15, 8]}),
        ("Attack", {"side": "b", "dice_b": [20, 2]}),
        ("RollInitiative", {"dice_a": [1], "dice_b": [18]}),
        ("Attack", {"side": "b", "dice_b": [2]}),
        ("Attack", {"side": "a", "dice_a": [16, 3]}),
        ("RecordFall", {"side": "b", "fate": "down"}),
    ]),
    "pistol": ({"kind": "pistol", "distance": 12, "second_a": "Tomás", "second_b": "Blas", "shots": 2}, [
        ("RollInitiative", {"dice_a": [3], "dice_b": [15]}),
        ("Shoot", {"side": "b", "dice_b": [18, 6]}),
        ("Shoot", {"side": "a", "dice_a": [2]}),
        ("RollInitiative", {"dice_a": [9, 4], "dice_b": [10, 1]}),
        ("Shoot", {"side": "a", "dice_a": [3]}),
        ("Shoot", {"side": "b", "dice_b": [1, 2]}),
    ]),
    "wit": ({"kind": "wit", "exchanges": 1, "tie": "sudden_death"}, [
        ("RollInitiative", {"dice_a": [11], "dice_b": [2]}),
        ("Insult", {"side": "a", "insult": "Insulto directo", "dice_a": [11, 3]}),
        ("Insult", {"side": "b", "insult": "Insulto directo", "dice_b": [15, 3]}),
        ("RollInitiative", {"dice_a": [5], "dice_b": [19]}),
        ("Insult", {"side": "b", "insult": "Provocación", "dice_b": [1, 2]}),
        ("Insult", {"side": "a", "insult": "Burla ingeniosa", "dice_a": [12, 2]}),
    ]),
}


def play_script(app, table, kind):
    terms, steps = SCRIPTS[kind]
    with app.app_context():
        service = bootstrap.service(get_db(), Context(new_id=lambda: f"x{next(IDS):05d}", rng=random.Random(5)))
        fresh = [service.handle({"type": "CreateCharacter", "campaign_id": table["campaign"], "name": name,
                                 "rank": "pj", "stats": {"pirate": stats}}).key
                 for name, stats in (("Inés", INES), ("Lope", LOPE))]   # unhurt by the previous copy
        duel = service.handle({"type": "StartDuel", "session_id": table["session"], "ruleset": "pirate",
                               "duelists": [{"character_id": fresh[0], "side": "a"},
                                            {"character_id": fresh[1], "side": "b"}], **terms}).key
        for type_, fields in steps:
            service.handle({"type": type_, "duel_id": duel, "expected_version": service.version(f"duel-{duel}"),
                            **fields})
        return duel


def events_of(app, duel):
    with app.app_context():
        return EventStore(get_db()).read_stream(f"duel-{duel}")


@pytest.mark.parametrize("kind", sorted(SCRIPTS))
def test_retracting_any_event_keeps_the_page_and_rebuild_whole(app, client, table, kind):
    """Each event in turn (in a fresh copy of the duel) is retracted; the later ones fold on top."""
    count = len(events_of(app, play_script(app, table, kind)))
    for version in range(2, count + 1):   # DuelStarted cannot be retracted
        duel = play_script(app, table, kind)
        with app.app_context():
            db = get_db()
            service = bootstrap.service(db, fixed_context())
            target = events_of(app, duel)[version - 1]
            service.handle({"type": "RetractEvent", "position": target.position, "reason": "misread",
                            "expected_version": service.version(f"duel-{duel}")})
            incremental = snapshot(db)
            rebuild(db, EventStore(db))
            assert snapshot(db) == incremental, f"{kind}: retracting {target.type} at {version}"
            state = queries.duel(db, duel)["state"]
            for name in pirate.actions(state)[:1]:   # the duel goes on from the corrected state
                try:
                    service.handle({"type": name, "duel_id": duel, "expected_version": service.version(f"duel-{duel}"),
                                    "side": state["order"][state["turn"]] if state["order"] else "a",
                                    "insult": "Burla ingeniosa", "fate": "down", "server_roll": True})
                except Refused:
                    pass
        page = client.get(f"/duels/{duel}")
        assert page.status_code == 200, f"{kind}: retracting {target.type} at {version}"


def test_a_duel_started_through_the_api_takes_the_campaigns_own_insult_table(client, table):
    saved = client.post("/api/commands", json={"type": "ChangeCampaignRules", "campaign_id": table["campaign"],
                                               "ruleset": "pirate", "insults": "Pulla marinera | +2 | 1d6",
                                               "expected_version": 1})
    assert saved.status_code == 201, saved.json
    started = client.post("/api/commands", json={
        "type": "StartDuel", "session_id": table["session"], "ruleset": "pirate", "kind": "wit",
        "duelists": [{"character_id": table["ines"], "side": "a"}, {"character_id": table["lope"], "side": "b"}]})
    assert started.status_code == 201, started.json
    insults = started.json["events"][0]["data"]["settings"]["insults"]
    assert [i["name"] for i in insults] == ["Pulla marinera"]


def test_a_weapon_s_kind_reads_and_is_typed_in_the_reader_s_language(app, client, table):
    """The edit form writes a weapon's kind in Spanish to a Spanish reader, and saving it as shown
    keeps the kind the rules know; the character page in English says it in English."""
    spanish = {"Accept-Language": "es"}
    form = html.unescape(client.get(f"/characters/{table['ines']}/edit", headers=spanish).text)
    assert "Sable | espada | 1d8\nPistola de chispa | pistola | 1d10 | 15" in form
    with app.app_context():
        character = queries.character(get_db(), table["ines"])
    fields = {"name": "Inés", "rank": "pj", "expected_version": str(character["version"]),
              **{f"pirate.{k}": v for k, v in INES.items()},
              "pirate.weapons": "Sable | espada | 1d8\nPistola de chispa | Pistola | 1d10 | 15"}
    assert client.post(f"/characters/{table['ines']}/edit", data=fields, headers=spanish).status_code == 302
    with app.app_context():
        weapons = queries.character(get_db(), table["ines"])["stats"]["pirate"]["weapons"]
    assert [w["kind"] for w in weapons] == ["sword", "pistol"]
    page = html.unescape(client.get(f"/characters/{table['ines']}", headers={"Accept-Language": "en"}).text)
    assert "Sable · sword · 1d8" in page and "espada" not in page
