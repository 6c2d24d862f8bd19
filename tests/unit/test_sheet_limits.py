"""Every ruleset's stats block and set-up at and just past each limit: the GM reads which field is wrong."""
from __future__ import annotations

import pytest

from tracker.rules import get
from tracker.rules.base import Invalid, Refused
from tracker.rules.dice import fixed_dice
from tracker.rules.pf2e.sheet import parse_slots, trained

from tests.unit.test_pf2e_support import HEADER, fighter, sheet

pf2e = get("pf2e")


def problems(validate, raw) -> dict:
    with pytest.raises(Invalid) as caught:
        validate(**raw)
    return caught.value.errors


# --- PF2e ------------------------------------------------------------------------------------

PF2E_LIMITS = [  # field, lowest allowed, highest allowed
    ("level", -1, 25), ("hp_max", 1, 999), ("ac", 1, 70), ("attack_bonus", -10, 60),
    ("deception", -10, 60), ("religion", -10, 60), ("spell_dc", 5, 70),
]


@pytest.mark.parametrize("field, low, high", PF2E_LIMITS)
def test_pf2e_stats_at_each_limit_and_one_past(field, low, high):
    assert sheet(**{field: low})[field] == low
    assert sheet(**{field: high})[field] == high
    assert problems(sheet, {field: low - 1}) == {field: f"must be at least {low}"}
    assert problems(sheet, {field: high + 1}) == {field: f"must be at most {high}"}


def test_pf2e_text_fields_at_their_limit():
    assert sheet(weapon="x" * 80)["weapon"] == "x" * 80
    assert problems(sheet, {"weapon": "x" * 81}) == {"weapon": "must be at most 80 characters"}
    assert sheet(weapon="")["weapon"] == "weapon"
    assert problems(sheet, {"damage": "2d6*2"}) == {"damage": "only dice, numbers, + and - are allowed"}
    assert sheet(damage=" 1D8 + 4 ")["damage"] == "1d8+4"


@pytest.mark.parametrize("text, slots", [
    ("", {}), ("1:3, 2:2", {"1": 3, "2": 2}), ("1:0", {"1": 0}), ("10:9", {"10": 9}), ("2:1; 1:4,", {"2": 1, "1": 4}),
])
def test_spell_slots_at_their_limits(text, slots):
    assert parse_slots(text) == slots


@pytest.mark.parametrize("text, message", [
    ("0:1", "spell ranks go from 1 to 10, not 0"), ("11:1", "spell ranks go from 1 to 10, not 11"),
    ("1:10", "rank 1 cannot have 10 slots"), ("1:-1", "rank 1 cannot have -1 slots"),
    ("one:2", '"one:2" is not rank:slots, e.g. 2:3'), ("3", '"3" is not rank:slots, e.g. 2:3'),
])
def test_spell_slots_just_past_their_limits(text, message):
    with pytest.raises(ValueError) as caught:
        parse_slots(text)
    assert str(caught.value) == message
    assert problems(sheet, {"spell_slots": text}) == {"spell_slots": message}


def test_spell_slots_are_written_in_rank_order_and_arrive_as_a_mapping_too():
    assert sheet(spell_slots="10:1, 2:2, 1:3")["spell_slots"] == "1:3, 2:2, 10:1"
    assert sheet(spell_slots={"2": 1, "1": 2})["spell_slots"] == "1:2, 2:1"


def test_damage_and_slots_errors_are_reported_together():
    assert problems(sheet, {"damage": "x", "spell_slots": "0:1"}) == {
        "damage": "must be dice such as 1d8 or 2d6+3", "spell_slots": "spell ranks go from 1 to 10, not 0"}


def test_trained_means_any_rank_but_untrained():
    assert trained({"arcana_rank": "trained"}, "arcana") and trained({"arcana_rank": "legendary"}, "arcana")
    assert not trained({"arcana_rank": "untrained"}, "arcana") and not trained({}, "arcana")


def refused_pf2e(duelists, **setup) -> Refused:
    with pytest.raises(Refused) as caught:
        pf2e.start(HEADER, setup, duelists, fixed_dice())
    return caught.value


def test_pf2e_set_up_refusals_name_the_field():
    pair = [fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")]
    r = refused_pf2e(pair, victory="custom")
    assert (r.reason, r.field) == ("describe the custom victory condition the judge will confirm", "victory_text")
    assert pf2e.start(HEADER, {"victory": "custom", "victory_text": "a touch"}, pair, fixed_dice())
    r = refused_pf2e(pair[:1])
    assert r.field == "side_b" and r.reason.endswith("needs one duelist on side B, not 0")
    r = refused_pf2e(pair, teams="tag")
    assert r.field == "side_a" and r.reason.endswith("needs two duelists on side A, not 1")
    r = refused_pf2e([pair[0], fighter("k", "Kyra", "b", hp=0)])
    assert (r.reason, r.field) == ("Kyra is at 0 HP and cannot duel", "side_b")
    assert pf2e.start(HEADER, {}, [pair[0], fighter("k", "Kyra", "b", hp=1)], fixed_dice())
    r = refused_pf2e([pair[0], dict(pair[1], stats={})])
    assert (r.reason, r.field) == ("Kyra has no Pathfinder 2e stats block: fill it in before the duel", "side_b")


@pytest.mark.parametrize("cap", [0, 25])
def test_pf2e_item_level_cap_at_its_limits(cap):
    pair = [fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")]
    [started] = pf2e.start(HEADER, {"item_level_cap": cap}, pair, fixed_dice())
    assert started.settings["item_level_cap"] == cap
    with pytest.raises(Invalid):
        pf2e.start(HEADER, {"item_level_cap": cap + (1 if cap else -1)}, pair, fixed_dice())


# --- Rocèt ------------------------------------------------------------------------------------

rocet = get("rocet")
ROCET = {"des": "d8", "int": "d8", "pg_max": 30, "pm_max": 20, "weapons": "Ropera | Espada | 3"}


def rocet_sheet(**changes):
    return rocet.validate_stats(dict(ROCET, **changes))


@pytest.mark.parametrize("die", ["d6", "d8", "d10", "d12"])
def test_rocet_dice_are_d6_to_d12(die):
    assert rocet_sheet(des=die)["des"] == int(die[1:])


@pytest.mark.parametrize("die", ["d4", "d20"])
def test_rocet_dice_outside_d6_to_d12(die):
    assert problems(rocet_sheet, {"int": die}) == {"int": "must be d6, d8, d10 or d12"}


# --- pirate ------------------------------------------------------------------------------------

pirate = get("pirate")


@pytest.mark.parametrize("setup, field", [({"hits": 1}, "hits"), ({"hits": 4}, "hits"), ({"shots": 0}, "shots"),
                                          ({"shots": 31}, "shots"), ({"exchanges": 0}, "exchanges"),
                                          ({"exchanges": 21}, "exchanges"), ({"distance": 0}, "distance"),
                                          ({"distance": 501}, "distance")])
def test_pirate_set_up_just_past_each_limit(setup, field):
    from tests.unit.test_pirate import HEADER as PIRATE_HEADER, duelists
    with pytest.raises(Invalid) as caught:
        pirate.start(PIRATE_HEADER, dict({"kind": "sword"}, **setup), duelists(), fixed_dice())
    assert field in caught.value.errors


@pytest.mark.parametrize("setup", [{"hits": 2, "sword_victory": "hits"}, {"hits": 3, "sword_victory": "hits"},
                                   {"kind": "pistol", "shots": 1, "distance": 1, "second_a": "T", "second_b": "B"},
                                   {"kind": "pistol", "shots": 30, "distance": 500, "second_a": "T", "second_b": "B"},
                                   {"kind": "wit", "exchanges": 1}, {"kind": "wit", "exchanges": 20}])
def test_pirate_set_up_at_each_limit(setup):
    from tests.unit.test_pirate import HEADER as PIRATE_HEADER, duelists
    started = pirate.start(PIRATE_HEADER, dict({"kind": "sword"}, **setup), duelists(), fixed_dice())[0]
    for key, value in setup.items():
        assert started.settings.get(key, value) == value


# --- the pirate insult table and weapons, line by line ----------------------------------------

from tracker.rules.pirate.sheet import insult_lines, parse_insults, parse_weapons  # noqa: E402


def test_a_campaign_insult_table_is_written_back_as_the_form_shows_it():
    assert pirate.validate_campaign_settings({"insults": " Pulla | 0 | 1D4 \nBravata | −1 | 1d6 | 1d12\n\n"}) == \
        {"insults": "Pulla | +0 | 1d4\nBravata | -1 | 1d6 | 1d12", "rest_restores": "all",
         "choices": "gm", "reveal": "auto", "dice_by": "server"}  # the seats' defaults
    with pytest.raises(Invalid) as caught:
        pirate.validate_campaign_settings({"insults": ""})
    assert caught.value.errors == {"insults": "the table needs at least one insult"}
    assert insult_lines([{"name": "Pulla", "to_hit": 10, "damage": "1d4", "backlash": ""}]) == "Pulla | +10 | 1d4"


@pytest.mark.parametrize("to_hit, value", [("-10", -10), ("+10", 10), ("− 2", -2), ("", 0)])
def test_insult_to_hit_at_its_limits(to_hit, value):
    assert parse_insults(f"Pulla | {to_hit} | 1d4")[0]["to_hit"] == value


@pytest.mark.parametrize("text, message", [
    ("Pulla | -11 | 1d4", "line 1 (Pulla): the to-hit modifier must be from -10 to +10"),
    ("Pulla | +11 | 1d4", "line 1 (Pulla): the to-hit modifier must be from -10 to +10"),
    ("Pulla | x | 1d4", "line 1 (Pulla): the to-hit modifier must be a number such as +1 or -2"),
    ("Pulla | +0 | 1d4 | 1d4 | 1", "line 1: at most 4 parts (name | to-hit | damage | backlash)"),
    (" | +0 | 1d4", "line 1: the insult needs a name"),
    ("Pulla | +0 | 1d4\nBurla | +0 | lots", "line 2 (Burla): damage must be dice such as 1d6"),
    ("Pulla | +0 | 1d4 | 1d7", "line 1 (Pulla): damage must be dice such as 1d6"),
    ("Pulla | +0 | 1d4\npulla | +1 | 1d6", "two insults share a name"),
    ([{"name": "Pulla"}, "x"], "each entry must be an object with name, to_hit, damage, backlash"),
    (7, "must be text lines or a list"),
])
def test_insult_tables_just_past_each_limit(text, message):
    with pytest.raises(ValueError) as caught:
        parse_insults(text)
    assert str(caught.value) == message


def test_an_insult_table_arrives_as_a_list_too():
    assert parse_insults([{"name": "Pulla", "to_hit": -1, "damage": "1d4", "backlash": None}]) == [
        {"name": "Pulla", "to_hit": -1, "damage": "1d4", "backlash": ""}]


@pytest.mark.parametrize("reach", ["1", "500"])
def test_a_pistol_range_at_its_limits(reach):
    assert parse_weapons(f"Pistola | pistol | 1d8 | {reach}")[0]["range"] == int(reach)


@pytest.mark.parametrize("text, message", [
    ("Pistola | pistol | 1d8 | 0", "line 1 (Pistola): a pistol needs its range in paces (1 to 500)"),
    ("Pistola | pistol | 1d8 | 501", "line 1 (Pistola): a pistol needs its range in paces (1 to 500)"),
    ("Pistola | pistol | 1d8", "line 1 (Pistola): a pistol needs its range in paces (1 to 500)"),
    ("Sable | sword | 1d8 | 10", "line 1 (Sable): only pistols have a range"),
    ("Sable | axe | 1d8", "line 1 (Sable): the kind must be sword or pistol"),
    ("Sable | sword | lots", "line 1 (Sable): damage must be dice such as 1d8 or 1d6+1"),
    ("Sable | sword | 1d8 | | x", "line 1: at most 4 parts (name | kind | damage | range)"),
    (" | sword | 1d8", "line 1: the weapon needs a name"),
    ("Sable | sword | 1d8\nsable | sword | 1d6", "two weapons share a name"),
])
def test_weapons_just_past_each_limit(text, message):
    with pytest.raises(ValueError) as caught:
        parse_weapons(text)
    assert str(caught.value) == message
