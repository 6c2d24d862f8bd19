"""One-tap undo on the duel page: it says what it undoes before the one tap that confirms it,
takes back the last action with what it decided (the win), and can be restored until the next
action; the event page leads back to the duel and reads as words before JSON."""
import re

from tests.conftest import count_events, text_of
from tests.web.test_rewind_pages import INES_WINS
from tests.web.test_web import WON_BY_HITS, attack, initiative, played, position_of, setup_duel

FIRST_INITIATIVE = "Round 1 initiative: Inés 16 (d20 14), Lope 10 (d20 9); Inés goes first."


def undo_form(page: str) -> dict:
    form = re.search(r'action="/duels/\w+/undo".*?name="position" value="(\d+)".*?'
                     r'name="expected_version" value="(\d+)"', page, re.S)
    assert form, page
    return {"position": form.group(1), "expected_version": form.group(2)}


def test_undo_says_what_it_undoes_and_takes_back_the_last_action_with_the_win(app, client):
    _, duel = setup_duel(client)                      # to 2 hits
    played(client, duel, WON_BY_HITS)                 # Inés's second hit wins
    shown = client.get(f"/duels/{duel}").text
    assert "Undo last action" in shown and "Yes, undo it" not in shown  # one tap, nothing to open first
    tap = re.search(r'<a class="button undo-last" href="([^"#]+)', shown)
    assert tap, shown
    page = client.get(tap.group(1)).text              # the first tap: the confirmation, without JavaScript
    assert "Yes, undo it" in page and "<details" not in page[page.index('id="undo"'):page.index("Yes, undo it")]
    fragment = client.get(tap.group(1), headers={"HX-Request": "true"})
    assert fragment.status_code == 200 and "Yes, undo it" in fragment.text and "<html" not in fragment.text
    panel = text_of(page[page.index('id="undo"'):])
    assert (f"This undoes, and the duel is running again: {INES_WINS}; Lope's PV 6 → 2. "
            "Duel ended: Inés won by hits (2 hits; Lope took 4 PV)") in panel
    before = count_events(app)
    response = client.post(f"/duels/{duel}/undo", data=undo_form(page))
    assert response.status_code == 302 and count_events(app) == before + 1
    after = client.get(f"/duels/{duel}").text
    assert "Inés won by hits" not in text_of(after[:after.index('id="undo"')])
    assert "Round 2: Inés to attack" in text_of(after) and "Restore what was undone" in after
    assert f"Undone: {INES_WINS}; Lope's PV 6 → 2." in text_of(after)


def test_an_undo_is_restored_with_one_tap_and_the_duel_stands_as_before(app, client):
    _, duel = setup_duel(client)
    played(client, duel, WON_BY_HITS)
    won = client.get(f"/duels/{duel}").text
    client.post(f"/duels/{duel}/undo", data=undo_form(client.get(f"/duels/{duel}/undo").text))
    page = client.get(f"/duels/{duel}").text
    restore = re.search(r'action="/duels/\w+/restore".*?name="position" value="(\d+)".*?'
                        r'name="expected_version" value="(\d+)"', page, re.S)
    response = client.post(f"/duels/{duel}/restore", data={"position": restore.group(1),
                                                           "expected_version": restore.group(2)})
    assert response.status_code == 302
    again = client.get(f"/duels/{duel}").text
    assert "Inés won by hits" in again and "Restore what was undone" not in again


def test_two_undos_are_restored_newest_first(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative(), attack("a", 15, 3)])
    client.post(f"/duels/{duel}/undo", data=undo_form(client.get(f"/duels/{duel}/undo").text))
    client.post(f"/duels/{duel}/undo", data=undo_form(client.get(f"/duels/{duel}/undo").text))
    page = client.get(f"/duels/{duel}").text
    assert f"Undone: {FIRST_INITIATIVE}" in text_of(page)
    assert "Undo last action" not in page  # only the start stands: a start is abandoned, not undone


def test_a_restore_is_refused_once_the_gm_played_on(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative(), attack("a", 15, 3)])
    client.post(f"/duels/{duel}/undo", data=undo_form(client.get(f"/duels/{duel}/undo").text))
    retraction = position_of(app, duel, 4)
    response = client.post(f"/duels/{duel}/do/Attack", data={"side": "a", "dice_a": "3", "expected_version": "4"})
    assert response.status_code == 302
    assert "Restore what was undone" not in client.get(f"/duels/{duel}").text
    before = count_events(app)
    refused = client.post(f"/duels/{duel}/restore", data={"position": str(retraction), "expected_version": "5"})
    assert refused.status_code == 422 and count_events(app) == before
    assert "later events were logged after this retraction" in refused.text


def test_a_stale_undo_is_a_conflict_and_undoes_nothing(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative()])
    stale = undo_form(client.get(f"/duels/{duel}/undo").text)
    played_on = client.post(f"/duels/{duel}/do/Attack", data={"side": "a", "dice_a": "3", "expected_version": "2"})
    assert played_on.status_code == 302
    before = count_events(app)
    response = client.post(f"/duels/{duel}/undo", data=stale)
    assert response.status_code == 409 and count_events(app) == before
    assert "nothing was undone" in response.text


def test_the_htmx_undo_swaps_the_duel_and_says_it_can_be_restored(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative()])
    response = client.post(f"/duels/{duel}/undo", data=undo_form(client.get(f"/duels/{duel}/undo").text),
                           headers={"HX-Request": "true"})
    assert response.status_code == 200 and response.text.lstrip().startswith('<div id="duel"')
    assert "Undone. You can restore it until the next action is logged." in response.text


def test_the_event_page_reads_as_words_and_leads_back_to_the_duel(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative()])
    page = client.get(f"/events/{position_of(app, duel, 2)}").text
    assert f'href="/duels/{duel}">← Back to the duel' in page
    assert FIRST_INITIATIVE in page and "Logged by gm" in page
    # in the reader's format (UTC until the page's script shows it in their own time)
    assert re.search(r'<time datetime="2026-11-29T20:\d\d:\d\d.000\+00:00" data-local>Nov 29, 2026, 8:\d\d:\d\d\W*PM UTC</time>',
                     page)
    assert page.index("Logged by gm") < page.index("The event as stored (JSON)")


def test_a_retraction_is_restored_from_its_event_page(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative()])
    client.post(f"/duels/{duel}/undo", data=undo_form(client.get(f"/duels/{duel}/undo").text))
    retraction = position_of(app, duel, 3)
    page = client.get(f"/events/{retraction}").text
    assert "Restore what this retraction took back" in page
    response = client.post(f"/events/{retraction}/restore", data={"expected_version": "3"})
    assert response.status_code == 302
    assert "Restored (this retraction taken back) by" in client.get(f"/events/{retraction}").text
    assert FIRST_INITIATIVE in text_of(client.get(f"/duels/{duel}").text)


def test_an_undo_names_an_action_of_its_own_duel(app, client):
    _, duel = setup_duel(client)
    played(client, duel, [initiative()])
    before = count_events(app)
    for position in ("1", "abc", "999"):
        response = client.post(f"/duels/{duel}/undo", data={"position": position, "expected_version": "2"})
        assert response.status_code == 422 and "not an action of this duel" in response.text
    assert count_events(app) == before
