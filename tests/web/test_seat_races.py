"""A seat that reads its page while the duel moves (issue 33, item 4): the phone must never be
left showing an older page than its version says, or its polls answer 204 for good."""
from __future__ import annotations

import re

from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import issue_seat, setup_duel, state
from tracker.projections import queries


def test_a_move_while_the_seat_reads_its_page_is_drawn_by_the_next_poll(client, anonymous, gm_service, monkeypatch):
    duel = setup_duel(gm_service, npc=True)
    d = duel["duel"]
    seat = issue_seat(client, duel["session"], duel["people"][0])
    first = anonymous.get(seat).text
    assert "Lope is choosing…" in first
    card = state(gm_service, d)["sides"]["b"]["hand"][0]
    read = queries.running_duels_of

    def read_then_the_npc_chooses(db, session_id, character_id):
        # The race made certain: the seat has read the duel, then the GM's choice lands.
        rows = read(db, session_id, character_id)
        monkeypatch.setattr(queries, "running_duels_of", read)
        gm_service.handle({"type": "ChooseCard", "duel_id": d, "side": "b", "card": card, "turn": 1})
        return rows

    monkeypatch.setattr(queries, "running_duels_of", read_then_the_npc_chooses)
    raced = anonymous.get(seat).text
    version = re.search(r'/live\?v=([0-9a-f]+)', raced).group(1)
    polled = anonymous.get(f"{seat}/live?v={version}")
    assert polled.status_code == 200 and "Lope has chosen." in polled.text
    stamps = [int(re.search(r'data-stamp="(\d+)"', page).group(1)) for page in (first, polled.text)]
    assert stamps[1] > stamps[0]  # the newer page says so: a phone keeps it over an older poll


def test_both_phones_see_how_the_duel_ended_until_the_next_one_starts(client, anonymous, gm_service):
    """Issue 33, item 3: the end reached the phones as "no duel right now"."""
    duel = setup_duel(gm_service)
    d = duel["duel"]
    seats = [issue_seat(client, duel["session"], person) for person in duel["people"]]
    assert client.post(f"/duels/{d}/do/Yield", data={"side": "b", "expected_version": gm_service.version(f"duel-{d}")}
                       ).status_code == 302
    winner, loser = (anonymous.get(seat).text for seat in seats)
    assert "You won the duel!" in winner and "The duel is over: you lost." in loser
    assert "Waiting for the GM" not in loser  # an ended duel waits for nobody
    spanish = anonymous.get(f"{seats[0]}?lang=es").text
    assert "¡Has ganado el duelo!" in spanish
    next_duel = gm_service.handle({
        "type": "StartDuel", "session_id": duel["session"], "ruleset": "rocet", "kind": "relojes",
        "weapon_type": "Espada", "choices": "sealed",
        "duelists": [{"character_id": duel["people"][0], "side": "a"}, {"character_id": duel["people"][1], "side": "b"}]})
    assert next_duel.key
    assert "You won the duel!" not in anonymous.get(seats[0]).text  # the next duel replaces it


def test_a_players_sealed_tap_while_the_gm_fills_a_form_does_not_make_it_stale(client, anonymous, gm_service):
    """Issue 33, item 5: the seat's reaction readied under the GM's open form gave the GM a 409."""
    from tests.web.test_seats import choose_skill, pf2e_sealed

    duel = pf2e_sealed(gm_service)
    d, (seelah, vex) = duel["duel"], duel["people"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    choose_skill(anonymous, seats[0], d, seelah, "intimidation")
    choose_skill(anonymous, seats[1], d, vex, "intimidation")
    if state(gm_service, d)["turn"] == vex:
        gm_service.handle({"type": "EndTurn", "duel_id": d, "expected_version": gm_service.version(f"duel-{d}")})
    drawn = gm_service.version(f"duel-{d}")  # the GM's Strike form is drawn at this version
    readied = anonymous.post(f"{seats[0]}/do/ReadyReaction", headers={"HX-Request": "true"},
                             data={"duel_id": d, "duelist": seelah, "reaction": "bullying_press", "command_id": "r1",
                                   "expected_version": drawn})
    assert readied.status_code == 200
    struck = client.post(f"/duels/{d}/do/Strike", data={"expected_version": drawn, "dice_attack": "1",
                                                         "server_roll": "true"})
    assert struck.status_code in (200, 302), struck.text
    strike = next(r for r in gm_service.store.read_stream(f"duel-{d}") if r.type == "Pf2eStrikeRolled")
    assert strike.data["reaction"] == "bullying_press"  # decided on the state as it now stands
    stale = client.post(f"/duels/{d}/do/EndTurn", data={"expected_version": drawn})
    assert stale.status_code == 409  # the GM's own move since: that form is stale, and says so
