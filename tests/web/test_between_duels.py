"""Between duels on the pages: a rest and an adjustment from the sheet, each on its own line linked
to its event; a refused adjustment says why by its field; the party rests from the session page;
a session is edited from its page; the sheet folds away what the ruleset says to."""
import re

from tests.conftest import count_events, text_of
from tracker.rules.pirate.sheet import insult_lines
from tests.web.test_web import INES as INES_SHEET, attack, initiative, pirate_sheet, played, setup_duel

INES, LOPE = "id0002", "id0003"
# Lope wins the initiative (9 + 2 = 11 against 14 + 1 = 15) and cuts Inés for 5: her PV 12 → 7.
LOPE_CUTS_INES = [initiative(9, 14), attack("b", 15, 5)]


def rest_restores(client, campaign, how):
    """The campaign's pirate setting for what a rest gives back (all PV by default)."""
    response = client.post(f"/campaigns/{campaign}/rules/pirate", data={"rest_restores": how, "insults": insult_lines(),
                                                                        "expected_version": "1"})
    assert response.status_code == 302, response.text

def test_a_rest_from_the_sheet_gives_points_back_on_a_line_linked_to_its_event(app, client):
    campaign, duel = setup_duel(client, hits=3)
    rest_restores(client, campaign, "half")              # a rest gives back 6 of Inés's 12 PV
    played(client, duel, LOPE_CUTS_INES + [attack("a", 2)])   # Inés misses (2 + 5 = 7 vs DEF 12)
    played(client, duel, LOPE_CUTS_INES)                 # Lope's second hit of 3: Inés 7 → 2 PV
    assert "PV 2/12" in text_of(client.get(f"/characters/{INES}").text)
    response = client.post(f"/characters/{INES}/recover", data={"ruleset": "pirate", "recovery": "rest",
                                                                "expected_version": "1"})
    assert response.status_code == 302
    sheet = client.get(f"/characters/{INES}").text
    assert "PV 8/12" in text_of(sheet)
    assert "A duel in progress keeps the points it started with" in sheet  # the sword duel still runs
    line = re.search(r'<a href="(/streams/character-id0002/2)">Rest</a>', sheet)
    assert line, sheet
    event = client.get(line.group(1), follow_redirects=True).text
    assert "Inés: Rest (Pirate duels): +6 PV." in event


def test_an_adjustment_needs_a_reason_and_stays_within_the_track(app, client):
    _, duel = setup_duel(client)
    played(client, duel, LOPE_CUTS_INES)                 # Inés 7/12 PV
    before = count_events(app)
    refused = client.post(f"/characters/{INES}/adjust", data={"ruleset": "pirate", "track": "PV", "amount": "9",
                                                              "reason": "a miracle"})
    assert refused.status_code == 422 and count_events(app) == before
    assert 'id="e-amount-pirate">PV is 7/12: it can change by -7 to +5<' in refused.text
    assert 'value="a miracle"' in refused.text  # what was typed is kept
    blank = client.post(f"/characters/{INES}/adjust", data={"ruleset": "pirate", "track": "PV", "amount": "2"})
    assert blank.status_code == 422 and "is required: say why" in blank.text
    done = client.post(f"/characters/{INES}/adjust", data={"ruleset": "pirate", "track": "PV", "amount": "2",
                                                           "reason": "healed by the surgeon"})
    assert done.status_code == 302
    sheet = text_of(client.get(f"/characters/{INES}").text)
    assert "PV 9/12" in sheet and "+2 Adjusted: healed by the surgeon" in sheet


def test_the_party_rests_from_the_session_page(app, client):
    campaign, duel = setup_duel(client)
    rest_restores(client, campaign, "half")             # 6 PV for Inés, 4 for Lope
    played(client, duel, LOPE_CUTS_INES + [attack("a", 15, 3)])   # Inés 7/12, Lope 6/9
    session = re.search(r'/sessions/(\w+)', client.get(f"/duels/{duel}").text).group(1)
    page = client.get(f"/sessions/{session}").text
    assert "The party rests" in page and "[assumed] A rest restores all PV (a campaign setting)" in page
    response = client.post(f"/sessions/{session}/rest")
    assert response.status_code == 302
    assert "The party rested" in client.get(response.headers["Location"]).text
    assert "PV 12/12" in text_of(client.get(f"/characters/{INES}").text)   # 7 + 6, no more than the maximum
    assert "PV 9/9" in text_of(client.get(f"/characters/{LOPE}").text)     # 6 + 4, the same


def test_a_session_is_edited_from_its_page(app, client):
    _, duel = setup_duel(client)
    session = re.search(r'/sessions/(\w+)', client.get(f"/duels/{duel}").text).group(1)
    assert f'href="/sessions/{session}/edit"' in client.get(f"/sessions/{session}").text
    form = client.get(f"/sessions/{session}/edit").text
    assert 'value="Dawn"' in form
    refused = client.post(f"/sessions/{session}/edit", data={"number": "1", "date": "yesterday", "title": "Dusk",
                                                             "expected_version": "1"})
    assert refused.status_code == 422 and "must be a date like" in refused.text
    done = client.post(f"/sessions/{session}/edit", data={"number": "2", "date": "2026-11-30", "title": "Dusk",
                                                          "expected_version": "1"})
    assert done.status_code == 302
    assert "Session 2: Dusk" in client.get(f"/sessions/{session}").text


def test_a_duplicate_name_in_the_campaign_asks_for_confirmation(app, client):
    campaign, _ = setup_duel(client)
    before = count_events(app)
    asked = client.post(f"/campaigns/{campaign}/characters", data={"name": " inés ", "rank": "pj", **pirate_sheet(INES_SHEET)})
    assert asked.status_code == 200 and count_events(app) == before
    assert "This campaign already has a character called" in asked.text and 'name="duplicate_ok"' in asked.text
    assert 'value=" inés "' in asked.text or 'value="inés"' in asked.text.replace(" inés ", "inés")
    confirmed = client.post(f"/campaigns/{campaign}/characters", data={"name": "Inés", "rank": "pj", "duplicate_ok": "true",
                                                                        **pirate_sheet(INES_SHEET)})
    assert confirmed.status_code == 302 and count_events(app) == before + 1
    renamed = client.post(f"/characters/{LOPE}/edit", data={"name": "Inés", "rank": "pj", "expected_version": "1",
                                                            **pirate_sheet(INES_SHEET)})
    assert renamed.status_code == 200 and "already has a character called" in renamed.text


def test_the_sheet_folds_untrained_pf2e_skills_and_shows_the_default_ruleset_first(app, client):
    campaign = client.post("/campaigns", data={"name": "Absalom", "ruleset": "pf2e"}).headers["Location"].rsplit("/", 1)[1]
    data = {"name": "Seelah", "rank": "pj", "pf2e.level": "3", "pf2e.hp_max": "40", "pf2e.ac": "19",
            "pf2e.attack_bonus": "9", "pf2e.damage": "1d8+4", "pf2e.intimidation": "7",
            "pf2e.intimidation_rank": "trained", **pirate_sheet(INES_SHEET)}
    seelah = client.post(f"/campaigns/{campaign}/characters", data=data).headers["Location"].rsplit("/", 1)[1]
    sheet = client.get(f"/characters/{seelah}").text
    assert sheet.index("<h2>Pathfinder 2e</h2>") < sheet.index("<h2>Pirate duels</h2>")
    shown, folded = sheet.split("Show the 12 hidden entries (untrained skills)")
    assert "Intimidation modifier" in shown.split("<h2>Pathfinder 2e</h2>")[1]
    assert "Deception modifier" not in shown.split("<h2>Pathfinder 2e</h2>")[1] and "Deception modifier" in folded
    assert 'class="bar ok"' in sheet and "HP 40/40" in text_of(sheet)  # the colour says how full, the number too


def test_a_party_with_nobody_to_rest_is_told_so_on_the_session_page(app, client):
    campaign = client.post("/campaigns", data={"name": "Empty", "ruleset": "pirate"}).headers["Location"].rsplit("/", 1)[1]
    session = client.post(f"/campaigns/{campaign}/sessions", data={"number": "1", "date": "2026-11-29",
                                                                   "title": "Alone"}).headers["Location"].rsplit("/", 1)[1]
    before = count_events(app)
    response = client.post(f"/sessions/{session}/rest")
    assert response.status_code == 422 and count_events(app) == before
    assert "nobody to rest: the campaign has no PC" in response.text and "Session 1: Alone" in response.text


def _pf2e_patient(client):
    campaign = client.post("/campaigns", data={"name": "Absalom", "ruleset": "pf2e"}).headers["Location"].rsplit("/", 1)[1]
    data = {"name": "Seelah", "rank": "pj", "pf2e.level": "3", "pf2e.hp_max": "40", "pf2e.ac": "19",
            "pf2e.attack_bonus": "9", "pf2e.damage": "1d8+4"}
    seelah = client.post(f"/campaigns/{campaign}/characters", data=data).headers["Location"].rsplit("/", 1)[1]
    client.post(f"/characters/{seelah}/adjust", data={"ruleset": "pf2e", "track": "HP", "amount": "-30",
                                                      "reason": "a fall"})
    return campaign, seelah


def _treat(client, seelah, dice="12 5 3"):
    return client.post(f"/characters/{seelah}/recover", data={"ruleset": "pf2e", "recovery": "treat_wounds",
                                                              "medicine": "5", "dc": "15", "dice": dice})


def test_pf2e_treat_wounds_again_within_the_hour_is_refused_by_the_form_and_heals_nothing(app, client):
    _, seelah = _pf2e_patient(client)
    assert _treat(client, seelah).status_code == 302
    assert "HP 18/40" in text_of(client.get(f"/characters/{seelah}").text)
    before = count_events(app)
    again = _treat(client, seelah, "14 6 6")
    assert again.status_code == 422 and count_events(app) == before
    assert "treated less than an hour ago: Treat Wounds can treat them again in 60 min" in again.text
    assert 'value="14 6 6"' in again.text  # the treatment's form, open again with what was typed
    assert "HP 18/40" in text_of(client.get(f"/characters/{seelah}").text)


def test_a_retracted_treatment_does_not_count_for_the_hour(app, client):
    _, seelah = _pf2e_patient(client)
    assert _treat(client, seelah).status_code == 302
    treatment = count_events(app)  # the log's last event, at that position
    retracted = client.post(f"/events/{treatment}/retract", data={"reason": "wrong target", "expected_version": "3"})
    assert retracted.status_code in (302, 303), retracted.text
    assert _treat(client, seelah).status_code == 302


def test_the_campaign_may_ignore_the_hour_of_treat_wounds_from_its_settings(app, client):
    campaign, seelah = _pf2e_patient(client)
    settings = client.get(f"/campaigns/{campaign}/edit").text
    assert "Treat Wounds ignores the hour" in settings and "[assumed] off by default" in settings
    changed = client.post(f"/campaigns/{campaign}/rules/pf2e", data={"treat_wounds_ignore_hour": "on",
                                                                           "expected_version": "1"})
    assert changed.status_code == 302, changed.text
    assert _treat(client, seelah).status_code == 302
    assert _treat(client, seelah, "14 6 6").status_code == 302
    assert "HP 30/40" in text_of(client.get(f"/characters/{seelah}").text)
