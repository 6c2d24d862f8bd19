"""The pages through Flask's test client: forms, errors next to fields, htmx fragments, conflicts.
A pirate sword duel plays the duel pages here (and in the files that take ``setup_duel``)."""
import re

from tracker import create_app
from tracker.bootstrap.db import get_db, open_db
from tracker.projections import queries
from tests.conftest import fixed_context, logged_in, register_gm
from tests.conftest import count_events, text_of


# Two pirates of a sword duel fought to 2 hits: Inés (side A) and Lope (side B), both PCs.
INES = {"atq": "5", "def": "13", "pv": "12", "comunicacion": "4", "sab": "12", "car": "10", "iniciativa": "2",
        "weapons": "Sable | sword | 1d8\nPistola de chispa | pistol | 1d10 | 15"}
LOPE = {"atq": "3", "def": "12", "pv": "9", "comunicacion": "2", "sab": "11", "car": "8", "iniciativa": "1",
        "weapons": "Espada ropera | sword | 1d6\nPistola | pistol | 1d8 | 10"}


def pirate_sheet(stats: dict) -> dict:
    return {f"pirate.{k}": v for k, v in stats.items()}


def post_campaign(client, **form):
    return client.post("/campaigns", data={"name": "Season of Steel", "ruleset": "pirate", "notes": "", **form})


def setup_duel(client, hits: int = 2):
    """Campaign id0001, Inés id0002, Lope id0003, session id0004 and their sword duel id0005 (to 2
    hits unless told), at events #3 to #7 (the GM's account and token are #1 and #2)."""
    campaign = post_campaign(client).headers["Location"].rsplit("/", 1)[1]
    for name, stats in (("Inés", INES), ("Lope", LOPE)):
        client.post(f"/campaigns/{campaign}/characters", data={"name": name, "rank": "pj", **pirate_sheet(stats)})
    session = client.post(f"/campaigns/{campaign}/sessions", data={"number": "1", "date": "2026-11-29",
                                                                   "title": "Dawn"}).headers["Location"]
    session_id = session.rsplit("/", 1)[1]
    duel = client.post(f"/sessions/{session_id}/duels", data={"ruleset": "pirate", "kind": "sword",
                                                              "sword_victory": "hits", "hits": str(hits),
                                                              "side_a": "id0002", "side_b": "id0003"})
    assert duel.status_code == 302, duel.text
    return campaign, duel.headers["Location"].rsplit("/", 1)[1]


def initiative(a: int = 14, b: int = 9) -> tuple[str, dict]:
    """A round's initiative as typed d20s: by default Inés 16 (14 + 2) before Lope 10 (9 + 1)."""
    return "RollInitiative", {"dice_a": str(a), "dice_b": str(b)}


def attack(side: str, *dice: int) -> tuple[str, dict]:
    """A sword attack by ``side`` with its typed dice: the d20, then the damage die on a hit."""
    return "Attack", {"side": side, f"dice_{side}": " ".join(map(str, dice))}


def played(client, duel: str, steps: list[tuple[str, dict]]) -> None:
    """Post each step to the duel's page as its form would, with the duel's version at the time."""
    for command, data in steps:
        version = client.get(f"/api/duels/{duel}").json["version"]
        response = client.post(f"/duels/{duel}/do/{command}", data={"expected_version": str(version), **data})
        assert response.status_code == 302, response.text


def position_of(app, duel: str, version: int) -> int:
    """The log position of the duel's event at ``version``."""
    db = open_db(app.config["DATABASE"])
    try:
        return db.execute("SELECT position FROM events WHERE stream = ? AND version = ?",
                          [f"duel-{duel}", version]).fetchone()[0]
    finally:
        db.close()


# Inés wins by 2 hits in round 2 (versions 2 to 6, the win at 7): Lope's PV 9 → 6 → 2, Inés's 12 → 10.
WON_BY_HITS = [initiative(), attack("a", 15, 3), attack("b", 15, 2), initiative(), attack("a", 15, 4)]


def test_creating_a_campaign_redirects_to_its_dashboard(client):
    response = post_campaign(client)
    assert response.status_code == 302
    page = client.get(response.headers["Location"])
    assert "<h1>Season of Steel</h1>" in page.text


def test_a_bad_form_says_why_next_to_the_field_keeps_the_input_and_appends_nothing(app, client):
    response = post_campaign(client, name="", notes="kept notes", ruleset="chess")
    assert response.status_code == 422
    assert re.search(r'id="e-name">is required<', response.text)
    assert re.search(r'id="e-ruleset">must be one of', response.text)
    assert "kept notes" in response.text
    assert count_events(app) == 2  # the GM's account and token, nothing more


def test_character_stats_are_validated_by_the_ruleset(app, client):
    campaign = post_campaign(client).headers["Location"].rsplit("/", 1)[1]
    response = client.post(f"/campaigns/{campaign}/characters",
                           data={"name": "Inés", "rank": "pj", **pirate_sheet({**INES, "pv": "lots"})})
    assert response.status_code == 422
    assert 'id="e-pirate.pv">must be a whole number<' in response.text
    assert 'value="Inés"' in response.text
    assert count_events(app) == 3


def test_the_character_sheet_is_a_projection(client):
    campaign, duel = setup_duel(client)
    played(client, duel, [initiative(), attack("a", 15, 5)])   # 15 + 5 = 20 vs DEF 12: 1d8 [5] to Lope
    sheet = client.get("/characters/id0003")
    assert "PV 4/9" in text_of(sheet.text) and "Sable of Inés" in text_of(sheet.text)
    assert "/streams/duel-id0005/3" in sheet.text  # each wound links to the event that dealt it


def test_a_duel_action_returns_the_fragment_to_htmx_and_redirects_otherwise(client):
    _, duel = setup_duel(client)
    plain = client.post(f"/duels/{duel}/do/RollInitiative", data={"dice_a": "14", "dice_b": "9",
                                                                  "expected_version": "1"})
    assert plain.status_code == 302
    played(client, duel, WON_BY_HITS[1:-1])                  # versions 3 to 5: one hit each, round 2's initiative
    fragment = client.post(f"/duels/{duel}/do/Attack", headers={"HX-Request": "true"},
                           data={"side": "a", "dice_a": "15 4", "expected_version": "5"})
    assert fragment.status_code == 200
    assert fragment.text.lstrip().startswith('<div id="duel"') and "<html" not in fragment.text
    page = client.get(f"/duels/{duel}")
    assert "<html" in page.text and '<div id="duel"' in page.text
    assert "won by hits" in page.text


def test_a_stale_duel_form_is_a_conflict_the_gm_sees(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative()])
    before = count_events(app)
    stale = client.post(f"/duels/{duel}/do/Attack", headers={"HX-Request": "true"},
                        data={"side": "a", "dice_a": "15 4", "expected_version": "1"})
    assert stale.status_code == 409
    assert "changed since you opened it" in stale.text
    assert count_events(app) == before


def test_a_refused_duel_action_says_why_and_appends_nothing(app, client):
    _, duel = setup_duel(client)
    before = count_events(app)
    response = client.post(f"/duels/{duel}/do/RollInitiative", data={"dice_a": "25", "dice_b": "2",
                                                                      "expected_version": "1"})
    assert response.status_code == 422
    assert "a d20 cannot show 25" in response.text
    assert count_events(app) == before


def test_a_stale_edit_form_is_a_409(client):
    campaign = post_campaign(client).headers["Location"].rsplit("/", 1)[1]
    client.post(f"/campaigns/{campaign}/edit", data={"name": "A", "ruleset": "pirate", "expected_version": "1"})
    stale = client.post(f"/campaigns/{campaign}/edit", data={"name": "B", "ruleset": "pirate", "expected_version": "1"})
    assert stale.status_code == 409 and "changed since you opened it" in stale.text


def test_the_log_filters_and_pages_and_serves_a_fragment_to_htmx(app, client):
    campaign, duel = setup_duel(client)
    app.config["LOG_PAGE_SIZE"] = 3
    page = client.get(f"/campaigns/{campaign}/log")
    assert page.text.count('class="pos"') == 3 and "Older events" in page.text
    older = client.get(f"/campaigns/{campaign}/log?before=5")
    assert "#4" in older.text and "#3" in older.text
    only_duels = client.get(f"/campaigns/{campaign}/log?category=duel", headers={"HX-Request": "true"})
    assert "<html" not in only_duels.text and "#7" in only_duels.text and "#6" not in only_duels.text
    about_lope = client.get(f"/campaigns/{campaign}/log?subject=character-id0003")
    assert "Lope joined" in about_lope.text and "Inés joined" not in about_lope.text


def test_retracting_from_the_log(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative(), attack("a", 15, 5)])   # #8 the initiative, #9 the hit: Lope 4/9
    assert "PV 4/9" in text_of(client.get("/characters/id0003").text)
    response = client.post("/events/9/retract", data={"reason": "wrong die", "expected_version": "3"})
    assert response.status_code == 302
    assert "Retracted by" in client.get("/events/9").text
    assert "PV 9/9" in text_of(client.get("/characters/id0003").text)


def test_every_post_needs_a_csrf_token(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db"), "SECRET_KEY": "t",
                      "SESSION_COOKIE_SECURE": False, "SERVICE_CONTEXT": fixed_context()})
    register_gm(app)
    client = logged_in(app)
    response = post_campaign(client)
    assert response.status_code == 400 and "Form refused" in response.text
    assert count_events(app) == 2
    page = client.get("/")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    assert post_campaign(client, csrf_token=token).status_code == 302


def test_an_unknown_page_is_a_404(client):
    assert client.get("/characters/nobody").status_code == 404


def test_every_demo_sheet_saves_unchanged_from_its_edit_form(app, client):
    """The edit form shows each stats block (weapons as text lines) so that saving it as shown works."""
    from tracker.cli import demo
    from tracker.web import as_lines
    from tracker.web.characters import _as_form

    with app.app_context():
        db = get_db()
        demo.seed(db)
        characters = queries.characters(db, db.execute("SELECT id FROM campaigns").fetchone()[0])
    from tracker import rules

    columns = {f"{name}.{f.name}": f.columns for name, m in rules.RULESETS.items() for f in m.STATS}
    for character in characters:
        form = {k: as_lines(v, columns.get(k, ())) for k, v in _as_form({**character, "version": 1}).items()}
        response = client.post(f"/characters/{character['id']}/edit", data=form)
        assert response.status_code == 302, (character["name"], response.text[-2000:])
        page = client.get(f"/characters/{character['id']}/edit").text
        assert "|" in page  # the weapons came back as text lines


def test_a_campaign_keeps_its_own_insult_table_for_new_pirate_duels(app, client):
    campaign = post_campaign(client, ruleset="pirate").headers["Location"].rsplit("/", 1)[1]
    refused = client.post(f"/campaigns/{campaign}/rules/pirate",
                          data={"insults": "Pulla | +9 | 1dX", "expected_version": "1"})
    assert refused.status_code == 422 and "damage must be dice" in refused.text
    assert count_events(app) == 3
    saved = client.post(f"/campaigns/{campaign}/rules/pirate",
                        data={"insults": "Pulla marinera | +2 | 1d6\nMaldición | -1 | 2d6 | 1d4", "expected_version": "1"})
    assert saved.status_code == 302
    session = client.post(f"/campaigns/{campaign}/sessions", data={"number": "1", "date": "2026-11-29",
                                                                   "title": "Port Royal"}).headers["Location"]
    form = client.get(f"{session}/duels/new?ruleset=pirate&kind=wit").text
    assert "Pulla marinera | +2 | 1d6\nMaldición | -1 | 2d6 | 1d4" in form
    assert "Burla ingeniosa" not in form
