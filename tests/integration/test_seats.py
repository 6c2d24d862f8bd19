"""Players' seats against the real service and database: the reveal race with real threads, a
retraction of a sealed choice, a rebuild equal to the live read models, and a double tap."""
from __future__ import annotations

import random
import threading

import pytest

from tests.integration.test_projections import snapshot
from tracker import bootstrap
from tracker.application import policy
from tracker.bootstrap.db import open_db
from tracker.projections.rebuild import rebuild
from tracker.application.services import Context
from tracker.eventstore.store import EventStore

SHEET = {"rocet": {"des": "d8", "int": "d8", "pg_max": 30, "pm_max": 20, "weapons": "Ropera | Espada | 3"}}


def sealed_duel(service, **setup) -> dict:
    """Two player characters in a sealed Rocèt duel, each with a seat: ids and seat link ids."""
    campaign = service.handle({"type": "CreateCampaign", "name": "Season of Steel", "ruleset": "rocet"}).key
    people = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                              "stats": SHEET}).key for name in ("Inés", "Lope")]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": "Swords at dawn"}).key
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet", "kind": "relojes",
                           "cards": "virtual", "weapon_type": "Espada", "choices": "sealed", **setup,
                           "duelists": [{"character_id": people[0], "side": "a"},
                                        {"character_id": people[1], "side": "b"}]}).key
    seats = {side: service.handle({"type": "IssuePlayerLink", "kind": "seat", "target": session,
                                   "character_id": who}).events[0].data["link_id"]
             for side, who in zip("ab", people)}
    return {"campaign": campaign, "session": session, "duel": duel, "people": people, "seats": seats}


def seat_service(path: str, link_id: str):
    db = open_db(path)
    db.conn.execute("PRAGMA busy_timeout=10000")
    return bootstrap.service(db, Context(door=policy.SEAT_PAGE, seat=link_id, rng=random.Random(3)))


def hand(service, duel: str, side: str) -> list[str]:
    return service.state_of(f"duel-{duel}")[1]["sides"][side]["hand"]


def types(service, duel: str) -> list[str]:
    return [r.type for r in service.store.read_stream(f"duel-{duel}")]


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "seats.db")


@pytest.fixture
def gm(path):
    db = open_db(path)
    yield bootstrap.service(db, Context(rng=random.Random(9)))
    db.close()


@pytest.mark.parametrize("round_", range(8))
def test_both_seats_locking_in_at_the_same_instant_reveal_once_and_keep_both_choices(gm, path, round_):
    duel = sealed_duel(gm)
    cards = {side: hand(gm, duel["duel"], side)[round_ % 3] for side in "ab"}
    services = {side: seat_service(path, duel["seats"][side]) for side in "ab"}
    start, answers, errors = threading.Barrier(2), {}, []

    def tap(side):
        start.wait()
        try:
            answers[side] = services[side].handle({"type": "ChooseCard", "duel_id": duel["duel"], "side": side,
                                                   "card": cards[side], "turn": 1, "command_id": f"tap-{side}"})
        except Exception as error:  # noqa: BLE001 (the test reports any failure of either thread)
            errors.append(error)

    threads = [threading.Thread(target=tap, args=(side,)) for side in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    kinds = types(gm, duel["duel"])
    assert kinds.count("RocetCardChosen") == 2 and kinds.count("RocetTurnResolved") == 1
    resolved = next(r for r in gm.store.read_stream(f"duel-{duel['duel']}") if r.type == "RocetTurnResolved")
    assert (resolved.data["card_a"], resolved.data["card_b"]) == (cards["a"], cards["b"])
    # Exactly one of the two taps turned the cards over: the one that came second in the log.
    revealing = [side for side, outcome in answers.items() if len(outcome.events) > 1]
    assert len(revealing) == 1
    for service in services.values():
        service.db.close()


def test_a_double_tap_appends_once(gm, path):
    duel = sealed_duel(gm)
    seat = seat_service(path, duel["seats"]["a"])
    card = hand(gm, duel["duel"], "a")[0]
    tap = {"type": "ChooseCard", "duel_id": duel["duel"], "side": "a", "card": card, "turn": 1, "command_id": "t1"}
    first, second = seat.handle(dict(tap)), seat.handle(dict(tap))
    assert not first.replayed and second.replayed
    assert types(gm, duel["duel"]).count("RocetCardChosen") == 1
    seat.db.close()


def test_retracting_a_sealed_choice_takes_it_back_and_a_rebuild_equals_the_live_models(gm, path):
    duel = sealed_duel(gm)
    seat = seat_service(path, duel["seats"]["a"])
    first, second = hand(gm, duel["duel"], "a")[:2]
    seat.handle({"type": "ChooseCard", "duel_id": duel["duel"], "side": "a", "card": first, "turn": 1})
    changed = seat.handle({"type": "ChooseCard", "duel_id": duel["duel"], "side": "a", "card": second, "turn": 1})
    assert gm.state_of(f"duel-{duel['duel']}")[1]["sealed"]["a"]["card"] == second
    stream = f"duel-{duel['duel']}"
    gm.handle({"type": "RetractEvent", "position": changed.events[0].position,
               "expected_version": gm.version(stream), "reason": "tapped the wrong card"})
    assert gm.state_of(stream)[1]["sealed"] == {"a": {"card": first, "dice": []}}
    live = snapshot(gm.db)
    rebuild(gm.db, EventStore(gm.db))
    assert snapshot(gm.db) == live
    seat.db.close()


def test_a_seat_is_refused_everything_but_its_own_choices(gm, path):
    from tracker.domain.errors import Denied, Forbidden, NotFound

    duel = sealed_duel(gm)
    other = sealed_duel(gm)  # another campaign and session
    seat = seat_service(path, duel["seats"]["a"])
    card_b = hand(gm, duel["duel"], "b")[0]
    stream = f"duel-{duel['duel']}"
    before = gm.version(stream)
    with pytest.raises(Forbidden, match="only its own duelist"):
        seat.handle({"type": "ChooseCard", "duel_id": duel["duel"], "side": "b", "card": card_b, "turn": 1})
    with pytest.raises(Forbidden, match="its own session"):
        seat.handle({"type": "ChooseCard", "duel_id": other["duel"], "side": "a",
                     "card": hand(gm, other["duel"], "a")[0], "turn": 1})
    for message in ({"type": "PlayTurn", "duel_id": duel["duel"], "card_a": "Finta", "card_b": "Treta"},
                    {"type": "Yield", "duel_id": duel["duel"], "side": "b"},
                    {"type": "RetractEvent", "position": 1},
                    {"type": "CreateCharacter", "campaign_id": duel["campaign"], "name": "Mole", "rank": "pj"},
                    {"type": "IssuePlayerLink", "kind": "seat", "target": duel["session"],
                     "character_id": duel["people"][1]}):
        with pytest.raises(Denied, match="cannot be sent through the seat page"):
            seat.handle(message)
    assert gm.version(stream) == before
    gm.handle({"type": "RevokePlayerLink", "link_id": duel["seats"]["a"]})
    with pytest.raises(Forbidden, match="revoked"):
        seat.handle({"type": "ChooseCard", "duel_id": duel["duel"], "side": "a",
                     "card": hand(gm, duel["duel"], "a")[0], "turn": 1})
    seat_b = seat_service(path, duel["seats"]["b"])
    gm.handle({"type": "CloseSession", "session_id": duel["session"]})
    with pytest.raises(NotFound, match="session is closed"):
        seat_b.handle({"type": "ChooseCard", "duel_id": duel["duel"], "side": "b", "card": card_b, "turn": 1})
    assert gm.version(stream) == before
    seat.db.close()
    seat_b.db.close()


def sealed_duel_of(service, ruleset: str) -> dict:
    """Two player characters in a sealed PF2e or wit duel, each with a seat."""
    from tests.web.test_display import FIGHTER
    from tests.web.test_pirate_pages import INES, LOPE

    sheets = {"pf2e": ({"pf2e": FIGHTER}, {"pf2e": FIGHTER}), "pirate": ({"pirate": INES}, {"pirate": LOPE})}
    setup = {"pf2e": {"kind": "combat", "victory": "knockout"}, "pirate": {"kind": "wit", "exchanges": 3}}[ruleset]
    campaign = service.handle({"type": "CreateCampaign", "name": "Race", "ruleset": ruleset}).key
    people = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, "name": name, "rank": "pj",
                              "stats": sheet}).key for name, sheet in zip(("Inés", "Lope"), sheets[ruleset])]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": "Race"}).key
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": ruleset, "choices": "sealed",
                           **setup, "duelists": [{"character_id": people[0], "side": "a"},
                                                 {"character_id": people[1], "side": "b"}]}).key
    seats = {side: service.handle({"type": "IssuePlayerLink", "kind": "seat", "target": session,
                                   "character_id": who}).events[0].data["link_id"]
             for side, who in zip("ab", people)}
    return {"duel": duel, "people": dict(zip("ab", people)), "seats": seats}


@pytest.mark.parametrize("ruleset, choice, revealed", [
    ("pf2e", lambda side, who: {"type": "ChooseSkill", "duelist": who, "skill": "deception", "round": 1},
     "Pf2eRoundOrdered"),
    ("pirate", lambda side, who: {"type": "ChooseInsult", "side": side, "insult": "Insulto directo", "round": 1},
     "PirateInitiativeRolled"),
])
def test_pf2e_and_wit_choices_locked_in_at_once_are_revealed_once(gm, path, ruleset, choice, revealed):
    duel = sealed_duel_of(gm, ruleset)
    services = {side: seat_service(path, duel["seats"][side]) for side in "ab"}
    start, errors = threading.Barrier(2), []

    def tap(side):
        start.wait()
        try:
            services[side].handle({**choice(side, duel["people"][side]), "duel_id": duel["duel"],
                                   "command_id": f"tap-{side}"})
        except Exception as error:  # noqa: BLE001 (the test reports any failure of either thread)
            errors.append(error)

    threads = [threading.Thread(target=tap, args=(side,)) for side in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert errors == []
    kinds = types(gm, duel["duel"])
    assert sum(kind.endswith("Chosen") for kind in kinds) == 2 and kinds.count(revealed) == 1
    for service in services.values():
        service.db.close()


def test_only_the_attackers_own_seat_readies_or_withdraws_its_dueling_reaction(gm, path):
    from tracker.domain.errors import Forbidden

    duel = sealed_duel_of(gm, "pf2e")
    seats = {side: seat_service(path, duel["seats"][side]) for side in "ab"}
    ines, lope = duel["people"]["a"], duel["people"]["b"]
    for side, who in duel["people"].items():
        seats[side].handle({"type": "ChooseSkill", "duel_id": duel["duel"], "duelist": who,
                            "skill": "intimidation", "round": 1})
    stream = f"duel-{duel['duel']}"
    state = gm.state_of(stream)[1]
    if state["turn"] != ines:
        gm.handle({"type": "EndTurn", "duel_id": duel["duel"], "expected_version": gm.version(stream)})
    before = gm.version(stream)
    ready = {"type": "ReadyReaction", "duel_id": duel["duel"], "duelist": ines, "reaction": "bullying_press"}
    with pytest.raises(Forbidden, match="only its own duelist"):
        seats["b"].handle({**ready, "expected_version": before})
    assert gm.version(stream) == before
    seats["a"].handle({**ready, "expected_version": before})
    with pytest.raises(Forbidden, match="only its own duelist"):
        seats["b"].handle({"type": "WithdrawReaction", "duel_id": duel["duel"], "duelist": ines,
                           "expected_version": gm.version(stream)})
    assert gm.state_of(stream)[1]["readied"] == {ines: "bullying_press"}
    assert lope not in gm.state_of(stream)[1]["readied"]
    for service in seats.values():
        service.db.close()
