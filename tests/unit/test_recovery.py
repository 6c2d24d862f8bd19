"""Each ruleset's recovery between duels, as its rules (or the [assumed] settings) give it."""
import pytest

from tracker.rules import pf2e, pirate, rocet
from tracker.rules.base import Refused
from tracker.rules.contract import RecoveryTimes
from tracker.rules.dice import Dice

ROCET = {"des": 8, "int": 8, "pg_max": 38, "pm_max": 30, "weapons": []}
PIRATE = {"atq": 3, "def": 12, "pv": 20, "comunicacion": 2, "sab": 11, "car": 8, "iniciativa": 1, "weapons": []}
PF2E = {"level": 3, "hp_max": 45, "con": 2, "ac": 18, "attack_bonus": 9, "damage": "1d8+4"}


def test_every_ruleset_has_a_rest_marked_with_where_its_rule_comes_from():
    for module in (rocet, pirate, pf2e):
        assert "rest" in module.RECOVERIES
        assert "[base]" in module.RECOVERIES["rest"].rule or "[assumed]" in module.RECOVERIES["rest"].rule


def test_a_rocet_rest_restores_every_pg_and_pm_as_fabula_ultima_does():
    done = rocet.recover("rest", ROCET, {"PG": 19, "PM": 30}, {}, {}, Dice())
    assert dict(done.changes) == {"PG": 19, "PM": 0}


@pytest.mark.parametrize("setting, gain", [({}, 15), ({"rest_restores": "all"}, 15),
                                           ({"rest_restores": "half"}, 10), ({"rest_restores": "none"}, 0)])
def test_a_pirate_rest_restores_pv_as_the_campaign_setting_says_all_by_default(setting, gain):
    done = pirate.recover("rest", PIRATE, {"PV": 5}, setting, {}, Dice())
    assert dict(done.changes) == {"PV": gain}


def test_a_pirate_rest_never_passes_the_maximum():
    assert dict(pirate.recover("rest", PIRATE, {"PV": 18}, {"rest_restores": "half"}, {}, Dice()).changes) == {"PV": 2}


def test_a_pf2e_nights_rest_restores_constitution_times_level():
    assert dict(pf2e.recover("rest", PF2E, {"HP": 10}, {}, {}, Dice()).changes) == {"HP": 2 * 3}


def test_a_pf2e_rest_with_a_low_constitution_still_restores_the_level():
    assert dict(pf2e.recover("rest", dict(PF2E, con=-1), {"HP": 10}, {}, {}, Dice()).changes) == {"HP": 3}


def test_a_pf2e_campaign_may_let_a_rest_restore_all_hp():
    assert dict(pf2e.recover("rest", PF2E, {"HP": 10}, {"rest_full_hp": True}, {}, Dice()).changes) == {"HP": 35}


@pytest.mark.parametrize("dice, medicine, dc, result, change", [
    ([12, 5, 3], 5, "15", "success", 8),                         # 17 vs 15: 2d8
    ([20, 1, 2, 3, 4], 8, "15", "critical_success", 10),         # 28: 4d8
    ([9], 5, "15", "failure", 0),                                # 14: nothing
    ([2, 6], 0, "15", "critical_failure", -6),                   # 2: 1d8 damage
    ([15, 4, 4], 10, "20", "success", 18),                       # expert DC 20: 2d8 + 10
])
def test_pf2e_treat_wounds_checks_medicine_and_rolls_its_d8s(dice, medicine, dc, result, change):
    done = pf2e.recover("treat_wounds", PF2E, {"HP": 20}, {}, {"medicine": medicine, "dc": dc}, Dice({"a": dice}))
    assert (done.result, dict(done.changes), done.rolls) == (result, {"HP": change}, tuple(dice))


def test_pf2e_treat_wounds_never_heals_past_the_maximum_nor_hurts_below_zero():
    assert dict(pf2e.recover("treat_wounds", PF2E, {"HP": 44}, {}, {"medicine": 5, "dc": "15"},
                             Dice({"a": [12, 8, 8]})).changes) == {"HP": 1}
    assert dict(pf2e.recover("treat_wounds", PF2E, {"HP": 3}, {}, {"medicine": 0, "dc": "15"},
                             Dice({"a": [1, 8]})).changes) == {"HP": -3}


def test_pf2e_treat_wounds_asks_for_its_dice():
    with pytest.raises(Refused, match="type another d20"):
        pf2e.recover("treat_wounds", PF2E, {"HP": 20}, {}, {"medicine": 5, "dc": "15"}, Dice())


@pytest.mark.parametrize("stats, gain", [
    ({"level": 3, "hp_max": 45}, 3),  # no Constitution on the sheet: the minimum 1 × level
    ({"level": 0, "hp_max": 45, "con": 4}, 4),  # level 0 counts as 1
    ({"level": 1, "hp_max": 45, "con": 1}, 1), ({"level": 2, "hp_max": 45, "con": 2}, 4),
])
def test_a_pf2e_rest_at_the_edges_of_constitution_and_level(stats, gain):
    assert dict(pf2e.recover("rest", stats, {"HP": 1}, {}, {}, Dice()).changes) == {"HP": gain}


@pytest.mark.parametrize("dice, medicine, dc, result, change", [
    ([20, 1, 1], -10, "15", "success", 2),                # a natural 20 lifts a failure (10 vs 15)
    ([1], 20, "15", "failure", 0),                        # a natural 1 drops a success (21 vs 15)
    ([14, 2, 2], 1, None, "success", 4),                  # no DC chosen: 15, exactly met
    ([13], 1, None, "failure", 0),                        # one short of 15
    ([19, 1, 1], 1, "20", "success", 12),                 # exactly the expert DC: 2d8 + 10
    ([20, 1, 1, 1, 1], 10, "20", "critical_success", 14),  # 4d8 + 10
    ([10], 5, "20", "failure", 0),                        # no bonus without a success
    ([5, 3], 0, "20", "critical_failure", -3),            # the bonus never adds to the damage
    ([20, 1, 1, 1, 1], 30, "40", "critical_success", 54),  # legendary, exactly DC + 10: 4d8 + 50
])
def test_pf2e_treat_wounds_degrees_and_bonus_at_their_boundaries(dice, medicine, dc, result, change):
    values = {"medicine": medicine} if dc is None else {"medicine": medicine, "dc": dc}
    done = pf2e.recover("treat_wounds", dict(PF2E, hp_max=200), {"HP": 100}, {}, values, Dice({"a": dice}))
    assert (done.result, dict(done.changes), done.rolls) == (result, {"HP": change}, tuple(dice))


@pytest.mark.parametrize("typed, asked", [
    ([], "type another d20 for the Medicine check, or let the server roll"),
    ([12, 5], "type another d8 for Treat Wounds, or let the server roll"),
])
def test_pf2e_treat_wounds_names_the_die_it_still_needs(typed, asked):
    with pytest.raises(Refused) as refusal:
        pf2e.recover("treat_wounds", PF2E, {"HP": 20}, {}, {"medicine": 5, "dc": "15"}, Dice({"a": typed}))
    assert refusal.value.reason == asked


# [base] Treat Wounds: the target cannot be treated again for an hour, by the log's times.
TREAT = {"medicine": 5, "dc": "15"}


def _treated_at(last, now):
    """The seconds waited since ``last`` (None: never treated), as the handler tells them from the log."""
    import datetime as dt

    if not last:
        return RecoveryTimes()
    waited = dt.datetime.fromisoformat(now) - dt.datetime.fromisoformat(last)
    return RecoveryTimes(waited={"treat_wounds": waited.total_seconds()})


def test_pf2e_treat_wounds_is_refused_within_the_hour_of_the_last_treatment_saying_how_long_to_wait():
    times = _treated_at("2026-11-29T20:00:00.000+00:00", "2026-11-29T20:20:30.000+00:00")
    with pytest.raises(Refused, match="again in 40 min"):
        pf2e.recover("treat_wounds", PF2E, {"HP": 20}, {}, TREAT, Dice({"a": [12, 5, 3]}), times=times)


@pytest.mark.parametrize("last, now", [(None, "2026-11-29T20:00:00.000+00:00"),
                                       ("2026-11-29T20:00:00.000+00:00", "2026-11-29T21:00:00.000+00:00"),
                                       ("2026-11-29T20:00:00.000+00:00", "2026-11-30T09:00:00.000+00:00")])
def test_pf2e_treat_wounds_heals_once_the_hour_has_passed_or_on_a_first_treatment(last, now):
    done = pf2e.recover("treat_wounds", PF2E, {"HP": 20}, {}, TREAT, Dice({"a": [12, 5, 3]}), times=_treated_at(last, now))
    assert dict(done.changes) == {"HP": 8}


def test_a_pf2e_campaign_may_ignore_the_hour_an_assumed_setting_off_by_default():
    times = _treated_at("2026-11-29T20:00:00.000+00:00", "2026-11-29T20:00:01.000+00:00")
    done = pf2e.recover("treat_wounds", PF2E, {"HP": 20}, {"treat_wounds_ignore_hour": True}, TREAT,
                        Dice({"a": [12, 5, 3]}), times=times)
    assert dict(done.changes) == {"HP": 8}
    assert pf2e.validate_campaign_settings({})["treat_wounds_ignore_hour"] is False
    assert "[assumed]" in str(pf2e.IGNORE_HOUR_SETTING.help)


def test_a_pf2e_rest_does_not_wait_on_the_hour_of_treat_wounds():
    times = _treated_at("2026-11-29T20:00:00.000+00:00", "2026-11-29T20:00:01.000+00:00")
    assert dict(pf2e.recover("rest", PF2E, {"HP": 10}, {}, {}, Dice(), times=times).changes) == {"HP": 6}
