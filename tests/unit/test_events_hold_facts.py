"""The log stores facts, never prose: no event a duel appends holds a sentence for people to read
(a message id with its values). An ending's sentence is told when the log is read, from the
facts, by the ruleset's ``ending_detail``; these duels play every ending each ruleset decides."""
from __future__ import annotations

import dataclasses
import json

import pytest

from tests.conftest import fixed_context
from tests.unit import (test_pf2e_edges, test_pirate, test_pirate_edges, test_rocet, test_rocet_duels,
                        test_rocet_more)
from tests.sample_duel import start_sample_duel
from tracker import bootstrap
from tracker.bootstrap.db import open_db
from tracker.domain.events import from_data, to_data
from tracker.rules import pf2e, pirate, rocet
from tracker.rules.duel import ENDING_EVENTS, DuelDrawn, DuelWon, told_detail
from tracker.eventstore.store import dumps

SHIPPED = (rocet, pirate, pf2e)


def msgids(value) -> list:
    """Every message id anywhere in ``value`` (JSON data)."""
    if isinstance(value, dict):
        return ([value["msgid"]] if "msgid" in value else []) + [m for v in value.values() for m in msgids(v)]
    if isinstance(value, list):
        return [m for v in value for m in msgids(v)]
    return []


@pytest.mark.parametrize("module", SHIPPED, ids=lambda m: m.NAME)
def test_the_sample_duel_stores_no_message_in_its_log(app, module):
    db = open_db(app.config["DATABASE"])
    try:
        ids = iter(range(1, 10**6))
        service = bootstrap.service(db, dataclasses.replace(fixed_context(), new_id=lambda: f"f{next(ids):04d}"))
        duel, commands = start_sample_duel(service, module, "Facts")
        for command in commands:
            version, _state = service.state_of(f"duel-{duel}")
            service.handle({**command, "duel_id": duel, "expected_version": version})
        assert service.state_of(f"duel-{duel}")[1]["outcome"], "the sample duel ends"
        rows = db.execute("SELECT type, data FROM events WHERE stream = ?", [f"duel-{duel}"]).fetchall()
    finally:
        db.close()
    assert any(kind in {e.__name__ for e in ENDING_EVENTS} for kind, _data in rows)
    assert {kind: msgids(json.loads(data)) for kind, data in rows if msgids(json.loads(data))} == {}


# Each unit test that plays a duel to an ending, with its parameters: every ending each ruleset
# decides (won, drawn, proposed to the judge, confirmed), for the check below.
ENDINGS = [
    (pirate, test_pirate.test_sword_to_first_blood, {}),
    (pirate, test_pirate.test_sword_to_two_hits, {}),
    (pirate, test_pirate.test_zero_pv_before_the_hits_waits_for_the_gm, {}),
    (pirate, test_pirate.test_sword_to_the_death, {}),
    (pirate, test_pirate.test_pistol_duel_beyond_range, {}),
    (pirate, test_pirate.test_pistol_duel_runs_dry, {}),
    (pirate, test_pirate.test_a_bullet_that_fells_waits_for_the_gm, {}),
    (pirate, test_pirate.test_wit_duel_on_points, {}),
    (pirate, test_pirate.test_wit_duel_by_humiliation, {}),
    (pirate, test_pirate.test_a_campaign_table_and_a_backlash_that_humiliates, {}),
    (pirate, test_pirate.test_a_tied_wit_duel_as_a_draw, {}),
    (pirate, test_pirate.test_a_tied_wit_duel_goes_to_sudden_death, {}),
    (pirate, test_pirate_edges.test_a_fall_in_a_pistol_duel_is_the_shooter_s_win, {"side": "b"}),
    (rocet, test_rocet.test_a_knocked_out_duelist_loses_once_the_gm_confirms_it, {}),
    (rocet, test_rocet_duels.test_clock_duel_first_to_complete_their_clock_wins, {"mode": "virtual"}),
    (rocet, test_rocet_duels.test_primera_sangre_first_attack_won_wins, {"mode": "physical"}),
    (rocet, test_rocet_duels.test_superioridad_meter_moves_toward_the_winner, {"mode": "virtual"}),
    (rocet, test_rocet_duels.test_a_muerte_completed_clocks_offer_weapon_damage_and_only_death_ends_it,
     {"mode": "physical"}),
    (rocet, test_rocet_more.test_a_fall_wins_the_duel_for_the_other_side, {"down": "a"}),
    (pf2e, test_pf2e_edges.test_first_blood_is_proposed_for_either_side_and_the_judge_confirms, {"who": "k"}),
    (pf2e, test_pf2e_edges.test_a_knockout_is_proposed_at_exactly_0_hp, {"left": 0, "proposed": True}),
    (pf2e, test_pf2e_edges.test_a_custom_victory_is_confirmed_for_the_side_named, {"side": "b"}),
    (pf2e, test_pf2e_edges.test_either_side_may_yield_and_fighting_on_escalates_once, {"side": "a"}),
]


@pytest.mark.parametrize("module, scenario, params", ENDINGS, ids=lambda x: getattr(x, "__name__", ""))
def test_every_ending_event_holds_facts_only(monkeypatch, module, scenario, params):
    folded = []
    evolve = module.evolve

    def spy(state, ev, at):
        folded.append(ev)
        return evolve(state, ev, at)

    monkeypatch.setattr(module, "evolve", spy)
    scenario(**params)
    assert any(isinstance(ev, ENDING_EVENTS) or type(ev).__name__ == "Pf2eVictoryProposed" for ev in folded)
    for ev in folded:
        assert msgids(json.loads(dumps(to_data(ev)))) == [], type(ev).__name__
        if isinstance(ev, (DuelWon, DuelDrawn)):
            assert ev.sentence == "" and isinstance(ev.detail, str)


@pytest.mark.parametrize("stored", ["Lope fell unconscious",
                                    {"msgid": "{name} fell unconscious", "args": {"name": "Lope"}}])
def test_an_ending_stored_with_its_sentence_reads_as_before(stored):
    """Logs from before schema 2 kept the rules' sentence in ``detail``: it is read as is."""
    old = from_data("DuelWon", {"side": "a", "ending": "unconscious", "detail": stored}, schema=1)
    assert (old.detail, old.sentence) == ("", "Lope fell unconscious")
    assert told_detail({}, old, lambda state, ev: "told from the facts") == "Lope fell unconscious"
    drawn = from_data("DuelDrawn", {"ending": "out_of_shots", "detail": "both pistols ran dry"}, schema=1)
    assert (drawn.detail, drawn.sentence) == ("", "both pistols ran dry")
