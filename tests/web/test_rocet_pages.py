"""The Rocèt duel page through the test client: every variant, both card modes, refusals
next to their field, the htmx fragment, the public view, the JSON API, and retractions."""
import re

import pytest
from flask import render_template

from tracker import rules
from tracker.bootstrap.db import open_db
from tracker.projections import schema
from tracker.projections.rebuild import rebuild
from tracker.eventstore.store import EventStore
from tests.conftest import count_events

rocet = rules.get("rocet")
EA, EP, TC = "Estocada Alta", "Estocada Profunda", "Tajo Circular"
FINTA, TRETA, INSULTO = "Finta", "Treta", "Insulto"
ATTACKS = (EA, EP, TC)


# --- a table at the tracker --------------------------------------------------------------

def start(client, pg_b="20", **setup):
    """A campaign, Inés (side A) and Lope (side B), a session and a Rocèt duel: its id."""
    campaign = client.post("/campaigns", data={"name": "Season of Steel", "ruleset": "rocet"})
    campaign = campaign.headers["Location"].rsplit("/", 1)[1]
    people = []
    for name, pg, weapon in (("Inés", "20", "Ropera | Espada | 3"), ("Lope", pg_b, "Sable | Espada | 2")):
        made = client.post(f"/campaigns/{campaign}/characters", data={
            "name": name, "rank": "pj", "rocet.des": "d8", "rocet.int": "d8", "rocet.pg_max": pg,
            "rocet.pm_max": "10", "rocet.weapons": weapon})
        assert made.status_code == 302, made.text
        people.append(made.headers["Location"].rsplit("/", 1)[1])
    session = client.post(f"/campaigns/{campaign}/sessions",
                          data={"number": "1", "date": "2026-11-29", "title": "Dawn"})
    session = session.headers["Location"].rsplit("/", 1)[1]
    terms = {"ruleset": "rocet", "side_a": people[0], "side_b": people[1], "weapon_type": "Espada",
             "stakes": "the ship", "challenger": "a", **setup}
    duel = client.post(f"/sessions/{session}/duels", data=terms)
    assert duel.status_code == 302, duel.text
    return duel.headers["Location"].rsplit("/", 1)[1]


def current(client, duel):
    return client.get(f"/api/duels/{duel}").json


def act(client, duel, command, htmx=False, **data):
    """Post one action form as the page does, at the duel's current version."""
    data.setdefault("expected_version", current(client, duel)["version"])
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/duels/{duel}/do/{command}", data=data, headers=headers)


def page(client, duel):
    return client.get(f"/duels/{duel}").text


def forms(html):
    """The commands the page offers a form for."""
    return re.findall(r'action="/duels/\w+/do/(\w+)"', html)


def hand(client, duel, side):
    return current(client, duel)["state"]["sides"][side]["hand"]


def attack_in(cards):
    return next(card for card in cards if card in ATTACKS)


# --- a whole clock duel with typed dice ----------------------------------------------------

def test_a_clock_duel_with_physical_cards_shows_the_numbers_after_each_action(app, client):
    duel = start(client, kind="relojes", clock_size="3", cards="physical")
    html = page(client, duel)
    assert "Clock 0/3" in html and "Hand: 3 cards" in html and "Shared deck: 30 in the pile" in html
    assert forms(html)[0] == "PlayTurn"
    assert html.count('name="card_a"') == 6 and html.count('name="card_b"') == 6  # all six kinds

    # Finta beats Treta: Inés rolls 3+2 +4 = 9 against 4+4 = 8, wins; Lope must discard.
    assert act(client, duel, "PlayTurn", card_a=FINTA, card_b=TRETA, dice_a="3 2", dice_b="4 4").status_code == 302
    html = page(client, duel)
    assert "Clock 1/3" in html and "Ventaja +4" in html and "3+2 +4 = <strong>9</strong>" in html
    assert "4+4 = <strong>8</strong>" in html
    assert "Turn 1: Inés plays Finta (Ventaja +4 vs Treta), Lope plays Treta; 9 (3+2 +4) vs 8 (4+4)" in html
    assert forms(html)[0] == "Discard" and "PlayTurn" not in forms(html)
    assert "Lope discards a card of their choice" in html

    act(client, duel, "Discard", side="b", card=TC)
    html = page(client, duel)
    assert "Lope discards Tajo Circular (shown): 2 cards in hand." in html
    assert re.search(r"Lope.*?Hand: 2 cards", html, re.S)

    # Tajo Circular beats Estocada Profunda: 5+2 +4 = 11 against 3+3 = 6 completes the clock.
    act(client, duel, "PlayTurn", card_a=TC, card_b=EP, dice_a="5 2", dice_b="3 3", server_roll="false")
    html = page(client, duel)
    assert "Clock 3/3" in html
    assert forms(html)[:2] == ["DealDamage", "DeclineDamage"] and "PlayTurn" not in forms(html)
    assert "Deal 8 PG damage" in html and "TA 5 + Sable" not in html and "TA 5 + Ropera 3" in html
    assert "Then Inés wins the duel." in html

    act(client, duel, "DealDamage", source="attack")
    html = page(client, duel)
    assert "PG 12/20" in html and "Inés won by clock" in html
    assert forms(html) == []
    assert current(client, duel)["status"] == "over"


def test_ties_are_rerolled_and_criticals_and_fumbles_are_named(client):
    duel = start(client, kind="relojes", cards="physical")
    # Two criticals tie, then a fumble for Lope.
    act(client, duel, "PlayTurn", card_a=EA, card_b=EA, dice_a="6 6 4 4", dice_b="7 7 1 1")
    html = page(client, duel)
    assert "critical" in html and "fumble" in html and "(tie, rerolled)" in html
    assert "after ties rerolled: 12 (6+6 critical) vs 14 (7+7 critical)" in html


def test_a_tie_typed_alone_is_logged_and_the_page_offers_the_reroll(client):
    duel = start(client, kind="relojes", cards="physical")
    assert act(client, duel, "PlayTurn", card_a=EA, card_b=EA, dice_a="3 3", dice_b="3 3").status_code == 302
    html = page(client, duel)
    assert "the opposed roll ties" in html and forms(html)[0] == "RerollTie"
    assert "PlayTurn" not in forms(html)
    act(client, duel, "RerollTie", dice_a="5 4", dice_b="2 3")
    html = page(client, duel)
    assert "RerollTie" not in forms(html) and "PlayTurn" in forms(html)
    assert current(client, duel)["state"]["sides"]["a"]["clock"] == 2


# --- refusals, fragments, conflicts ---------------------------------------------------------

def test_a_refused_turn_says_why_next_to_the_field_keeps_the_choice_and_appends_nothing(app, client):
    duel = start(client, cards="physical")
    before = count_events(app)
    response = act(client, duel, "PlayTurn", card_a=FINTA, card_b=TRETA, dice_a="9 2", dice_b="1 1")
    assert response.status_code == 422
    assert re.search(r'id="e-dice_a">a d8 cannot show 9', response.text)
    assert re.search(r'value="Finta" checked', response.text)  # the choice is kept
    assert re.search(r'<details class="rocet-typed" open>', response.text)  # with the typed dice
    assert 'value="9 2"' in response.text
    assert count_events(app) == before

    missing = act(client, duel, "PlayTurn", card_a=FINTA, server_roll="true")
    assert missing.status_code == 422 and re.search(r'id="e-card_b">is required', missing.text)
    no_dice = act(client, duel, "PlayTurn", card_a=FINTA, card_b=TRETA, dice_a="3", server_roll="false")
    assert re.search(r'id="e-dice_a">type another d8 for INT, Inés&#39;s roll, or let the server roll',
                     no_dice.text)
    assert count_events(app) == before


def test_virtual_cards_offer_only_the_hand_and_refuse_a_card_not_held(app, client):
    duel = start(client, kind="relojes", cards="virtual")
    held_a, held_b = hand(client, duel, "a"), hand(client, duel, "b")
    html = page(client, duel)
    assert html.count('name="card_a"') == len(set(held_a))
    for card in held_a:
        assert f'name="card_a" value="{card}"' in html
    missing = next(card for card in rocet.CARDS if card not in held_a)
    before = count_events(app)
    refused = act(client, duel, "PlayTurn", card_a=missing, card_b=held_b[0], server_roll="true")
    assert refused.status_code == 422
    assert 'id="e-card_a">that card is not in Inés&#39;s hand' in refused.text  # the hand is not listed
    assert count_events(app) == before

    played = act(client, duel, "PlayTurn", card_a=held_a[0], card_b=held_b[0], server_roll="true")
    assert played.status_code == 302
    state = current(client, duel)["state"]
    assert state["turn"] == 1 and len(state["last_turn"]["rolls"]) >= 1
    assert "Turn 1:" in page(client, duel)


def test_an_action_returns_the_fragment_to_htmx_and_redirects_otherwise(client):
    duel = start(client, cards="physical")
    fragment = act(client, duel, "PlayTurn", htmx=True, card_a=INSULTO, card_b=FINTA, dice_a="4 4",
                   dice_b="1 2")
    assert fragment.status_code == 200
    text = fragment.text.lstrip()
    assert text.startswith('<div id="duel"') and "<html" not in text
    assert "/static/rocet.css" in text and "Turn 1: <strong>Inés wins</strong>" in text
    assert "PM 6/10" in text  # Insulto: Lope takes TA 4 as PM damage
    full = client.get(f"/duels/{duel}")
    assert "<html" in full.text and '<div id="duel"' in full.text
    assert act(client, duel, "PlayTurn", card_a=EA, card_b=EA, server_roll="true").status_code == 302


def test_a_stale_form_is_a_conflict_and_nothing_is_logged(app, client):
    duel = start(client, cards="physical")
    version = current(client, duel)["version"]
    act(client, duel, "PlayTurn", card_a=EA, card_b=EA, server_roll="true")
    before = count_events(app)
    stale = act(client, duel, "PlayTurn", htmx=True, card_a=EA, card_b=EA, server_roll="true",
                expected_version=version)
    assert stale.status_code == 409 and "changed since you opened it" in stale.text
    assert count_events(app) == before


# --- every variant ------------------------------------------------------------------------

def test_primera_sangre_with_virtual_cards_ends_on_the_first_attack_won(client):
    duel = start(client, kind="primera_sangre", cards="virtual")
    card = attack_in(hand(client, duel, "a"))
    act(client, duel, "PlayTurn", card_a=card, card_b=hand(client, duel, "b")[0], dice_a="8 7", dice_b="1 2")
    html = page(client, duel)
    assert "Clock" not in html.split('class="rocet-last')[0]  # no clocks in this variant
    assert forms(html)[:2] == ["DealDamage", "DeclineDamage"]
    act(client, duel, "DeclineDamage")
    html = page(client, duel)
    assert "Inés won by first blood" in html and "chooses not to deal the damage" in html
    assert "PG 20/20" in html


@pytest.mark.parametrize("cards", ["physical", "virtual"])
def test_superioridad_draws_the_shared_meter_as_segments(client, cards):
    duel = start(client, kind="superioridad", meter_steps="2", cards=cards)
    pick = (lambda side, wanted: wanted) if cards == "physical" else (
        lambda side, wanted: wanted if wanted in hand(client, duel, side) else hand(client, duel, side)[0])
    html = page(client, duel)
    assert "Superiority at the middle" in html and html.count('class="seg"') == 4
    # Lope wins an attack: the meter moves 2 toward him, his end: he wins.
    act(client, duel, "PlayTurn", card_a=pick("a", FINTA), card_b=pick("b", TC), dice_a="1 2", dice_b="8 7")
    html = page(client, duel)
    assert 'aria-valuenow="-2"' in html and html.count("seg on on-b") == 2
    assert "Superiority 2/2 toward Lope" in html
    if "DealDamage" in forms(html):
        act(client, duel, "DealDamage")
        assert "Lope won by superiority" in page(client, duel)


def test_a_muerte_with_own_decks_ends_only_by_a_confirmed_death(client):
    duel = start(client, pg_b="5", kind="a_muerte", deck="own", cards="virtual")
    html = page(client, duel)
    assert "Clock 0/4" in html and "Own deck: 15 in the pile" in html
    card = attack_in(hand(client, duel, "a"))
    act(client, duel, "PlayTurn", card_a=card, card_b=hand(client, duel, "b")[0], dice_a="8 7", dice_b="1 2")
    html = page(client, duel)
    assert "Clock 2/4" in html and "Deal 11 PG damage" in html  # TA 8 + Ropera 3
    act(client, duel, "DealDamage", source="attack")
    html = page(client, duel)
    assert "Lope is at 0 PG: unconscious or dead?" in html and "PG 0/5" in html
    assert forms(html)[0] == "ConfirmDeath" and "ConfirmUnconscious" not in forms(html)
    act(client, duel, "ConfirmDeath")
    html = page(client, duel)
    assert "Inés won by death (Lope died)" in html and "dead</small>" in html


def test_a_duelist_at_0_pg_can_be_confirmed_unconscious_in_a_clock_duel(client):
    duel = start(client, pg_b="5", cards="physical")
    act(client, duel, "PlayTurn", card_a=EP, card_b=EA, dice_a="8 7", dice_b="1 2")
    html = page(client, duel)
    assert "Optional: playing the next turn records it as declined." in html
    assert forms(html)[:3] == ["DealDamage", "DeclineDamage", "PlayTurn"]
    act(client, duel, "DealDamage")
    html = page(client, duel)
    assert forms(html)[:2] == ["ConfirmUnconscious", "ConfirmDeath"]
    act(client, duel, "ConfirmUnconscious")
    assert "Inés won by unconscious (Lope fell unconscious)" in page(client, duel)


@pytest.mark.parametrize("command, data, summary", [
    ("Yield", {"side": "b", "detail": "¡Me rindo!"}, "Inés won by yield (Lope yielded)"),
    ("Disqualify", {"side": "a", "reason": "poison on the blade"},
     "Lope won by disqualification (Inés disqualified: poison on the blade)"),
    ("Abandon", {"reason": "the watch arrived"}, "abandoned"),
])
def test_the_rare_endings_sit_in_a_collapsed_details(client, command, data, summary):
    duel = start(client, cards="physical")
    html = page(client, duel)
    endings = html.split('<details class="rocet-endings">', 1)[1].split("</details>", 1)[0]
    assert set(forms(endings)) == {"Yield", "Disqualify", "Abandon"}
    assert act(client, duel, command, **data).status_code == 302
    assert summary in page(client, duel)


def test_a_refused_ending_opens_its_details_with_the_reason(client):
    duel = start(client, cards="physical")
    response = act(client, duel, "Yield")
    assert response.status_code == 422
    assert '<details class="rocet-endings" open>' in response.text
    assert re.search(r'id="e-side">is required', response.text)


# --- what the page always shows ------------------------------------------------------------

def test_the_page_lists_every_assumption_the_duel_runs_under(client):
    duel = start(client, kind="a_muerte", cards="physical", reshuffle="false", restart="carry")
    html = page(client, duel)
    listed = html.split("Assumptions in force", 1)[1]
    for assumption in rocet.assumptions(current(client, duel)["state"]):
        assert assumption.replace("'", "&#39;") in listed


def test_the_public_view_shows_no_hands_and_no_forms(app, client):
    duel = start(client, cards="virtual")
    act(client, duel, "PlayTurn", card_a=hand(client, duel, "a")[0], card_b=hand(client, duel, "b")[0],
        server_roll="true")
    state = current(client, duel)["state"]
    with app.test_request_context():
        shown = render_template("duels/rocet/_state.html", state=rocet.public(state), public_view=True,
                                ruleset=rocet, duel={"id": duel}, actions=[], errors={}, failed=None, form={})
        none = render_template("duels/rocet/_actions.html", state=rocet.public(state), public_view=True,
                               ruleset=rocet, duel={"id": duel, "version": 1}, actions=rocet.actions(state),
                               errors={}, failed=None, form={})
    assert "Hand: 3 cards" in shown and '<ul class="hand">' not in shown and "<form" not in shown
    assert "Turn 1:" in shown and "<form" not in none


# --- the JSON API ---------------------------------------------------------------------------

def test_a_whole_duel_through_the_json_api(client):
    def send(**command):
        response = client.post("/api/commands", json=command)
        assert response.status_code == 201, response.json
        return response.json

    campaign = send(type="CreateCampaign", name="Season of Steel", ruleset="rocet")["id"]
    people = [send(type="CreateCharacter", campaign_id=campaign, name=name, rank=rank,
                   stats={"rocet": {"des": "d8", "int": "d6", "pg_max": 20, "pm_max": 10,
                                    "weapons": [{"name": weapon, "type": "Espada", "damage": 2}]}})["id"]
              for name, rank, weapon in (("Inés", "pj", "Ropera"), ("Lope", "villano", "Sable"))]
    session = send(type="PlanSession", campaign_id=campaign, number=1, date="2026-11-29", title="Dawn")["id"]
    started = send(type="StartDuel", session_id=session, ruleset="rocet", kind="relojes", clock_size=2,
                   cards="physical", weapon_type="Espada",
                   duelists=[{"character_id": people[0], "side": "a"}, {"character_id": people[1], "side": "b"}])
    duel, version = started["id"], started["version"]

    def turn(**command):
        nonlocal version
        answer = send(type=command.pop("type", "PlayTurn"), duel_id=duel, expected_version=version, **command)
        version = answer["version"]
        return [e["type"] for e in answer["events"]]

    assert turn(card_a=TRETA, card_b=TC, dice_a=[4, 3], dice_b=[5, 1]) == [
        "RocetCardsPlayed", "RocetCardsDrawn", "RocetCardsDrawn", "RocetTurnResolved"]
    refused = client.post("/api/commands", json={"type": "PlayTurn", "duel_id": duel, "expected_version": version,
                                                 "card_a": EA, "card_b": EA, "server_roll": True})
    assert refused.status_code == 422 and "Lope must first discard" in refused.json["message"]
    assert turn(type="Discard", side="b", card=INSULTO) == ["RocetCardDiscarded"]
    assert turn(card_a=EA, card_b=INSULTO, dice_a=[2, 2], dice_b=[3, 1])[-1] == "RocetTurnResolved"
    assert turn(type="DealDamage", source="attack") == ["RocetDamageDealt", "DuelWon"]

    shown = client.get(f"/api/duels/{duel}").json
    assert shown["status"] == "over" and shown["winner"] == "a" and shown["version"] == version
    assert shown["state"]["sides"]["a"]["clock"] == 2 and shown["state"]["sides"]["b"]["pg"] == 20 - (2 + 2)  # full clock; TA 2 + Ropera 2
    assert shown["summary"] == "Inés won by clock (Inés completed their clock)"


# --- retractions ----------------------------------------------------------------------------

def snapshot(db):
    """Every read model, row for row, in a stable order."""
    return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr) for table in schema.TABLES}


def send(client, **command):
    response = client.post("/api/commands", json=command)
    assert response.status_code == 201, response.json
    return response.json


def scripted_duel(client):
    """A short virtual-card duel through the API, with a discard, dealt and lapsed damage: its id."""
    campaign = send(client, type="CreateCampaign", name="S", ruleset="rocet")["id"]
    people = [send(client, type="CreateCharacter", campaign_id=campaign, name=name, rank="pj",
                   stats={"rocet": {"des": "d8", "int": "d8", "pg_max": 12, "pm_max": 10,
                                    "weapons": "Ropera | Espada | 3"}})["id"] for name in ("Inés", "Lope")]
    session = send(client, type="PlanSession", campaign_id=campaign, number=1, date="2026-11-29",
                   title="Dawn")["id"]
    duel = send(client, type="StartDuel", session_id=session, ruleset="rocet", clock_size=6, weapon_type="Espada",
                duelists=[{"character_id": people[0], "side": "a"}, {"character_id": people[1], "side": "b"}])["id"]

    def do(command, **fields):
        send(client, type=command, duel_id=duel, expected_version=current(client, duel)["version"], **fields)

    winners = iter("abaabaaa")
    for number in range(8):
        now = current(client, duel)["state"]
        if now["outcome"]:
            break
        if now["pending_down"]:
            do("ConfirmUnconscious")
        elif now["pending_discard"]:
            side = now["pending_discard"]
            do("Discard", side=side, card=now["sides"][side]["hand"][0])
        elif now["pending_damage"] and number % 2 == 0:
            do("DealDamage")
        else:
            w = next(winners)
            do("PlayTurn", card_a=now["sides"]["a"]["hand"][0], card_b=now["sides"]["b"]["hand"][0],
               dice_a=[7, 6] if w == "a" else [1, 2], dice_b=[7, 6] if w == "b" else [1, 2])
    if not current(client, duel)["state"]["outcome"]:
        do("Yield", side="b")
    return duel


def test_retracting_any_event_of_a_duel_refolds_it_and_the_page_still_renders(app, client):
    """Each command of a scripted duel (after its opening) retracted, each in a duel of its own.

    Retracting any one event rewinds the duel to just before its command: the events decided with
    it and every later one go along, so one event per command covers every retraction there is;
    which one varies from command to command.
    """
    db = open_db(app.config["DATABASE"])
    store, commands, number = EventStore(db), set(), 1
    while True:
        app.config["SERVICE_CONTEXT"].rng.seed(7)  # the same shuffle, so the same duel each time
        duel = scripted_duel(client)
        recorded = store.read_stream(f"duel-{duel}")
        decisions = sorted({r.metadata["decision"] for r in recorded})
        if number >= len(decisions):
            break
        group = [r for r in recorded if r.metadata["decision"] == decisions[number]]
        target = group[number % len(group)]
        number += 1
        retraction = send(client, type="RetractEvent", position=target.position, reason="misread",
                          expected_version=current(client, duel)["version"])
        rewound = [r.version for r in recorded if r.version >= group[0].version and r != target]
        assert retraction["events"][0]["data"]["consequences"] == rewound
        commands.add(target.metadata["command"])
        incremental = snapshot(db)
        rebuild(db, store)
        assert snapshot(db) == incremental, f"rebuild differs after retracting {target.type}"
        shown = client.get(f"/duels/{duel}")
        assert shown.status_code == 200, f"the page broke after retracting {target.type}"
        now = current(client, duel)["state"]
        assert rocet.invariants(now) == []
        if "PlayTurn" in rocet.actions(now):  # the duel goes on from the corrected state
            played = act(client, duel, "PlayTurn", card_a=now["sides"]["a"]["hand"][0],
                         card_b=now["sides"]["b"]["hand"][0], server_roll="true")
            assert played.status_code == 302, played.text
    db.close()
    assert {"PlayTurn", "Discard", "DealDamage"} <= commands


def test_retracting_the_opening_deal_is_refused(app, client):
    duel = scripted_duel(client)
    db = open_db(app.config["DATABASE"])
    opening = [r for r in EventStore(db).read_stream(f"duel-{duel}") if r.metadata["decision"] == 1]
    db.close()
    response = client.post("/api/commands", json={"type": "RetractEvent", "position": opening[1].position,
                                                  "expected_version": current(client, duel)["version"]})
    assert response.status_code == 422
