"""Sealed means sealed on every output of one event: an event page and a command's API answer show
an event as the reader's audience may see it (no sealed choice, no hand dealt to a seat, no pile),
and a command's fingerprint or id never names what it chose."""
from __future__ import annotations

import dataclasses
import json

import pytest

from tests.web.test_display import gm_service  # noqa: F401 (fixture)
from tests.web.test_seats import choose, issue_seat, secret_card, setup_duel
from tracker.application import policy
from tracker.application.commands.base import KEYED, fingerprint_of
from tracker.application.services import Service
from tracker.rules.rocet.terms import CARDS


def events_of(gm, duel, kind):
    return [r for r in gm.store.read_stream(f"duel-{duel}") if r.type == kind]


def test_the_event_page_of_a_seat_s_sealed_choice_gives_no_fingerprint_to_hash(client, anonymous, gm_service):
    duel, card = secret_card(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    assert choose(anonymous, seat, duel["duel"], "a", card).status_code == 200
    chosen = events_of(gm_service, duel["duel"], "RocetCardChosen")[-1]
    assert chosen.metadata["fingerprint"].startswith(KEYED)  # keyed with the install's secret
    page = client.get(f"/events/{chosen.position}").text
    assert "fingerprint" not in page and chosen.metadata["command_id"] not in page
    # Whatever the GM tries, hashing each card as the seat would have sent it names none of them.
    for each in CARDS:
        sent = {"duel_id": duel["duel"], "side": "a", "card": each, "turn": "1", "type": "ChooseCard"}
        bare = fingerprint_of(sent)
        assert bare not in page and bare[:12] not in page and bare[:12] not in chosen.metadata["command_id"]


def test_a_seat_s_double_tap_still_appends_once(client, anonymous, gm_service):
    duel, card = secret_card(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    choose(anonymous, seat, duel["duel"], "a", card)
    choose(anonymous, seat, duel["duel"], "a", card)
    assert len(events_of(gm_service, duel["duel"], "RocetCardChosen")) == 1


def test_an_older_database_s_bare_fingerprint_still_replays(client, gm_service):
    """A fingerprint kept before keys (bare SHA-256) is compared as it was made: the id replays."""
    sent = {"type": "CreateCampaign", "name": "Old times", "ruleset": "rocet", "command_id": "old-1"}
    older = Service(gm_service.db, dataclasses.replace(gm_service.context, door=policy.API), gm_service.handlers)
    older.handle(sent)  # as an older Touché kept it: no key
    assert gm_service.db.conn.execute("SELECT fingerprint FROM commands WHERE command_id = 'old-1'"
                                      ).fetchone()[0] == fingerprint_of(sent)
    again = client.post("/api/v1/commands", json=sent)
    assert again.status_code == 200 and again.json["replayed"]
    other = client.post("/api/v1/commands", json={**sent, "name": "Other"})
    assert other.status_code == 422


def test_start_duel_s_api_answer_and_event_pages_hide_seat_hands_and_the_pile(client, gm_service):
    duel = setup_duel(gm_service)  # two player characters, sealed: both hands are their seats' only
    campaign, session, people = duel["campaign"], duel["session"], duel["people"]
    answer = client.post("/api/v1/commands", json={
        "type": "StartDuel", "session_id": session, "ruleset": "rocet", "kind": "relojes", "cards": "virtual",
        "weapon_type": "Espada", "choices": "sealed",
        "duelists": [{"character_id": people[0], "side": "a"}, {"character_id": people[1], "side": "b"}]})
    assert answer.status_code == 201, answer.text
    started = answer.json["id"]
    state = gm_service.state_of(f"duel-{started}")[1]
    hands = [state["sides"][side]["hand"] for side in "ab"]
    for event in answer.json["events"]:
        if event["type"] in ("RocetCardsDrawn", "RocetDeckShuffled"):
            assert event["data"]["cards"] == "hidden", event
    raw = json.dumps(answer.json)
    assert all(json.dumps(hand)[1:-1] not in raw for hand in hands)
    for kind in ("RocetCardsDrawn", "RocetDeckShuffled"):
        for recorded in events_of(gm_service, started, kind):
            page = client.get(f"/events/{recorded.position}").text
            assert all(f"&#34;{card}&#34;" not in page and f'"{card}"' not in page
                       for card in recorded.data["cards"]), kind
    assert campaign


def test_an_npc_s_hand_stays_on_the_gm_s_event_page(client, gm_service):
    """What the GM's pages show, their event pages show too: an NPC's hand is the GM's to hold."""
    duel = setup_duel(gm_service, npc=True)
    drawn = [r for r in events_of(gm_service, duel["duel"], "RocetCardsDrawn") if r.data["side"] == "b"][0]
    page = client.get(f"/events/{drawn.position}").text
    assert all(f'"{card}"' in page for card in drawn.data["cards"])


def test_the_display_json_carries_no_gm_note_and_no_stat_block_beyond_the_display(anonymous, gm_service):
    from tests.web.test_display import display_link, pf2e_duel

    duel = pf2e_duel(gm_service)
    gm_service.handle({"type": "NoteDuel", "duel_id": duel, "text": "Vex lies about his patron"})
    path, _ = display_link(gm_service, duel)
    token = path.split("/")[2]
    for read in (anonymous.get(f"/api/v1/display/{token}").json,
                 anonymous.get(f"/api/v1/display/{token}?since=0&wait=0").json["duel"]):
        raw = json.dumps(read)
        assert "Vex lies" not in raw
        for d in read["state"]["duelists"]:
            assert set(d["stats"]) <= {"hp_max", "ac", "attack_bonus", "weapon", "damage", "spell_dc"}, d["stats"]
        assert "deception" not in raw and "intimidation_rank" not in raw


def test_the_pf2e_display_leaves_out_the_lines_the_recap_keeps_for_the_gm(app, anonymous, gm_service):
    from tests.integration.test_recap import Actions, start
    from tests.web.test_display import FIGHTER, display_link

    campaign = gm_service.handle({"type": "CreateCampaign", "name": "Absalom", "ruleset": "pf2e"}).key
    people = [gm_service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                                 "stats": {"pf2e": FIGHTER}}).key for name in ("Seelah", "Vex")]
    session = gm_service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                                 "date": "2026-11-29", "title": "Bazaar"}).key
    duel = start(gm_service, session, "pf2e", *people, {"kind": "combat"})
    do = Actions(gm_service, duel)
    do("RollInitiative", duelist=people[0], skill="deception", dice_roll=[5])
    do("RollInitiative", duelist=people[1], skill="intimidation", dice_roll=[15])
    do("Strike", dice_attack=[10])  # Vex hits; Seelah could sidestep
    do("DeclineSidestep", dice_damage=[5])
    assert any("lets the hit stand" in line["text"] for line in gm_service.state_of(f"duel-{duel}")[1]["history"])
    path, _ = display_link(gm_service, duel)
    token = path.split("/")[2]
    for shown in (anonymous.get(path).text, anonymous.get(f"/api/v1/display/{token}").text):
        assert "lets the hit stand" not in shown


# --- every GET route, mid-duel with a sealed choice --------------------------------------------

BACKUPS = ()  # a backup is walked like every other output: its sealed fields are ciphertext (issue 27)


def every_get(app, ids: dict, tokens: list[str]):
    """(endpoint, path) for every GET route of the app whose arguments the duel can fill in."""
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        args = set(rule.arguments)
        if not args or args - set(ids) - {"token"}:  # a route about no duel shows every card name
            continue
        values = [dict(ids)] if "token" not in args else [dict(ids, token=token) for token in tokens]
        for given in values:
            filled = {name: given[name] for name in args}
            for fmt in (["md", "html", "json"] if "fmt" in args else [None]):
                if fmt:
                    filled["fmt"] = fmt
                with app.test_request_context():
                    from flask import url_for
                    yield rule.endpoint, url_for(rule.endpoint, **filled)


def body_of(reader, path: str) -> str:
    """What a GET shows its reader. A server-sent events follow stays open for minutes: its body is
    what it sends before its first wait (the ``retry:`` line and the first view of the duel), read
    one chunk at a time, and then the stream is closed, as a browser closes an ``EventSource``."""
    answer = reader.get(path, follow_redirects=True, buffered=False)
    if answer.mimetype != "text/event-stream":
        return answer.get_data(as_text=True)
    sent, chunks = "", answer.response
    try:
        for chunk in chunks:
            sent += chunk.decode() if isinstance(chunk, bytes) else chunk
            if ("\ndata: " in sent and sent.endswith("\n\n")) or ": still here" in sent:  # a whole event, or a wait
                break
    finally:
        answer.close()
    return sent


def test_no_get_route_names_a_sealed_card_to_anyone_but_its_own_seat(app, client, anonymous, gm_service):
    duel, card = secret_card(gm_service)
    seat_a = issue_seat(client, duel["session"], duel["people"][0])
    seat_b = issue_seat(client, duel["session"], duel["people"][1])
    assert choose(anonymous, seat_a, duel["duel"], "a", card).status_code == 200
    from tests.web.test_display import display_link

    display, _ = display_link(gm_service, duel["duel"])
    recap, _ = display_link(gm_service, duel["session"], kind="recap")
    chosen = events_of(gm_service, duel["duel"], "RocetCardChosen")[-1]
    ids = {"campaign_id": duel["campaign"], "session_id": duel["session"], "duel_id": duel["duel"],
           "character_id": duel["people"][0], "position": chosen.position, "stream": f"duel-{duel['duel']}",
           "version": chosen.version, "fmt": "md"}
    tokens = [display.split("/")[2], recap.split("/")[2], seat_b.split("/")[2]]
    walked = 0
    for endpoint, path in every_get(app, ids, tokens):
        for reader in (client, anonymous):
            for query in ("", "?since=0&wait=0&v=0", "?lang=es&audience=players"):
                body = body_of(reader, path + query)
                walked += 1
                if endpoint in BACKUPS:
                    continue
                assert card not in body, (endpoint, path + query)
                assert chosen.metadata["command_id"] not in body and chosen.metadata["fingerprint"] not in body
    assert walked > 100


# The same walk for a PF2e skill and a pirate insult. Their names are also on pages that have every
# right to show them (the skill on a stat block and in the rules, the insult kind on the rival's own
# form and in the insult table), so the walk counts: no output may name the value more often after
# the seat chose it than before, and the choice's own event page, its command id and fingerprint,
# and the words of an insult, not at all. Names are the game's own words, the same in English and
# Spanish (docs/glossary.md); each is searched raw, as shown, HTML-escaped and JSON-escaped.

READS = ("", "?since=0&wait=0&v=0", "?lang=es", "?lang=es&audience=players&since=0&wait=0")
EVENT_PAGES = ("log.show", "log.retract")  # the choice's own event page


def spellings(*values: str) -> set[str]:
    import html as markup

    found = set()
    for value in values:
        for said in (value, value.capitalize(), value.lower()):
            found |= {said, markup.escape(said), json.dumps(said)[1:-1], json.dumps(said, ensure_ascii=False)[1:-1]}
    return found


def walk_outputs(app, readers: dict, ids: dict, tokens: list[str]):
    """(where, body) for every GET route the duel fills in, by every reader, in both languages."""
    for at, (endpoint, path) in enumerate(every_get(app, ids, tokens)):
        if endpoint in BACKUPS:
            continue
        for name, reader in readers.items():
            for query in READS:
                body = body_of(reader, path + query)
                yield (endpoint, at, name, query, path), body


def counted(app, readers, ids, tokens, needles) -> dict:
    return {where[:4]: ({n: body.count(n) for n in needles}, where, body)
            for where, body in walk_outputs(app, readers, ids, tokens)}


def duel_ids(duel: dict, record) -> dict:
    return {"campaign_id": duel["campaign"], "session_id": duel["session"], "duel_id": duel["duel"],
            "character_id": duel["people"][0], "position": record.position, "stream": f"duel-{duel['duel']}",
            "version": record.version, "fmt": "md"}


def assert_sealed_everywhere(app, client, anonymous, gm, duel, seat_b, make_choice, kind, names, never=()):
    """Walk every GET route before and after ``make_choice`` (seat A's sealed choice): nothing names
    it more often than before; its event page, command id, fingerprint and ``never`` not at all."""
    from tests.web.test_display import display_link

    display, _ = display_link(gm, duel["duel"])
    recap, _ = display_link(gm, duel["session"], kind="recap")
    tokens = [display.split("/")[2], recap.split("/")[2], seat_b.split("/")[2]]
    readers = {"gm": client, "anonymous": anonymous}
    needles = spellings(*names)
    last = gm.store.read_stream(f"duel-{duel['duel']}")[-1]
    before = counted(app, readers, duel_ids(duel, last), tokens, needles)
    make_choice()
    chosen = events_of(gm, duel["duel"], kind)[-1]
    secret = {chosen.metadata["command_id"], chosen.metadata["fingerprint"],
              chosen.metadata["fingerprint"].removeprefix(KEYED), *spellings(*never)}
    walked = 0
    for (endpoint, at, reader, query, path), body in walk_outputs(app, readers, duel_ids(duel, chosen), tokens):
        walked += 1
        where = (endpoint, reader, path + query)
        assert not [s for s in secret if s in body], where
        if endpoint in EVENT_PAGES:
            assert not [n for n in needles if n in body], where
            continue
        then = before[(endpoint, at, reader, query)][0]
        grew = {n: (then[n], body.count(n)) for n in needles if body.count(n) > then[n]}
        assert not grew, (where, grew)
    assert walked > 200


def test_no_get_route_names_a_pf2e_skill_chosen_in_secret(app, client, anonymous, gm_service):
    from tests.web.test_seats import choose_skill, pf2e_sealed

    duel = pf2e_sealed(gm_service)
    seelah = duel["people"][0]
    seat_a, seat_b = (issue_seat(client, duel["session"], who) for who in duel["people"])

    def make_choice():
        assert choose_skill(anonymous, seat_a, duel["duel"], seelah, "intimidation").status_code == 200

    assert_sealed_everywhere(app, client, anonymous, gm_service, duel, seat_b, make_choice,
                             "Pf2eSkillChosen", ["intimidation"])


def test_no_get_route_names_a_pirate_insult_chosen_in_secret_nor_its_words(app, client, anonymous, gm_service):
    from tests.web.test_seats import choose_insult, wit_sealed

    duel = wit_sealed(gm_service)
    seat_a, seat_b = (issue_seat(client, duel["session"], who) for who in duel["people"])
    words = "Zorblax, you fight like a dairy farmer"

    def make_choice():
        assert choose_insult(anonymous, seat_a, duel["duel"], "a", "Humillación", words).status_code == 200

    assert_sealed_everywhere(app, client, anonymous, gm_service, duel, seat_b, make_choice,
                             "PirateInsultChosen", ["Humillación"], never=[words, "Zorblax"])


def test_a_backup_taken_mid_duel_holds_no_sealed_choice(client, anonymous, gm_service):
    duel, card = secret_card(gm_service)
    seat = issue_seat(client, duel["session"], duel["people"][0])
    choose(anonymous, seat, duel["duel"], "a", card)
    lines = [json.loads(line) for line in client.get(f"/campaigns/{duel['campaign']}/backup.jsonl").text.splitlines()]
    assert not any(line.get("type") == "RocetCardChosen" and card in json.dumps(line) for line in lines)
