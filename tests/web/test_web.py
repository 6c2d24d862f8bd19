"""The pages through Flask's test client: forms, errors next to fields, htmx fragments, conflicts."""
import pytest
import re


from tracker import create_app
from tracker.db import get_db
from tracker.projections import queries
from tests.conftest import fixed_context, logged_in, register_gm
from tests.conftest import count_events



@pytest.fixture(autouse=True)
def coin_registered():
    """Not yet ported to a shipped ruleset (issue 29): this file still plays the test-only coin
    ruleset, registered for its own tests only. Port it, then delete this fixture."""
    from tests.conftest import registered_coin

    yield from registered_coin()

def post_campaign(client, **form):
    return client.post("/campaigns", data={"name": "Season of Steel", "ruleset": "coin", "notes": "", **form})


def setup_duel(client):
    campaign = post_campaign(client).headers["Location"].rsplit("/", 1)[1]
    for name in ("Inés", "Lope"):
        client.post(f"/campaigns/{campaign}/characters", data={"name": name, "rank": "pj", "coin.hp": "9"})
    session = client.post(f"/campaigns/{campaign}/sessions", data={"number": "1", "date": "2026-11-29",
                                                                   "title": "Dawn"}).headers["Location"]
    session_id = session.rsplit("/", 1)[1]
    duel = client.post(f"/sessions/{session_id}/duels", data={"ruleset": "coin", "side_a": "id0002",
                                                              "side_b": "id0003", "hits": "2"})
    assert duel.status_code == 302, duel.text
    return campaign, duel.headers["Location"].rsplit("/", 1)[1]


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
                           data={"name": "Inés", "rank": "pj", "coin.hp": "lots"})
    assert response.status_code == 422
    assert 'id="e-coin.hp">must be a whole number<' in response.text
    assert 'value="Inés"' in response.text
    assert count_events(app) == 3


def test_the_character_sheet_is_a_projection(client):
    campaign, duel = setup_duel(client)
    client.post(f"/duels/{duel}/do/Play", data={"dice_a": "6", "dice_b": "1", "expected_version": "1"})
    sheet = client.get("/characters/id0003")
    assert "HP 4/9" in sheet.text and "coin hit" in sheet.text
    assert "/streams/duel-id0005/2" in sheet.text  # each wound links to the event that dealt it


def test_a_duel_action_returns_the_fragment_to_htmx_and_redirects_otherwise(client):
    _, duel = setup_duel(client)
    plain = client.post(f"/duels/{duel}/do/Play", data={"dice_a": "4", "dice_b": "2", "expected_version": "1"})
    assert plain.status_code == 302
    fragment = client.post(f"/duels/{duel}/do/Play", headers={"HX-Request": "true"},
                           data={"dice_a": "5", "dice_b": "2", "expected_version": "2"})
    assert fragment.status_code == 200
    assert fragment.text.lstrip().startswith('<div id="duel"') and "<html" not in fragment.text
    page = client.get(f"/duels/{duel}")
    assert "<html" in page.text and '<div id="duel"' in page.text
    assert "won by hits" in page.text


def test_a_stale_duel_form_is_a_conflict_the_gm_sees(app, client):
    _, duel = setup_duel(client)
    client.post(f"/duels/{duel}/do/Play", data={"dice_a": "4", "dice_b": "2", "expected_version": "1"})
    before = count_events(app)
    stale = client.post(f"/duels/{duel}/do/Play", headers={"HX-Request": "true"},
                        data={"dice_a": "1", "dice_b": "6", "expected_version": "1"})
    assert stale.status_code == 409
    assert "changed since you opened it" in stale.text
    assert count_events(app) == before


def test_a_refused_duel_action_says_why_and_appends_nothing(app, client):
    _, duel = setup_duel(client)
    before = count_events(app)
    response = client.post(f"/duels/{duel}/do/Play", data={"dice_a": "9", "dice_b": "2", "expected_version": "1"})
    assert response.status_code == 422
    assert "a d6 cannot show 9" in response.text
    assert count_events(app) == before


def test_a_stale_edit_form_is_a_409(client):
    campaign = post_campaign(client).headers["Location"].rsplit("/", 1)[1]
    client.post(f"/campaigns/{campaign}/edit", data={"name": "A", "ruleset": "coin", "expected_version": "1"})
    stale = client.post(f"/campaigns/{campaign}/edit", data={"name": "B", "ruleset": "coin", "expected_version": "1"})
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
    client.post(f"/duels/{duel}/do/Play", data={"dice_a": "6", "dice_b": "1", "expected_version": "1"})
    response = client.post("/events/8/retract", data={"reason": "wrong die", "expected_version": "2"})
    assert response.status_code == 302
    assert "Retracted by" in client.get("/events/8").text
    assert "HP 9/9" in client.get("/characters/id0003").text


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
    from tracker import demo
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
