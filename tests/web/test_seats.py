"""Players' seats through the test client: handing them out, the seat page, live polling, and that
a sealed card is in no page, fragment or JSON read before the reveal — the GM's included."""
from __future__ import annotations

import html
import json
import re

import pytest

from tests.integration.test_seats import SHEET
from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tracker.web.links import sign

ASSUMED = ("Estocada Profunda", "Insulto", "Finta")  # named by the assumptions every Rocèt page lists


def setup_duel(gm, npc=False, **setup):
    """A sealed Rocèt duel between Inés (PJ, side A) and Lope (PJ, or a Villano with ``npc``)."""
    campaign = gm.handle({"type": "CreateCampaign", "name": "Season of Steel", "ruleset": "rocet"}).key
    people = [gm.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": rank,
                         "stats": SHEET}).key
              for name, rank in (("Inés", "pj"), ("Lope", "villano" if npc else "pj"))]
    session = gm.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                         "date": "2026-11-29", "title": "Swords at dawn"}).key
    duel = gm.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "kind": "relojes",
                      "cards": "virtual", "weapon_type": "Espada", "choices": "sealed", **setup,
                      "duelists": [{"character_id": people[0], "side": "a"},
                                   {"character_id": people[1], "side": "b"}]}).key
    return {"campaign": campaign, "session": session, "duel": duel, "people": people}


def issue_seat(client, session, character) -> str:
    """The GM makes a seat on the session page: the seat's path, read from the page."""
    answer = client.post(f"/sessions/{session}/seats", data={"character_id": character})
    assert answer.status_code == 302
    page = client.get(f"/sessions/{session}").text
    return [html.unescape(url).removeprefix("http://localhost") for url in
            re.findall(r'value="(http://localhost/seat/[^"]+)"', page)][-1]


def state(gm, duel):
    return gm.state_of(f"duel-{duel}")[1]


def secret_card(gm):
    """A duel where Inés holds a card Lope does not and no page names otherwise: (duel, card)."""
    for _ in range(12):
        duel = setup_duel(gm)
        sides = state(gm, duel["duel"])["sides"]
        found = [c for c in sides["a"]["hand"] if c not in sides["b"]["hand"] and c not in ASSUMED]
        if found:
            return duel, found[0]
    pytest.fail("no shuffle gave a card only Inés holds")


def choose(anonymous, seat, duel, side, card, turn=1, htmx=True, **extra):
    headers = {"HX-Request": "true"} if htmx else {}
    return anonymous.post(f"{seat}/do/ChooseCard", headers=headers,
                          data={"duel_id": duel, "side": side, "card": card, "turn": turn, "command_id": "p1", **extra})


def test_the_session_page_hands_out_a_seat_as_a_link_and_a_qr_code_the_csp_allows(client, gm_service):
    duel = setup_duel(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    page = client.get(f"/sessions/{duel['session']}")
    assert "Players’ seats" in page.text and "Inés" in page.text
    assert re.search(r'<img class="qr" src="data:image/svg\+xml', page.text)
    assert "img-src 'self' data:" in page.headers["Content-Security-Policy"]
    duel_page = client.get(f"/duels/{duel['duel']}").text
    assert seat in html.unescape(duel_page) and 'alt="QR code of Inés’s seat"' in duel_page
    assert "Make a seat" in duel_page  # Lope has none yet


def test_the_seat_shows_its_character_and_its_own_hand_only(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    page = anonymous.get(seat)
    assert page.status_code == 200
    assert "<h1>Inés</h1>" in page.text and "PG" in page.text
    assert "Choose your card for turn 1." in page.text and "Lope is choosing…" in page.text
    hands = state(gm_service, duel["duel"])["sides"]
    for card in hands["a"]["hand"]:
        assert f'name="card" value="{card}"' in page.text
    assert f'value="{hands["b"]["hand"][0]}"' not in page.text or hands["b"]["hand"][0] in hands["a"]["hand"]
    assert "Log out" not in page.text and "Event log" not in page.text  # nothing of the GM's


def test_before_the_reveal_no_page_fragment_or_json_holds_the_sealed_card(client, anonymous, gm_service):
    duel, card = secret_card(gm_service)
    d = duel["duel"]
    seat_a = issue_seat(client, duel["session"], duel["people"][0])
    seat_b = issue_seat(client, duel["session"], duel["people"][1])
    display = client.post(f"/duels/{d}/display-links")
    assert display.status_code in (200, 302)
    recap_link = client.post(f"/sessions/{duel['session']}/recap-links")
    assert recap_link.status_code == 302
    chosen = choose(anonymous, seat_a, d, "a", card)
    assert chosen.status_code == 200 and f"Your card: <strong>{card}</strong>" in chosen.text
    position = gm_service.store.read_stream(f"duel-{d}")[-1].position
    version = gm_service.version(f"duel-{d}")
    db = gm_service.db
    with gm_service.app.app_context():
        display_token = sign(db.execute("SELECT link_id FROM player_links WHERE kind = 'display'").fetchone()[0])
        recap_token = sign(db.execute("SELECT link_id FROM player_links WHERE kind = 'recap'").fetchone()[0])
    reads = {
        "GM duel page": client.get(f"/duels/{d}"),
        "GM duel fragment": client.get(f"/duels/{d}", headers={"HX-Request": "true"}),
        "GM live fragment": client.get(f"/duels/{d}/live?v=0", headers={"HX-Request": "true"}),
        "log": client.get(f"/campaigns/{duel['campaign']}/log"),
        "event page": client.get(f"/events/{position}"),
        "time travel": client.get(f"/duels/{d}/travel?at={version}"),
        "compare": client.get(f"/duels/{d}/compare?a=1&b={version}"),
        "GM recap": client.get(f"/sessions/{duel['session']}/recap.json?audience=gm"),
        "players' recap": anonymous.get(f"/play/{recap_token}/recap"),
        "table display": anonymous.get(f"/play/{display_token}/display"),
        "API duel": client.get(f"/api/duels/{d}"),
        "API log": client.get(f"/api/campaigns/{duel['campaign']}/log"),
        "rival's seat": anonymous.get(seat_b),
        "rival's live seat": anonymous.get(f"{seat_b}/live?v=0"),
    }
    for name, answer in reads.items():
        assert answer.status_code == 200, name
        assert card not in answer.text, f"{name} shows the sealed card"
    assert "Inés has chosen." in reads["GM duel page"].text
    assert "Inés has chosen." in reads["rival's seat"].text
    assert "Inés has chosen a card for turn 1." in reads["log"].text
    stored = re.findall(r'<pre class="data"[^>]*>(.*?)</pre>', reads["event page"].text, re.S)[-1]  # after the metadata
    event = json.loads(stored.replace("&#34;", '"').replace("&quot;", '"'))
    assert event["card"] == "sealed"
    assert reads["API duel"].json["state"]["chosen"] == ["a"]


def test_the_second_choice_reveals_both_and_every_page_follows(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    d = duel["duel"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    hands = state(gm_service, d)["sides"]
    seat_version = re.search(r'/live\?v=([0-9a-f]+)', anonymous.get(seats[1]).text).group(1)
    assert anonymous.get(f"{seats[1]}/live?v={seat_version}").status_code == 204  # nothing moved
    gm_version = gm_service.version(f"duel-{d}")
    assert client.get(f"/duels/{d}/live?v={gm_version}").status_code == 204
    choose(anonymous, seats[0], d, "a", hands["a"]["hand"][0])
    moved = anonymous.get(f"{seats[1]}/live?v={seat_version}")
    assert moved.status_code == 200 and "Inés has chosen." in moved.text
    assert "Inés has chosen." in client.get(f"/duels/{d}/live?v={gm_version}", headers={"HX-Request": "true"}).text
    answer = choose(anonymous, seats[1], d, "b", hands["b"]["hand"][0])
    assert "Revealed — turn 1" in answer.text
    after = state(gm_service, d)
    assert after["turn"] == 1 and after["last_turn"]["cards"] == {"a": hands["a"]["hand"][0],
                                                                     "b": hands["b"]["hand"][0]}
    assert "Revealed — turn 1" in anonymous.get(seats[0]).text


def test_a_double_tap_on_the_seat_appends_once(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    card = state(gm_service, duel["duel"])["sides"]["a"]["hand"][0]
    before = gm_service.version(f"duel-{duel['duel']}")
    for _ in range(2):
        assert choose(anonymous, seat, duel["duel"], "a", card).status_code == 200
    assert gm_service.version(f"duel-{duel['duel']}") == before + 1


def test_each_tap_is_its_own_command_even_back_to_an_earlier_choice(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    first, second = state(gm_service, duel["duel"])["sides"]["a"]["hand"][:2]
    before = gm_service.version(f"duel-{duel['duel']}")
    for tap, card in (("t1", first), ("t2", second), ("t3", first)):  # one drawn page, three taps
        assert choose(anonymous, seat, duel["duel"], "a", card, tap=tap).status_code == 200
    assert gm_service.version(f"duel-{duel['duel']}") == before + 3
    assert state(gm_service, duel["duel"])["sealed"]["a"]["card"] == first  # the last tap holds
    assert choose(anonymous, seat, duel["duel"], "a", first, tap="t3").status_code == 200  # a resent tap
    assert gm_service.version(f"duel-{duel['duel']}") == before + 3


def test_the_npc_is_chosen_on_the_gms_page_under_the_same_sealing(client, anonymous, gm_service):
    duel = setup_duel(gm_service, npc=True)
    d = duel["duel"]
    seat = issue_seat(client, duel["session"], duel["people"][0])
    hands = state(gm_service, d)["sides"]
    page = client.get(f"/duels/{d}").text
    assert "Inés is choosing on their seat…" in page
    for card in set(hands["b"]["hand"]):  # the NPC's hand is the GM's to choose from
        assert f'name="card" value="{card}"' in page
    answer = client.post(f"/duels/{d}/do/ChooseCard", headers={"HX-Request": "true"},
                         data={"side": "b", "card": hands["b"]["hand"][0], "turn": 1, "expected_version": 0})
    assert answer.status_code == 200 and "Lope has chosen." in answer.text
    assert "Lope has chosen." in anonymous.get(seat).text
    choose(anonymous, seat, d, "a", hands["a"]["hand"][0])
    assert state(gm_service, d)["turn"] == 1  # the seat's choice revealed both


def test_a_player_character_is_the_gms_to_choose_for_while_no_live_seat_plays_them(client, anonymous, gm_service):
    """Rocèt's sides go by a live seat, as the other rulesets': a player character with no seat,
    or whose seat was revoked, is chosen for on the GM's page, from their hand; while a seat plays
    them their hand stays on the seat (the GM's page and the API alike)."""
    duel, card = secret_card(gm_service)
    d = duel["duel"]

    def offered():
        page = html.unescape(client.get(f"/duels/{d}").text)
        api = next(a for a in client.get(f"/api/duels/{d}").json["legal_actions"] if a["type"] == "ChooseCard")
        chooser = "".join(re.findall(r'<form[^>]*action="[^"]*/do/ChooseCard"[^>]*>(.*?)</form>', page, re.S))
        sides = set(re.findall(r'<input type="hidden" name="side" value="([ab])"', chooser))
        assert sides == set(api["fields"]["side"]["choices"])
        return page, sides

    page, sides = offered()
    assert sides == {"a", "b"} and "is choosing on their seat" not in page
    assert f'name="card" value="{card}"' in page  # Inés's own card: the GM plays her side
    issue_seat(client, duel["session"], duel["people"][0])
    page, sides = offered()
    assert sides == {"b"} and "Inés is choosing on their seat…" in page and card not in page
    link_id = gm_service.db.execute("SELECT link_id FROM seats ORDER BY rowid").fetchone()[0]
    client.post(f"/sessions/{duel['session']}/seats/{link_id}/revoke")
    page, sides = offered()
    assert sides == {"a", "b"} and "is choosing on their seat" not in page
    answer = client.post(f"/duels/{d}/do/ChooseCard", headers={"HX-Request": "true"},
                         data={"side": "a", "card": card, "turn": 1, "expected_version": gm_service.version(f"duel-{d}")})
    assert answer.status_code == 200 and "Inés has chosen." in answer.text


def test_a_reveal_on_the_gms_press_with_the_tables_dice(client, anonymous, gm_service):
    duel = setup_duel(gm_service, dice_by="table")
    d = duel["duel"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    hands = state(gm_service, d)["sides"]
    for seat, side in zip(seats, "ab"):
        choose(anonymous, seat, d, side, hands[side]["hand"][0])
    assert "Both have chosen — waiting for the GM to reveal." in anonymous.get(seats[0]).text
    page = client.get(f"/duels/{d}").text
    assert "Reveal both cards" in page
    version = gm_service.version(f"duel-{d}")
    refused = client.post(f"/duels/{d}/do/RevealCards", data={"expected_version": version, "dice_a": "6 6"})
    assert refused.status_code == 422 and "type another d8" in refused.text
    client.post(f"/duels/{d}/do/RevealCards", data={"expected_version": version, "dice_a": "6 6", "dice_b": "1 2"})
    assert state(gm_service, d)["last_turn"]["winner"] == "a"


def test_a_seat_cannot_act_for_the_other_side_nor_send_anything_else(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    d = duel["duel"]
    seat = issue_seat(client, duel["session"], duel["people"][0])
    hands = state(gm_service, d)["sides"]
    before = gm_service.version(f"duel-{d}")
    other = choose(anonymous, seat, d, "b", hands["b"]["hand"][0])
    assert other.status_code == 403 and "only its own duelist" in other.text
    for command in ("PlayTurn", "Yield", "RetractEvent", "Abandon", "CreateCharacter"):
        refused = anonymous.post(f"{seat}/do/{command}", data={"duel_id": d, "side": "a"})
        assert refused.status_code == 403, command
    assert anonymous.get(f"/duels/{d}").status_code == 302  # the GM's page: log in first
    assert anonymous.post("/api/commands", json={"type": "ChooseCard"}).status_code == 401
    assert gm_service.version(f"duel-{d}") == before


def test_a_revoked_seat_or_a_closed_session_stops_at_once(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    d = duel["duel"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    hands = state(gm_service, d)["sides"]
    link_id = gm_service.db.execute("SELECT link_id FROM seats ORDER BY rowid").fetchone()[0]
    client.post(f"/sessions/{duel['session']}/seats/{link_id}/revoke")
    assert anonymous.get(seats[0]).status_code == 404
    assert anonymous.get(f"{seats[0]}/live?v=x").status_code == 404
    assert choose(anonymous, seats[0], d, "a", hands["a"]["hand"][0]).status_code == 404
    client.post(f"/sessions/{duel['session']}/close")
    closed = anonymous.get(seats[1])
    assert "This session is closed" in closed.text and "hx-get" not in closed.text and "data-follow" not in closed.text
    assert choose(anonymous, seats[1], d, "b", hands["b"]["hand"][0]).status_code == 403
    assert [r.type for r in gm_service.store.read_stream(f"duel-{d}")].count("RocetCardChosen") == 0


def test_a_forged_seat_token_is_not_found(anonymous):
    assert anonymous.get("/seat/not-a-token").status_code == 404
    assert anonymous.post("/seat/not-a-token/do/ChooseCard", data={}).status_code == 404


# --- Pathfinder 2e: the secret initiative skill and the reaction prompt on the seats -------------

def pf2e_sealed(gm, npc=False):
    from tests.web.test_display import FIGHTER

    campaign = gm.handle({"type": "CreateCampaign", "name": "Absalom Nights", "ruleset": "pf2e"}).key
    people = [gm.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": rank,
                         "stats": {"pf2e": FIGHTER}}).key
              for name, rank in (("Seelah", "pj"), ("Vex", "villano" if npc else "pj"))]
    session = gm.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                         "date": "2026-11-29", "title": "The Grand Bazaar"}).key
    duel = gm.handle({"type": "StartDuel", "session_id": session, "ruleset": "pf2e", "kind": "combat",
                      "victory": "knockout", "choices": "sealed",
                      "duelists": [{"character_id": people[0], "side": "a"},
                                   {"character_id": people[1], "side": "b"}]}).key
    return {"campaign": campaign, "session": session, "duel": duel, "people": people}


def choose_skill(anonymous, seat, duel, who, skill, round_=1):
    return anonymous.post(f"{seat}/do/ChooseSkill", headers={"HX-Request": "true"},
                          data={"duel_id": duel, "duelist": who, "skill": skill, "round": round_, "command_id": "s1"})


def test_pf2e_skills_are_chosen_sealed_on_the_seats_and_the_sidestep_answered_by_the_defender(
        client, anonymous, gm_service):
    duel = pf2e_sealed(gm_service)
    d, (seelah, vex) = duel["duel"], duel["people"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    page = anonymous.get(seats[0]).text
    assert "Choose your secret initiative skill for round 1." in page and "Intimidation +9" in page
    answer = choose_skill(anonymous, seats[0], d, seelah, "intimidation")
    assert "Your skill: <strong>Intimidation</strong>" in answer.text
    reads = [client.get(f"/duels/{d}").text, anonymous.get(seats[1]).text, client.get(f"/api/duels/{d}").text,
             client.get(f"/campaigns/{duel['campaign']}/log").text]
    for text in reads:
        assert "Seelah has chosen" in text or '"chosen"' in text
        assert "Your skill: " not in text and '"skill": "intimidation"' not in text and "Intimidation</strong>" not in text
    assert json.loads(reads[2])["state"]["sealed"] == {seelah: {}}
    other = choose_skill(anonymous, seats[0], d, vex, "deception")
    assert other.status_code == 403 and "only its own duelist" in other.text
    answer = choose_skill(anonymous, seats[1], d, vex, "deception")  # everyone chose: the server rolls
    assert "Revealed — round 1 initiative" in answer.text
    state = gm_service.state_of(f"duel-{d}")[1]
    assert {who: roll["skill"] for who, roll in state["rolls"].items()} == {seelah: "intimidation", vex: "deception"}
    assert "(intimidation)" not in anonymous.get(seats[1]).text  # Vex never learns Seelah's skill
    # The GM logs a Strike on the page; a hit waits for the defender's Deceptive Sidestep on their seat.
    if state["turn"] == vex:  # Vex acts first: the GM ends his turn, and Seelah strikes him
        gm_service.handle({"type": "EndTurn", "duel_id": d, "expected_version": gm_service.version(f"duel-{d}")})
    seat = seats[1]  # Vex rolled Deception: his seat is offered Deceptive Sidestep
    gm_service.handle({"type": "Strike", "duel_id": d, "expected_version": gm_service.version(f"duel-{d}"),
                       "dice_attack": [12]})
    prompt = anonymous.get(seat).text
    assert "Use Deceptive Sidestep?" in prompt
    assert "Sidestep" not in anonymous.get(seats[0]).text  # the attacker's seat learns nothing of it
    used = anonymous.post(f"{seat}/do/DeceptiveSidestep", headers={"HX-Request": "true"},
                          data={"duel_id": d, "server_roll": "true", "command_id": "r1",
                                "expected_version": gm_service.version(f"duel-{d}")})
    assert used.status_code == 200
    assert "Pf2eSidestepUsed" in [r.type for r in gm_service.store.read_stream(f"duel-{d}")]


def test_the_attackers_player_readies_bullying_press_on_the_seat_and_the_gms_strike_declares_it(
        client, anonymous, gm_service):
    duel = pf2e_sealed(gm_service)
    d, (seelah, vex) = duel["duel"], duel["people"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    choose_skill(anonymous, seats[0], d, seelah, "intimidation")
    choose_skill(anonymous, seats[1], d, vex, "intimidation")
    if gm_service.state_of(f"duel-{d}")[1]["turn"] == vex:  # Seelah's turn next
        gm_service.handle({"type": "EndTurn", "duel_id": d, "expected_version": gm_service.version(f"duel-{d}")})
    assert "Ready Bullying Press" in anonymous.get(seats[0]).text
    assert "Bullying Press" not in anonymous.get(seats[1]).text  # the rival learns nothing of it

    def ready(seat, who, command_id):
        return anonymous.post(f"{seat}/do/ReadyReaction", headers={"HX-Request": "true"},
                              data={"duel_id": d, "duelist": who, "reaction": "bullying_press",
                                    "command_id": command_id, "expected_version": gm_service.version(f"duel-{d}")})

    rival = ready(seats[1], seelah, "x1")  # the rival's seat cannot ready it for her
    assert rival.status_code == 403 and "only its own duelist" in rival.text
    out_of_turn = ready(seats[1], vex, "x2")  # nor for its own duelist out of turn
    assert out_of_turn.status_code in (400, 409, 422) and "out of turn" in out_of_turn.text
    answer = ready(seats[0], seelah, "r1")
    assert answer.status_code == 200 and "Withdraw Bullying Press" in answer.text
    gm_page = client.get(f"/duels/{d}").text
    assert "readied <strong>Bullying Press</strong>" in gm_page and 'name="reaction"' not in gm_page
    assert "Bullying Press" not in anonymous.get(seats[1]).text
    withdrawn = anonymous.post(f"{seats[0]}/do/WithdrawReaction", headers={"HX-Request": "true"},
                               data={"duel_id": d, "duelist": seelah, "command_id": "w1",
                                     "expected_version": gm_service.version(f"duel-{d}")})
    assert withdrawn.status_code == 200 and "Ready Bullying Press" in withdrawn.text
    assert 'name="reaction"' in client.get(f"/duels/{d}").text  # the GM's form asks again
    assert ready(seats[0], seelah, "r2").status_code == 200
    gm_service.handle({"type": "Strike", "duel_id": d, "expected_version": gm_service.version(f"duel-{d}"),
                       "dice_attack": [1], "server_roll": True})
    records = gm_service.store.read_stream(f"duel-{d}")
    strike = next(r for r in records if r.type == "Pf2eStrikeRolled")
    assert strike.data["reaction"] == "bullying_press"
    assert [r.type for r in records].count("Pf2eReactionReadied") == 2
    assert "Ready Bullying Press" not in anonymous.get(seats[0]).text  # spent for the round


# --- pirate wit duels: the insult and the words, chosen sealed on the seat ------------------------

WORDS = "You fight like a dairy farmer."


def wit_sealed(gm, npc=False):
    from tests.web.test_pirate_pages import INES, LOPE

    campaign = gm.handle({"type": "CreateCampaign", "name": "Tortuga", "ruleset": "pirate"}).key
    people = [gm.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": rank,
                         "stats": {"pirate": stats}}).key
              for name, rank, stats in (("Inés", "pj", INES), ("Lope", "villano" if npc else "pj", LOPE))]
    session = gm.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                         "date": "2026-11-29", "title": "The tavern"}).key
    duel = gm.handle({"type": "StartDuel", "session_id": session, "ruleset": "pirate", "kind": "wit",
                      "choices": "sealed", "exchanges": 3,
                      "duelists": [{"character_id": people[0], "side": "a"},
                                   {"character_id": people[1], "side": "b"}]}).key
    return {"campaign": campaign, "session": session, "duel": duel, "people": people}


def choose_insult(anonymous, seat, duel, side, insult, line=""):
    return anonymous.post(f"{seat}/do/ChooseInsult", headers={"HX-Request": "true"},
                          data={"duel_id": duel, "side": side, "insult": insult, "line": line, "round": 1,
                                "command_id": "w1"})


def test_a_wit_exchange_chosen_on_the_seats_quotes_the_words_only_once_thrown(client, anonymous, gm_service):
    duel = wit_sealed(gm_service)
    d = duel["duel"]
    seats = [issue_seat(client, duel["session"], who) for who in duel["people"]]
    display = client.post(f"/duels/{d}/display-links")
    assert display.status_code in (200, 302)
    with gm_service.app.app_context():
        token = sign(gm_service.db.execute("SELECT link_id FROM player_links WHERE kind = 'display'").fetchone()[0])
    page = anonymous.get(seats[0]).text
    assert "Choose your insult for exchange 1." in page and 'value="Burla ingeniosa"' in page
    chosen = choose_insult(anonymous, seats[0], d, "a", "Burla ingeniosa", WORDS)
    assert "Your insult: <strong>Burla ingeniosa</strong>" in chosen.text and WORDS in chosen.text
    for text in (client.get(f"/duels/{d}").text, anonymous.get(seats[1]).text, client.get(f"/api/duels/{d}").text,
                 client.get(f"/campaigns/{duel['campaign']}/log").text, anonymous.get(f"/play/{token}/display").text,
                 client.get(f"/sessions/{duel['session']}/recap.md?audience=gm").text):
        assert WORDS not in text and "Your insult: " not in text
    assert "Inés has chosen." in anonymous.get(seats[1]).text
    thrown = choose_insult(anonymous, seats[1], d, "b", "Insulto directo")
    assert thrown.status_code == 200 and "Revealed — exchange 1" in thrown.text
    quoted = f"“{WORDS}”"
    assert quoted in html.unescape(client.get(f"/campaigns/{duel['campaign']}/log").text)
    assert quoted in html.unescape(anonymous.get(f"/play/{token}/display").text)
    assert quoted in client.get(f"/sessions/{duel['session']}/recap.md?audience=players").text


@pytest.mark.parametrize("dice_by", ["server", "seats", "table"])
def test_the_gms_page_offers_the_npcs_choice_under_every_dice_setting(client, anonymous, gm_service, dice_by):
    wit = wit_sealed(gm_service, npc=True)
    gm_service.handle({"type": "Abandon", "duel_id": wit["duel"], "expected_version": gm_service.version(f"duel-{wit['duel']}")})
    wit["duel"] = gm_service.handle({"type": "StartDuel", "session_id": wit["session"], "ruleset": "pirate", "kind": "wit",
                                     "choices": "sealed", "dice_by": dice_by, "reveal": "gm",
                                     "duelists": [{"character_id": wit["people"][0], "side": "a"},
                                                  {"character_id": wit["people"][1], "side": "b"}]}).key
    issue_seat(client, wit["session"], wit["people"][0])  # Inés plays on her phone (without a seat, the GM would)
    page = client.get(f"/duels/{wit['duel']}").text
    assert "Inés is choosing on their seat…" in page and 'name="insult" value="Provocación"' in page
    assert ('name="dice"' in page) == (dice_by == "seats")
    fight = pf2e_sealed(gm_service, npc=True)
    gm_service.handle({"type": "Abandon", "duel_id": fight["duel"], "expected_version": gm_service.version(f"duel-{fight['duel']}")})
    duel = gm_service.handle({"type": "StartDuel", "session_id": fight["session"], "ruleset": "pf2e", "kind": "combat",
                              "victory": "knockout", "choices": "sealed", "dice_by": dice_by,
                              "duelists": [{"character_id": fight["people"][0], "side": "a"},
                                           {"character_id": fight["people"][1], "side": "b"}]}).key
    seat = issue_seat(client, fight["session"], fight["people"][0])
    page = client.get(f"/duels/{duel}").text
    assert "Seelah is choosing on their seat…" in page and 'name="skill" value="deception"' in page
    assert ('name="dice_roll"' in page) == (dice_by == "seats")
    assert ('name="dice_roll"' in anonymous.get(seat).text) == (dice_by == "seats")


def test_every_seat_answer_says_no_store(client, anonymous, gm_service):
    """A seat's page holds its hand and sealed choice: no cache may keep it (the page, a tap's answer,
    a refusal, the poll)."""
    duel = setup_duel(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    card = state(gm_service, duel["duel"])["sides"]["a"]["hand"][0]
    answers = {"page": anonymous.get(seat),
               "tap (htmx)": choose(anonymous, seat, duel["duel"], "a", card),
               "refused tap": choose(anonymous, seat, duel["duel"], "b", card, command_id="p2"),
               "poll": anonymous.get(f"{seat}/live", headers={"HX-Request": "true"})}
    for name, answer in answers.items():
        assert answer.headers.get("Cache-Control") == "no-store", name


# --- while a seat plays a side, the GM does not choose for it; an explicit take-over hands it back ---

def gm_choice(client, kind, d, **fields):
    return client.post(f"/duels/{d}/do/{kind}", headers={"HX-Request": "true"}, data={"duel_id": d, **fields})


def test_the_gm_cannot_make_a_seated_sides_choice_in_any_ruleset(client, anonymous, gm_service):
    rocet = setup_duel(gm_service)
    issue_seat(client, rocet["session"], rocet["people"][0])
    card = state(gm_service, rocet["duel"])["sides"]["a"]["hand"][0]
    pf2e = pf2e_sealed(gm_service)
    issue_seat(client, pf2e["session"], pf2e["people"][0])
    wit = wit_sealed(gm_service)
    issue_seat(client, wit["session"], wit["people"][0])
    tries = [(rocet, "ChooseCard", {"side": "a", "card": card, "turn": 1}, "Inés"),
             (pf2e, "ChooseSkill", {"duelist": pf2e["people"][0], "skill": "intimidation", "round": 1}, "Seelah"),
             (wit, "ChooseInsult", {"side": "a", "insult": "Burla ingeniosa", "round": 1}, "Inés")]
    for duel, kind, fields, name in tries:
        d = duel["duel"]
        before = gm_service.version(f"duel-{d}")
        refused = gm_choice(client, kind, d, expected_version=before, **fields)
        assert refused.status_code in (403, 422), kind
        assert f"{name} plays this side from their seat; take over the seat to act for them" in refused.text, kind
        api = client.post("/api/commands", json={"type": kind, "duel_id": d, "expected_version": before, **fields})
        assert api.status_code in (403, 422), kind
        assert gm_service.version(f"duel-{d}") == before, kind


def test_a_pf2e_seat_cannot_choose_for_its_partner(client, anonymous, gm_service):
    from tests.web.test_display import FIGHTER

    duel = pf2e_sealed(gm_service)
    partner, rival = [gm_service.handle({"type": "CreateCharacter", "campaign_id": duel["campaign"], "name": name,
                                         "rank": "pj", "stats": {"pf2e": FIGHTER}}).key for name in ("Amiri", "Kyra")]
    gm_service.handle({"type": "Abandon", "duel_id": duel["duel"],
                       "expected_version": gm_service.version(f"duel-{duel['duel']}")})
    d = gm_service.handle({"type": "StartDuel", "session_id": duel["session"], "ruleset": "pf2e", "kind": "combat",
                           "victory": "knockout", "choices": "sealed", "teams": "together",
                           "duelists": [{"character_id": duel["people"][0], "side": "a"},
                                        {"character_id": partner, "side": "a"},
                                        {"character_id": duel["people"][1], "side": "b"},
                                        {"character_id": rival, "side": "b"}]}).key
    seat = issue_seat(client, duel["session"], duel["people"][0])
    issue_seat(client, duel["session"], partner)
    before = gm_service.version(f"duel-{d}")
    refused = choose_skill(anonymous, seat, d, partner, "deception")
    assert refused.status_code == 403 and "only its own duelist" in refused.text
    assert gm_service.version(f"duel-{d}") == before
    assert choose_skill(anonymous, seat, d, duel["people"][0], "deception").status_code == 200


def test_while_a_seats_insult_is_sealed_the_gm_cannot_roll_initiative_past_it(client, anonymous, gm_service):
    duel = wit_sealed(gm_service)
    d = duel["duel"]
    seat = issue_seat(client, duel["session"], duel["people"][0])
    assert choose_insult(anonymous, seat, d, "a", "Humillación").status_code == 200
    version = gm_service.version(f"duel-{d}")
    rolled = client.post(f"/duels/{d}/do/RollInitiative",
                         data={"expected_version": version, "dice_a": "19", "dice_b": "2"})
    assert 400 <= rolled.status_code < 500 and "chooses its insult in secret" in html.unescape(rolled.text)
    insulted = client.post(f"/duels/{d}/do/Insult", data={"expected_version": version, "side": "a",
                                                          "insult": "Provocación"})
    assert 400 <= insulted.status_code < 500 and "chooses its insult in secret" in html.unescape(insulted.text)
    assert "chose Humillación" not in html.unescape(insulted.text)
    assert gm_service.version(f"duel-{d}") == version


def test_taking_over_a_seat_hands_the_side_to_the_gm_and_the_phone_says_so(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    d = duel["duel"]
    seat = issue_seat(client, duel["session"], duel["people"][0])
    card = state(gm_service, d)["sides"]["a"]["hand"][0]
    before = gm_service.version(f"duel-{d}")
    assert gm_choice(client, "ChooseCard", d, side="a", card=card, turn=1, expected_version=before).status_code == 403
    nobody = client.post("/api/commands", json={"type": "TakeOverSeat", "duel_id": d, "side": "b"})
    assert nobody.status_code == 422 and "no player's seat plays this side" in nobody.text  # Lope has no seat
    taken = client.post("/api/commands", json={"type": "TakeOverSeat", "duel_id": d, "side": "a"})
    assert taken.status_code in (200, 201), taken.text
    assert state(gm_service, d)["taken_over"] == ["a"]
    again = client.post("/api/commands", json={"type": "TakeOverSeat", "duel_id": d, "side": "a"})
    assert again.status_code == 422 and "the GM already plays this side" in again.text
    log = html.unescape(client.get(f"/campaigns/{duel['campaign']}/log").text)
    assert "The GM took over Inés's seat" in log
    assert "El DJ ha tomado el asiento de Inés" in html.unescape(client.get(f"/campaigns/{duel['campaign']}/log?lang=es").text)
    page = anonymous.get(seat)
    assert "The GM took over your seat in" in page.text and f"/do/ChooseCard" not in page.text
    assert "El DJ ha tomado tu asiento en" in anonymous.get(f"{seat}?lang=es").text
    tapped = choose(anonymous, seat, d, "a", card)
    assert tapped.status_code == 403 and "el DJ ha tomado tu asiento en este duelo" in tapped.text  # the phone chose Spanish
    version = gm_service.version(f"duel-{d}")
    chosen = gm_choice(client, "ChooseCard", d, side="a", card=card, turn=1, expected_version=version)
    assert chosen.status_code == 200, chosen.text
    assert gm_service.version(f"duel-{d}") == version + 1  # the GM's choice for the side is appended


def test_retracting_a_take_over_gives_the_side_back_to_the_seat(client, anonymous, gm_service):
    duel = setup_duel(gm_service)
    d = duel["duel"]
    seat = issue_seat(client, duel["session"], duel["people"][0])
    gm_service.handle({"type": "TakeOverSeat", "duel_id": d, "side": "a"})
    position = gm_service.db.execute("SELECT position FROM events WHERE type = 'DuelSeatTakenOver'").fetchone()[0]
    gm_service.handle({"type": "RetractEvent", "position": position, "reason": "the player came back",
                       "expected_version": gm_service.version(f"duel-{d}")})
    assert not state(gm_service, d).get("taken_over")
    card = state(gm_service, d)["sides"]["a"]["hand"][0]
    assert choose(anonymous, seat, d, "a", card).status_code == 200


def test_the_gms_page_says_who_decides_on_their_phone_and_offers_the_take_over(client, anonymous, gm_service):
    duel = setup_duel(gm_service, npc=True)
    d = duel["duel"]
    seat = issue_seat(client, duel["session"], duel["people"][0])
    page = html.unescape(client.get(f"/duels/{d}").text)
    assert "Inés decides on their phone." in page and "Take over this seat" in page
    assert "Inés decide en su móvil." in html.unescape(client.get(f"/duels/{d}?lang=es").text)
    read = client.get(f"/api/duels/{d}").get_json()
    assert not [a for a in read["legal_actions"] if a["type"] == "ChooseCard" and a["side"] == "a"]
    assert [a for a in read["legal_actions"] if a["type"] == "ChooseCard" and a["side"] == "b"]  # Lope, the NPC, is the GM's
    taken = client.post(f"/duels/{d}/take-over", data={"side": "a"}, headers={"HX-Request": "true"})
    assert taken.status_code == 200 and "You make this side&#39;s choices now." in taken.text
    assert "decides on their phone" not in taken.text
    read = client.get(f"/api/duels/{d}").get_json()
    choose_card = next(a for a in read["legal_actions"] if a["type"] == "ChooseCard")
    assert choose_card["fields"]["side"]["choices"] == ["a", "b"]  # the GM chooses for Inés now too
    assert "The GM took over your seat" in anonymous.get(seat).text
