"""PF2e characters read from Foundry VTT actors and Pathbuilder 2e exports: the figures each
importer finds, where each comes from, what it leaves out, and the refusals that name a JSON path.

The fixtures (tests/fixtures/imports/) are small files of our own following each format. Their
figures come from real exports where said: goblin-warrior.json and boggard-swampseer.json keep
the figures of foundryvtt/pf2e's packs/pathfinder-bestiary/*.json (the swampseer's Strike is our
own: the pack's items were not copied); valeros-level-1.json follows packs/iconics/valeros-level-1.json
(class proficiencies and the level-1 boosts are the pack's; ancestry and background choices are
ours); pathbuilder-seoni.json follows Pathbuilder 2e's "Export JSON" (the build object and acTotal).
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tracker.domain import workspace
from tracker.rules.base import Invalid
from tracker.rules.pf2e.imports import build, foundry, pathbuilder

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "imports"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


def imported(name: str, **extra) -> dict:
    return workspace.parse_import({"json": json.dumps(fixture(name)), **extra})


def refusal(data, **extra) -> str:
    with pytest.raises(Invalid) as refused:
        workspace.parse_import({"json": data if isinstance(data, str) else json.dumps(data), **extra})
    return str(refused.value.errors["json"])


# --- Foundry NPC ------------------------------------------------------------------------

def test_a_bestiary_npc_keeps_its_figures():
    goblin = imported("goblin-warrior")
    stats = goblin["stats"]
    assert goblin["source"] == "foundry" and goblin["ruleset"] == "pf2e"
    assert goblin["name"] == "Goblin Warrior" and goblin["export_rank"] == "villano"
    assert goblin["source_id"] == "jVZRROs0GzDjVrgi"  # the actor's _id
    assert stats["level"] == -1  # system.details.level.value
    assert stats["ac"] == 16  # system.attributes.ac.value
    assert stats["hp_max"] == 6  # system.attributes.hp.max
    assert stats["perception"] == 2  # system.attributes.perception.value (an older pack file)
    assert stats["will"] == 3  # system.saves.will.value
    assert stats["con"] == 1  # system.abilities.con.mod
    # The Strike: the first melee item that is not ranged, the Dogslicer: bonus.value 8, damageRolls 1d6.
    assert (stats["weapon"], stats["attack_bonus"], stats["damage"]) == ("Dogslicer", 8, "1d6")
    # Nature is listed (a lore item, mod 1): trained at +1; Deception is not: untrained, its Cha +1.
    assert (stats["nature"], stats["nature_rank"]) == (1, "trained")
    assert (stats["deception"], stats["deception_rank"]) == (1, "untrained")
    assert stats["spell_dc"] is None and stats["spell_slots"] == ""


def test_what_the_sheet_has_no_place_for_is_said():
    left = imported("goblin-warrior")["left_out"]
    assert ("save", "Fortitude +5") in left and ("save", "Reflex +7") in left
    assert ("strike", "Shortbow") in left  # only one Strike on the sheet
    assert ("trait", "agile") in left and ("trait", "finesse") in left  # chosen on each Strike
    assert ("skill", "Acrobatics") in left and ("skill", "Stealth") in left
    words = str(workspace.left_out_words(left))
    assert "Strike: Shortbow" in words and "saving throw: Fortitude +5" in words


def test_a_spellcasting_npc_brings_its_dc_and_slots():
    seer = imported("boggard-swampseer")["stats"]
    assert seer["spell_dc"] == 21  # items[0].system.spelldc.dc
    assert seer["spell_slots"] == "1:3, 2:2"  # slot1.max 3, slot2.max 2 (slot0, cantrips, not a slot)
    assert (seer["level"], seer["ac"], seer["hp_max"], seer["perception"], seer["will"]) == (3, 18, 40, 11, 11)
    assert (seer["religion"], seer["religion_rank"]) == (9, "trained")
    assert seer["damage"] == "1d4+3"
    left = imported("boggard-swampseer")["left_out"]
    assert ("spell_attack", "+11") in left and ("damage", "1d4 fire") in left


def test_a_newer_npc_reads_its_skills_and_perception_from_system():
    newer = fixture("goblin-warrior")
    newer["items"] = [i for i in newer["items"] if i["type"] != "lore"]
    newer["system"]["skills"] = {"intimidation": {"base": 4}, "stealth": {"base": 5}}
    newer["system"]["perception"] = {"mod": 3}
    stats = foundry.read(newer).stats
    assert (stats["intimidation"], stats["intimidation_rank"], stats["perception"]) == (4, "trained", 3)


# --- Foundry PC -------------------------------------------------------------------------

def test_an_iconic_pc_is_worked_out_from_its_build():
    valeros = imported("valeros-level-1")
    stats = valeros["stats"]
    assert valeros["export_rank"] == "pj" and valeros["source_id"] == "vcwqnXHkhzFhrt7O"
    # Str: ancestry, background, key ability and a level-1 boost = +4; Con: ancestry, background, level 1 = +3;
    # Dex +1 (level 1); Wis +0.
    assert stats["con"] == 3
    assert stats["hp_max"] == 21  # Human 8 + (Fighter 10 + Con 3) × level 1
    assert stats["ac"] == 18  # 10 + Dex 1 (scale mail's cap 1) + trained 3 + scale mail 4
    assert stats["attack_bonus"] == 9  # expert in martial (4 + level 1) + Str 4
    assert (stats["weapon"], stats["damage"]) == ("Longsword", "1d8+4")  # the held weapon; d8 + Str
    assert (stats["perception"], stats["perception_rank"]) == (5, "expert")  # expert 5 + Wis 0
    assert stats["will"] == 3  # trained 3 + Wis 0
    assert (stats["intimidation"], stats["intimidation_rank"]) == (3, "trained")  # system.skills.itm.rank 1
    assert (stats["occultism"], stats["occultism_rank"]) == (4, "trained")  # trained 3 + Int 1
    assert (stats["arcana"], stats["arcana_rank"]) == (1, "untrained")  # Int 1
    left = valeros["left_out"]
    assert ("save", "Fortitude +8") in left  # expert 5 + Con 3
    assert ("strike", "Shortbow") in left and ("feat", "Sudden Charge") in left
    assert ("feat", "Attack of Opportunity") not in left  # a class feature, not a chosen feat


def test_a_pc_caster_works_its_spell_dc_out():
    pc = fixture("valeros-level-1")
    pc["items"].append({"_id": "sc1", "name": "Arcane Prepared Spells", "type": "spellcastingEntry",
                        "system": {"ability": {"value": "int"}, "proficiency": {"value": 1},
                                   "slots": {"slot1": {"max": 2}}}})
    stats = foundry.read(pc).stats
    assert stats["spell_dc"] == 14  # 10 + Int 1 + trained (2 + level 1)
    assert stats["spell_slots"] == "1:2"


def test_boosts_past_plus_four_are_partial():
    attrs = build.Attributes()
    for _ in range(5):
        attrs.boost("str")
    assert attrs["str"] == 4  # the fifth boost is partial: a half
    attrs.boost("str")
    assert attrs["str"] == 5
    assert build.proficiency(0, 5) == 0 and build.proficiency(2, 5) == 9


# --- Pathbuilder ------------------------------------------------------------------------

def test_a_pathbuilder_export_becomes_a_pc():
    seoni = imported("pathbuilder-seoni")
    stats = seoni["stats"]
    assert seoni["source"] == "pathbuilder" and seoni["name"] == "Seoni" and seoni["source_id"] == ""
    assert stats["hp_max"] == 29  # ancestryhp 8 + (classhp 6 + Con 1) × level 3
    assert stats["ac"] == 17  # build.acTotal.acTotal
    assert (stats["attack_bonus"], stats["weapon"], stats["damage"]) == (5, "Staff", "1d4")  # weapons[0].attack, die
    assert stats["will"] == 8  # Wis 1 + proficiencies.will 4 + level 3
    assert (stats["deception"], stats["deception_rank"]) == (9, "trained")  # Cha 4 + 2 + 3
    assert stats["spell_dc"] == 19  # 10 + Cha 4 + proficiency 2 + level 3
    assert stats["spell_slots"] == "1:4, 2:3"  # perDay[1], perDay[2]
    assert ("spell_attack", "+9") in seoni["left_out"] and ("strike", "Dagger") in seoni["left_out"]


def test_pathbuilder_works_a_strike_out_when_the_export_does_not_total_it():
    export = fixture("pathbuilder-seoni")
    weapon = export["build"]["weapons"][0]
    del weapon["attack"], weapon["damageBonus"]
    weapon.update(str="striking", pot=1, die="d6")
    stats = pathbuilder.read(export).stats
    assert stats["attack_bonus"] == 6  # simple 2 + level 3 + Str 0 + potency 1
    assert stats["damage"] == "2d6"  # striking: two dice; Str +0


# --- refusals -----------------------------------------------------------------------------

def test_a_value_out_of_range_is_refused_with_its_path():
    goblin = fixture("goblin-warrior")
    goblin["system"]["attributes"]["hp"]["max"] = 5000
    assert refusal(goblin) == "system.attributes.hp.max: must be between 1 and 999, not 5000"
    goblin = fixture("goblin-warrior")
    goblin["items"][0]["system"]["bonus"]["value"] = "lots"
    assert refusal(goblin) == "items.0.system.bonus.value: must be a number"


def test_a_missing_figure_is_refused_with_its_path():
    goblin = fixture("goblin-warrior")
    del goblin["system"]["attributes"]["ac"]
    assert refusal(goblin) == "system.attributes.ac.value: is required"
    seoni = fixture("pathbuilder-seoni")
    del seoni["build"]["acTotal"]
    assert refusal(seoni) == "build.acTotal.acTotal: is required"


def test_an_actor_of_another_game_system_is_refused():
    other = copy.deepcopy(fixture("goblin-warrior"))
    other["_stats"] = {"systemId": "dnd5e"}
    assert refusal(other) == "_stats.systemId: this actor belongs to the game system dnd5e, not Pathfinder 2e"
    hazard = fixture("goblin-warrior")
    hazard["type"] = "hazard"
    assert refusal(hazard, source="foundry") == "type: must be an NPC or a character actor, not hazard"


def test_a_file_of_neither_format_is_refused():
    assert refusal({"hello": "world"}).startswith("$: is none of the formats Touché reads: Foundry VTT actor")
    assert refusal("not json {") == "is not JSON (line 1, column 1)"
    assert refusal("[1, 2]") == "$: must be a JSON object"
    assert refusal("") == "is required: choose a file or paste its JSON"


def test_a_sheet_value_the_ruleset_refuses_names_where_it_came_from():
    goblin = fixture("goblin-warrior")
    goblin["items"][0]["system"]["damageRolls"]["ey6azuuwlybw1co71ts0"]["damage"] = "lots of damage"
    assert refusal(goblin).startswith("items.0.system.damageRolls.ey6azuuwlybw1co71ts0.damage: must be dice")


# --- any export: refused or read, never an error of another kind ---------------------------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from _paths(inner, (*prefix, i))


def _replaced(document, path, value):
    if not path:
        return value
    copied = copy.deepcopy(document)
    here = copied
    for step in path[:-1]:
        here = here[step]
    here[path[-1]] = value
    return copied


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["goblin-warrior", "boggard-swampseer", "valeros-level-1", "pathbuilder-seoni"]),
       st.integers(0, 10**6), JSON)
def test_an_export_with_any_value_anywhere_is_read_or_refused_with_a_field(name, pick, value):
    document = fixture(name)
    paths = list(_paths(document))
    mangled = _replaced(document, paths[pick % len(paths)], value)
    try:
        workspace.parse_import({"json": json.dumps(mangled)})
    except Invalid as refused:
        assert set(refused.errors) <= {"json", "source"}
