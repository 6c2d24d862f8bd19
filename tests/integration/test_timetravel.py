"""Time travel: the duel after any event equals a replay of the log cut at that event (retractions
included), the page steps through the events, compares two of them, and the GM's display links."""
import random
import re

import pytest

from bench.corpus import SETUPS
from bench.driver import play
from tests.conftest import fixed_context, logged_in, register_gm
from tracker.cli import demo
from tracker.bootstrap.db import open_db
from tracker.projections import engine, rebuild
from tracker import bootstrap
from tracker.eventstore.store import EventStore, load_state as loads
from tracker.projections.timetravel import Memo, state_at

CARDS = ("Estocada Alta", "Estocada Profunda", "Tajo Circular", "Finta", "Treta", "Insulto")


# --- the fold: a replay cut at the event -------------------------------------------------------

def random_duels(service, seed=5, actions=12):
    """One duel per kind the bench plays (all three rulesets), each played at random: their streams."""
    rng = random.Random(seed)
    campaign = demo.seed(service.db, service)
    session = service.db.execute("SELECT id FROM sessions").fetchone()[0]
    streams = []
    for index, (ruleset, pair, setup) in enumerate(SETUPS):
        rivals = [service.handle({"type": "CreateCharacter", "campaign_id": campaign,
                                  **dict(sheet, name=f"{sheet['name']} {index}")}).key for sheet in pair]
        duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": ruleset, "setup": setup,
                               "duelists": [{"character_id": rivals[0], "side": "a"},
                                            {"character_id": rivals[1], "side": "b"}]}).key
        play(service, duel, rng, actions, end_with=None)
        streams.append(f"duel-{duel}")
    return streams


def retract_one(service, stream, rng):
    """Retract a random event of the stream decided after its start (not a retraction); its version."""
    rows = service.db.execute("SELECT position, version FROM events WHERE stream = ? AND type != 'EventRetracted'"
                              " AND metadata ->> 'decision' > 1 ORDER BY version", [stream]).fetchall()
    position, version = rng.choice(rows[: max(1, len(rows) // 2)])
    service.handle({"type": "RetractEvent", "position": position, "expected_version": service.version(stream),
                    "reason": "misread die"})
    return version


def replay_cut_at(log_db, tmp_path, position, stream):
    """The stream's state in a fresh database holding only the log up to ``position``, rebuilt."""
    cut = open_db(str(tmp_path / f"cut-{position}.db"))
    rows = log_db.execute("SELECT * FROM events WHERE position <= ? ORDER BY position", [position]).fetchall()
    cut.conn.execute("BEGIN")
    cut.conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    cut.conn.execute("COMMIT")
    rebuild.rebuild(cut, EventStore(cut))
    state = cut.execute("SELECT state FROM stream_states WHERE stream = ?", [stream]).fetchone()
    cut.close()
    return loads(state[0])


def test_the_duel_after_any_event_is_the_refold_up_to_it_visited_in_any_order(service):
    rng = random.Random(3)
    streams = random_duels(service)
    for stream in streams[::3]:
        retract_one(service, stream, rng)
        play(service, stream.split("-", 1)[1], rng, 5, end_with=None)  # events after the retraction too
    store, memo = EventStore(service.db), Memo(size=64)
    for stream in streams:
        versions = list(range(1, store.version(stream) + 1))
        rng.shuffle(versions)
        for version in versions + versions[:5]:  # the second visits come from the memo
            assert state_at(store, stream, version, memo) == engine.refold(store, stream, version), (stream, version)


def test_the_duel_after_an_event_equals_a_replay_of_the_log_cut_at_that_event(service, tmp_path):
    rng = random.Random(8)
    stream = random_duels(service, actions=12)[0]  # a Rocèt clock duel with virtual cards
    retracted = retract_one(service, stream, rng)
    play(service, stream.split("-", 1)[1], rng, 4, end_with=None)
    store, memo = EventStore(service.db), Memo()
    events = store.read_stream(stream)
    for version in sorted({*range(1, len(events), max(1, len(events) // 6)), retracted, len(events)}):
        cut = replay_cut_at(service.db, tmp_path, events[version - 1].position, stream)
        assert state_at(store, stream, version, memo) == cut, version
    # The retracted event stood until it was retracted; the latest state is the projection's own.
    latest = service.db.execute("SELECT state FROM stream_states WHERE stream = ?", [stream]).fetchone()[0]
    assert state_at(store, stream, len(events), memo) == loads(latest)


def test_a_remembered_state_is_not_used_past_a_later_retraction(service):
    stream = random_duels(service, actions=10)[4]  # a pirate sword duel
    store, memo = EventStore(service.db), Memo()
    before = {v: state_at(store, stream, v, memo) for v in range(1, store.version(stream) + 1)}
    retract_one(service, stream, random.Random(1))
    for version, state in before.items():  # the past itself never changes
        assert state_at(store, stream, version, memo) == state
    last = store.version(stream)
    assert state_at(store, stream, last, memo) == engine.refold(store, stream, last)



def test_two_databases_never_share_a_remembered_state(tmp_path):
    """The same ids and positions in two databases (a copy played on differently) are two pasts."""
    stores = []
    for seed in (1, 2):
        service = bootstrap.service(open_db(str(tmp_path / f"copy{seed}.db")), fixed_context())
        stores.append((EventStore(service.db), random_duels(service, seed=seed, actions=8)))
    memo = Memo()
    for store, streams in stores:
        for stream in streams:
            for version in range(1, store.version(stream) + 1):
                assert state_at(store, stream, version, memo) == engine.refold(store, stream, version)


# --- the pages ---------------------------------------------------------------------------------

@pytest.fixture
def gm_service(app):
    """A service on the app's database, acting as the logged-in GM."""
    import dataclasses

    db = open_db(app.config["DATABASE"])
    yield bootstrap.service(db, dataclasses.replace(fixed_context(), actor="gmtest"))
    db.close()


def rocet_duel(service):
    """Inés and Lope in a 3-interval clock duel with virtual cards, owned by the GM: the duel id."""
    campaign = service.handle({"type": "CreateCampaign", "name": "Season of Steel", "ruleset": "rocet"}).key
    people = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                              "stats": {"rocet": {"des": "d8", "int": "d8", "pg_max": 30, "pm_max": 20,
                                                  "weapons": "Ropera | Espada | 3"}}}).key
              for name in ("Inés", "Lope <b>el Bravo</b>")]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": "Swords at dawn"}).key
    return service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "kind": "relojes",
                           "clock_size": 3, "cards": "virtual", "weapon_type": "Espada",
                           "duelists": [{"character_id": people[0], "side": "a"},
                                        {"character_id": people[1], "side": "b"}]}).key


def play_turn(service, duel, dice_a=(6, 5), dice_b=(1, 2)):
    """Side A wins a turn with typed dice, each side laying the first card in hand."""
    version, state = service.state_of(f"duel-{duel}")
    return service.handle({"type": "PlayTurn", "duel_id": duel, "expected_version": version,
                           "card_a": state["sides"]["a"]["hand"][0], "card_b": state["sides"]["b"]["hand"][0],
                           "dice_a": list(dice_a), "dice_b": list(dice_b)})


def test_the_page_shows_the_duel_as_it_stood_after_the_event_with_the_gm_s_hands(client, gm_service):
    duel = rocet_duel(gm_service)
    hand = gm_service.state_of(f"duel-{duel}")[1]["sides"]["a"]["hand"]
    turn = play_turn(gm_service, duel).events[-1].version
    before = client.get(f"/duels/{duel}/travel?at=4")
    assert before.status_code == 200 and "<html" in before.text
    assert "Event <strong>4</strong> of" in before.text and "Clock 0/3" in before.text
    assert all(card in before.text for card in hand)  # the GM sees the hands as they were
    assert "<form" not in before.text.split('class="tt-moment')[1]  # read only: no action forms
    after = client.get(f"/duels/{duel}/travel?at={turn}")
    assert "Clock 2/3" in after.text and "Turn 1" in after.text
    assert "Lope &lt;b&gt;el Bravo&lt;/b&gt;" in after.text and "<b>el Bravo" not in after.text


def test_prev_and_next_step_by_one_event_and_the_fragment_is_what_htmx_swaps(client, gm_service):
    duel = rocet_duel(gm_service)
    play_turn(gm_service, duel)
    page = client.get(f"/duels/{duel}/travel?at=3").text
    assert re.search(rf'id="tt-prev"[^>]*href="/duels/{duel}/travel\?at=2"', page)
    assert re.search(rf'id="tt-next"[^>]*href="/duels/{duel}/travel\?at=4"', page)
    assert re.search(r'id="tt-next-turn"[^>]*accesskey="n"', page)  # the keys step by turn
    assert 'aria-current="step"' in page.split('id="tt-e3"')[1].split(">")[0]
    fragment = client.get(f"/duels/{duel}/travel?at=4", headers={"HX-Request": "true"})
    assert fragment.text.lstrip().startswith('<div id="travel"') and "<html" not in fragment.text
    first = client.get(f"/duels/{duel}/travel?at=1").text
    assert '<span id="tt-prev" class="button disabled"' in first
    latest = client.get(f"/duels/{duel}/travel").text  # the latest event unless told
    assert re.search(r'id="tt-prev-turn"[^>]*accesskey="p"', latest)
    assert '<span id="tt-next" class="button disabled"' in latest
    assert "Event <strong>" in client.get(f"/duels/{duel}/travel?at=999").text  # out of range: the latest


def test_a_retracted_event_is_marked_and_still_stood_until_its_retraction(client, gm_service):
    duel = rocet_duel(gm_service)
    turn = play_turn(gm_service, duel).events
    resolved = next(rec for rec in turn if rec.type == "RocetTurnResolved")
    gm_service.handle({"type": "RetractEvent", "position": turn[0].position,
                       "expected_version": gm_service.version(f"duel-{duel}"), "reason": "wrong cards"})
    now = client.get(f"/duels/{duel}/travel").text
    assert "Clock 0/3" in now and "Retracted:" in now
    assert now.count("<del>") >= 2 and "retracted (event #" in now
    then = client.get(f"/duels/{duel}/travel?at={resolved.version}").text
    assert "Clock 2/3" in then and "retracted later" in then


def test_compare_shows_two_moments_side_by_side_and_what_happened_between(client, gm_service):
    duel = rocet_duel(gm_service)
    last = play_turn(gm_service, duel).events[-1].version
    page = client.get(f"/duels/{duel}/compare?a={last}&b=4")  # in any order
    assert page.status_code == 200
    assert page.text.count('class="tt-moment') == 2
    assert page.text.index("After event 4:") < page.text.index(f"After event {last}:")
    assert "Clock 0/3" in page.text and "Clock 2/3" in page.text
    between = page.text.split("What happened in between")[1]
    assert "Turn 1" in between and between.count("<li") == last - 4


def test_another_gm_cannot_travel_through_the_duel(app, client, gm_service):
    duel = rocet_duel(gm_service)
    register_gm(app, gm_id="rival", username="rival")
    stranger = logged_in(app, "rival")
    assert stranger.get(f"/duels/{duel}/travel").status_code == 404
    assert stranger.get(f"/duels/{duel}/compare?a=1&b=2").status_code == 404
    assert stranger.post(f"/duels/{duel}/display-links").status_code == 404


# --- the GM's display links ---------------------------------------------------------------------

def display_urls(html):
    return re.findall(r'value="http://localhost(/play/[^"]+/display)"', html)


def test_the_gm_issues_and_revokes_display_links_from_the_duel_page(client, gm_service):
    duel = rocet_duel(gm_service)
    page = client.get(f"/duels/{duel}").text
    assert 'id="display-links"' in page and f'href="/duels/{duel}/travel"' in page and not display_urls(page)
    issued = client.post(f"/duels/{duel}/display-links")
    assert issued.status_code == 302 and issued.headers["Location"].endswith(f"/duels/{duel}#display-links")
    fragment = client.post(f"/duels/{duel}/display-links", headers={"HX-Request": "true"})
    assert fragment.text.lstrip().startswith('<section id="display-links"')
    urls = display_urls(client.get(f"/duels/{duel}").text)
    assert len(urls) == 2 and client.get(urls[0]).status_code == 200
    link_id = re.search(r'/display-links/(\w+)/revoke', fragment.text).group(1)
    revoked = client.post(f"/duels/{duel}/display-links/{link_id}/revoke", headers={"HX-Request": "true"})
    assert revoked.status_code == 200 and len(display_urls(revoked.text)) == 1
    assert [client.get(url).status_code for url in urls].count(404) == 1


def test_a_link_of_another_duel_cannot_be_revoked_through_this_one(client, gm_service):
    one, other = rocet_duel(gm_service), rocet_duel(gm_service)
    client.post(f"/duels/{other}/display-links")
    link_id = gm_service.db.execute("SELECT link_id FROM player_links").fetchone()[0]
    assert client.post(f"/duels/{one}/display-links/{link_id}/revoke").status_code == 404
    assert display_urls(client.get(f"/duels/{other}").text)


def test_the_list_shows_the_events_around_the_one_shown(client, gm_service, monkeypatch):
    from tracker.web import timetravel

    monkeypatch.setattr(timetravel, "WINDOW", 2)
    duel = rocet_duel(gm_service)
    last = play_turn(gm_service, duel).events[-1].version
    page = client.get(f"/duels/{duel}/travel?at=5").text
    assert re.findall(r'id="tt-e(\d+)"', page) == ["3", "4", "5", "6", "7"]
    assert "↑ 2 earlier events" in page and f"↓ {last - 7} later event" in page


def test_going_back_to_a_step_the_browser_forgot_gets_the_whole_page(client, gm_service):
    duel = rocet_duel(gm_service)
    restore = client.get(f"/duels/{duel}/travel?at=2", headers={"HX-Request": "true",
                                                                "HX-History-Restore-Request": "true"})
    assert "<html" in restore.text and "HX-Request" in restore.headers["Vary"]
