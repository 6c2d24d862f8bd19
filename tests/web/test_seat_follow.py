"""Seats and table displays follow by long-poll on the followers' pool (issues 28 and 30): the
server holds the question until what the page shows moves, woken by the log's watcher on the
page's own streams only, so a GM's turn at one table wakes no seat at another."""
from __future__ import annotations

import re
import threading
import time

from tests.web.test_display import display_link, gm_service, live  # noqa: F401 (fixture)
from tests.web.test_seats import SHEET, issue_seat, setup_duel, state
from tracker.bootstrap.db import open_db
from tracker.projections import queries


def seat_of(app, path: str) -> dict:
    from tracker.web.links import link_id_of

    db = open_db(app.config["DATABASE"])
    try:
        with app.app_context():
            return queries.live_seat(db, link_id_of(path.split("/")[2]))
    finally:
        db.close()


def follow_address(page: str) -> str:
    """The long-poll the seat's fragment asks, as drawn (its version and its wait)."""
    import html

    return html.unescape(re.search(r'hx-get="([^"]*/live\?v=[^"]*)"', page).group(1))


def in_background(get, path):
    """``get(path)`` on a thread of its own: (the thread, a dict that receives answer and seconds)."""
    out: dict = {}

    def run():
        started = time.monotonic()
        out["answer"] = get(path)
        out["seconds"] = time.monotonic() - started

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def npc_chooses(gm, duel):
    card = state(gm, duel)["sides"]["b"]["hand"][0]
    gm.handle({"type": "ChooseCard", "duel_id": duel, "side": "b", "card": card, "turn": 1})


def test_a_turn_at_one_table_wakes_no_seat_at_another_nor_a_seat_of_another_duel(app, client, gm_service):
    first, second = setup_duel(gm_service, npc=True), setup_duel(gm_service, npc=True)
    seats = [seat_of(app, issue_seat(client, table["session"], table["people"][0])) for table in (first, second)]
    # At the first table, a second duel of the same session between two others: the GM's own.
    others = [gm_service.handle({"type": "CreateCharacter", "campaign_id": first["campaign"], "name": name,
                                 "rank": "villano", "stats": SHEET}).key
              for name in ("Bravo", "Sicario")]
    aside = gm_service.handle({"type": "StartDuel", "session_id": first["session"], "ruleset": "rocet",
                               "kind": "relojes", "weapon_type": "Espada",
                               "duelists": [{"character_id": others[0], "side": "a"},
                                            {"character_id": others[1], "side": "b"}]}).key
    db = open_db(app.config["DATABASE"])
    try:
        before = [queries.seat_mark(db, seat) for seat in seats]
        head = queries.log_head(db)
        npc_chooses(gm_service, first["duel"])
        moved = queries.moved_after(db, head)
        assert set(queries.seat_keys(seats[0])) & moved  # the seat's own duel moved: it is woken
        assert not set(queries.seat_keys(seats[1])) & moved  # the other table's seat sleeps on
        after = [queries.seat_mark(db, seat) for seat in seats]
        assert after[0][0] != before[0][0] and after[0][1] > before[0][1]
        assert after[1] == before[1]
        # The GM's own duel beside it moves: the seat at that table is neither woken nor redrawn.
        head = queries.log_head(db)
        gm_service.handle({"type": "Yield", "duel_id": aside, "side": "b",
                           "expected_version": gm_service.version(f"duel-{aside}")})
        assert not set(queries.seat_keys(seats[0])) & queries.moved_after(db, head)
        assert queries.seat_mark(db, seats[0]) == after[0]
    finally:
        db.close()


def test_the_seats_long_poll_answers_within_its_wait_once_its_duel_moves(app, client, gm_service):
    table = setup_duel(gm_service, npc=True)
    seat = issue_seat(client, table["session"], table["people"][0])
    page = app.test_client().get(seat).text
    address = follow_address(page)
    assert "&wait=25" in address and 'hx-trigger="load, follow"' in page and "every" not in page
    waiting = address.replace("wait=25", "wait=10")
    thread, out = in_background(app.test_client().get, waiting)
    time.sleep(0.5)
    assert thread.is_alive()  # held: nothing moved yet
    npc_chooses(gm_service, table["duel"])
    thread.join(timeout=10)
    answer = out["answer"]
    assert answer.status_code == 200 and "Lope has chosen." in answer.text
    assert out["seconds"] < 3  # woken by the watcher, not by the end of the wait
    assert answer.headers["Cache-Control"] == "no-store" and "Retry-After" not in answer.headers
    assert follow_address(answer.text) != address  # the new fragment asks from its own version


def test_a_quiet_seat_is_answered_204_once_its_wait_ends_and_at_once_over_the_caps(app, client, gm_service):
    table = setup_duel(gm_service, npc=True)
    seat = issue_seat(client, table["session"], table["people"][0])
    address = follow_address(app.test_client().get(seat).text).replace("wait=25", "wait=1")
    started = time.monotonic()
    quiet = app.test_client().get(address)
    assert quiet.status_code == 204 and 0.9 < time.monotonic() - started < 5
    app.config["LONG_POLL_SLOTS"] = 0  # every follower's place taken
    started = time.monotonic()
    full = app.test_client().get(address.replace("wait=1", "wait=20"))
    assert full.status_code == 204 and full.headers["Retry-After"] == "1" and time.monotonic() - started < 2


def test_a_seat_revoked_while_it_waits_is_told_at_once(app, client, gm_service):
    table = setup_duel(gm_service, npc=True)
    seat = issue_seat(client, table["session"], table["people"][0])
    address = follow_address(app.test_client().get(seat).text).replace("wait=25", "wait=10")
    thread, out = in_background(app.test_client().get, address)
    time.sleep(0.5)
    link_id = seat_of(app, seat)["link_id"]
    gm_service.handle({"type": "RevokePlayerLink", "link_id": link_id})
    thread.join(timeout=10)
    assert out["answer"].status_code == 404 and out["seconds"] < 3
    assert "data-follow" not in out["answer"].text


def test_the_displays_long_poll_answers_once_the_duel_moves(app, gm_service):
    table = setup_duel(gm_service, npc=True)
    path, link_id = display_link(gm_service, table["duel"])
    page = app.test_client().get(path).text
    address = live(page, waiting=True)
    assert "&wait=25" in address and 'hx-trigger="load, follow"' in page
    thread, out = in_background(app.test_client().get, address.replace("wait=25", "wait=10"))
    time.sleep(0.5)
    assert thread.is_alive()
    gm_service.handle({"type": "ChooseCard", "duel_id": table["duel"], "side": "b",
                       "card": state(gm_service, table["duel"])["sides"]["b"]["hand"][0], "turn": 1})
    thread.join(timeout=10)
    assert out["answer"].status_code == 200 and out["seconds"] < 3
    assert live(out["answer"].text) != live(page)
    # Revoked while it waits: the display says so at once.
    thread, out = in_background(app.test_client().get, live(out["answer"].text, waiting=True))
    time.sleep(0.5)
    gm_service.handle({"type": "RevokePlayerLink", "link_id": link_id})
    thread.join(timeout=10)
    assert out["answer"].status_code == 404 and "revoked" in out["answer"].text and out["seconds"] < 3
