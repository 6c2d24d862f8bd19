"""The PF2e page drawn whole: every key of the board and of the GM's forms, tag teams, spells, focus."""
from __future__ import annotations

import pytest

from tracker.rules import pf2e
from tracker.rules.pf2e.board import board, choices
from tracker.rules.pf2e.commands import BreakTie, CastSpell, DuelingCounter, EndTurn, RollInitiative, Strike, Tag
from tracker.rules.pf2e.events import Pf2eFrightened

from tests.unit.test_pf2e_edges import spell_duel
from tests.unit.test_pf2e_refusals import four, tag_team, together_tie
from tests.unit.test_pf2e_support import Duel, caster, fighter


def fighter_row(id, name, **changes):
    row = {"id": id, "name": name, "npc": False, "hp": 40, "hp_max": 40, "ac": 20, "attack": 10,
           "weapon": "Longsword", "damage": "1d8+4", "spell_dc": None, "frightened": 0, "conditions": [],
           "off_guard": False, "turn": False, "benched": False, "initiative": None, "skill": "", "reaction": "",
           "reacted": False, "focus": "", "slots": []}
    row.update(changes)
    return row


KNOCKED_OUT = [{"name": "Knocked out", "lasts": "0 HP"}]


def kyra_down_in_tag():
    """Valeros and Kyra on the floor; it is Kyra's turn and she is down, Merisiel too."""
    d = tag_team()
    d.do(EndTurn())
    d.state = dict(d.state, hp=dict(d.state["hp"], k=0, m=0))
    return d


def test_a_tag_team_board_whole_for_the_gm_and_the_table():
    d = kyra_down_in_tag()
    gm = board(d.state)
    assert gm == {
        "round": 1, "phase": "turns", "turn": "Kyra", "actions_left": 3,
        "order": [{"id": "v", "name": "Valeros", "total": 24, "skill": "Intimidation", "current": False},
                  {"id": "k", "name": "Kyra", "total": 19, "skill": "Intimidation", "current": True}],
        "tiers": [], "waiting_for": [], "pending": "", "proposal": None, "spells": [],
        "terms": ["melee only", "no poison"],
        "sides": [
            {"side": "a", "label": "Side A", "duelists": [
                fighter_row("v", "Valeros", initiative=24, skill="Intimidation", reaction="Bullying Press"),
                fighter_row("m", "Merisiel", hp=0, conditions=KNOCKED_OUT, benched=True)]},
            {"side": "b", "label": "Side B", "duelists": [
                fighter_row("k", "Kyra", hp=0, conditions=KNOCKED_OUT, turn=True, initiative=19,
                            skill="Intimidation", reaction="Bullying Press"),
                fighter_row("h", "Harsk", benched=True)]}]}
    public = board(pf2e.public(d.state))
    assert public["order"][0] == {"id": "v", "name": "Valeros", "total": 24, "skill": "", "current": False}
    assert public["sides"][0]["duelists"][0] == fighter_row("v", "Valeros", initiative=24)
    assert public["pending"] is None
    assert choices(d.state) == {
        "initiative": [], "tied": [], "turn": "k", "turn_name": "Kyra", "strike_number": 1, "penalty": (0, 0),
        "actions_left": 3, "usual": [], "demoralize": [{"id": "v", "name": "Valeros"}],
        "reactions": [{"value": "bullying_press", "label": "Bullying Press"}],
        "targets": [{"id": "v", "name": "Valeros"}], "slots": [], "focus": None, "new_focus": [],
        "counters": [], "tag_sides": [{"side": "b", "out": "Kyra", "into": "Harsk"}], "readied": ""}
    # knocked out, Kyra has no action of her own (not even a free one): end the turn or tag out
    assert pf2e.actions(d.state) == ["EndTurn", "Tag", "Yield", "Disqualify", "Abandon", "SetCondition"]


@pytest.mark.parametrize("turn, hp, sides", [
    ("v", {}, ["a"]),                      # on their own turn, with a partner standing
    ("v", {"m": 0}, []),                   # nobody to tag in
    ("k", {}, ["b"]),
    ("k", {"v": 0}, ["a", "b"]),           # knocked out: at once, on anyone's turn
    ("k", {"v": 0, "m": 0}, ["b"]),
    ("k", {"h": 0, "k": 0}, []),
])
def test_who_may_tag_now(turn, hp, sides):
    d = tag_team()
    d.state = dict(d.state, turn=turn, hp=dict(d.state["hp"], **hp))
    assert [s["side"] for s in choices(d.state)["tag_sides"]] == sides
    assert ("Tag" in pf2e.actions(d.state)) is bool(sides)


def test_a_tag_duel_waits_only_for_the_duelists_on_the_floor():
    d = four("tag")
    assert board(d.state)["waiting_for"] == ["Valeros", "Kyra"]
    assert [i["name"] for i in choices(d.state)["initiative"]] == ["Valeros", "Kyra"]
    d.state = dict(d.state, active={"a": "m", "b": "k"}, hp=dict(d.state["hp"], k=0))
    assert board(d.state)["waiting_for"] == ["Merisiel"]
    d.do(RollInitiative("m", "deception"), roll=[4])
    assert board(d.state)["waiting_for"] == [] and choices(d.state)["initiative"] == []


def test_a_spellcasting_duel_waits_for_everyone_even_the_fallen():
    d = Duel([fighter("e", "Ezren", "a", block=caster()), fighter("s", "Seoni", "b", block=caster(), hp=1)],
             kind="spellcasting")
    d.state = dict(d.state, hp={"e": 30, "s": 0})
    assert board(d.state)["waiting_for"] == ["Ezren", "Seoni"]
    assert [i["name"] for i in choices(d.state)["initiative"]] == ["Ezren", "Seoni"]


def countered_then_cast():
    d = spell_duel()
    d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    d.do(DuelingCounter("s", slot_rank=2), check=[15])
    d.do(EndTurn())
    d.state = dict(d.state, reacted={"e": False, "s": False},
                   reaction={"e": "dueling_counter", "s": "dueling_counter"}, focus={"e": "occult", "s": "arcane"})
    d.do(CastSpell("Fireball", 1, "arcane", damage=3))
    return d


def test_a_spell_duel_board_lists_each_spell_and_each_slot():
    d = countered_then_cast()
    b = board(d.state)
    assert b["spells"] == [
        {"caster": "Ezren", "spell": "Force Barrage", "rank": 1, "tradition": "occult", "cantrip": False,
         "result": "countered"},
        {"caster": "Seoni", "spell": "Fireball", "rank": 1, "tradition": "arcane", "cantrip": False, "result": "cast"}]
    assert b["pending"] == ""
    assert b["sides"][1]["duelists"][0] == {
        "id": "s", "name": "Seoni", "npc": False, "hp": 32, "hp_max": 32, "ac": 17, "attack": 6, "weapon": "Staff",
        "damage": "1d4", "spell_dc": 19, "frightened": 0, "conditions": [], "off_guard": False, "turn": True,
        "benched": False, "initiative": 19, "skill": "Occultism", "reaction": "Dueling Counter", "reacted": False,
        "focus": "arcane",
        "slots": [{"rank": "1", "left": 1, "expended": 1}, {"rank": "2", "left": 1, "expended": 1},
                  {"rank": "3", "left": 1, "expended": 0}]}
    assert b["sides"][0]["duelists"][0]["hp"] == 27
    assert choices(d.state) == {
        "initiative": [], "tied": [], "turn": "s", "turn_name": "Seoni", "strike_number": 1, "penalty": (0, 0),
        "actions_left": 1, "usual": [], "demoralize": [{"id": "e", "name": "Ezren"}], "reactions": [],
        "targets": [{"id": "e", "name": "Ezren"}], "slots": ["1", "2", "3"], "focus": "arcane",
        "new_focus": [{"value": "occult", "label": "Occult"}], "counters": [], "tag_sides": [],
        "readied": ""}
    assert pf2e.progress(d.state) == "Round 1, Seoni's turn"


def test_a_pending_spell_offers_the_counter_only_to_a_focused_opponent_with_a_reaction_and_a_slot():
    d = spell_duel()
    d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    assert choices(d.state)["counters"] == [{"id": "s", "name": "Seoni", "slots": ["1", "2", "3"]}]
    for change in ({"reacted": {"s": True}}, {"focus": {"e": "arcane", "s": "arcane"}},
                   {"reaction": {"e": "dueling_counter", "s": None}}, {"hp": {"e": 30, "s": 0}}):
        assert choices(dict(d.state, **change))["counters"] == []
    slotless = dict(d.state, slots=dict(d.state["slots"], s={"1": 0, "2": 1, "3": 0}))
    assert choices(slotless)["counters"] == [{"id": "s", "name": "Seoni", "slots": ["2"]}]


def test_a_pending_hit_is_described_with_its_total_and_ac():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")])
    d.do(RollInitiative("v", "perception"), roll=[15])
    d.do(RollInitiative("k", "deception"), roll=[5])
    d.do(Strike(), attack=[12])
    assert board(d.state)["pending"] == "Kyra may use Deceptive Sidestep against Valeros's hit (22 against AC 20)."
    assert pf2e.actions(d.state) == ["DeceptiveSidestep", "DeclineSidestep", "Yield", "Disqualify", "Abandon",
                                     "SetCondition"]


def test_initiative_choices_name_what_each_skill_grants_by_kind():
    ezren = fighter("e", "Ezren", "b", block=caster(nature=4, nature_rank="trained"))
    m = Duel([fighter("v", "Valeros", "a"), ezren], kind="mixed")
    [_, theirs] = choices(m.state)["initiative"]
    assert theirs == {"id": "e", "name": "Ezren", "frightened": 0, "skills": [
        {"skill": "deception", "label": "Deception", "modifier": 7, "rank": "trained", "gains": "Deceptive Sidestep"},
        {"skill": "intimidation", "label": "Intimidation", "modifier": 9, "rank": "expert", "gains": "Bullying Press"},
        {"skill": "perception", "label": "Perception", "modifier": 7, "rank": "trained", "gains": "Sense Weakness"},
        {"skill": "arcana", "label": "Arcana", "modifier": 10, "rank": "expert", "gains": "Dueling Counter, arcane focus"},
        {"skill": "nature", "label": "Nature", "modifier": 4, "rank": "trained", "gains": "Dueling Counter, primal focus"},
        {"skill": "occultism", "label": "Occultism", "modifier": 6, "rank": "trained",
         "gains": "Dueling Counter, occult focus"},
        {"skill": "religion", "label": "Religion", "modifier": 0, "rank": "untrained", "gains": ""}],
        "usual": "arcana"}  # no skill rolled yet: his best trained one of a mixed duel (Arcana +10)
    s = Duel([fighter("v", "Valeros", "a", block=caster()), ezren], kind="spellcasting")
    s.state = dict(s.state, frightened={"v": 0, "e": 2})
    [_, theirs] = choices(s.state)["initiative"]
    assert theirs["frightened"] == 2
    assert [(o["skill"], o["gains"]) for o in theirs["skills"]] == [
        ("perception", ""), ("arcana", "Dueling Counter, arcane focus"), ("nature", "Dueling Counter, primal focus"),
        ("occultism", "Dueling Counter, occult focus"), ("religion", "")]
    bare = dict(s.state, duelists=[dict(s.state["duelists"][0], stats={"hp_max": 9})] + s.state["duelists"][1:])
    assert choices(bare)["initiative"][0]["skills"][0] == {"skill": "perception", "label": "Perception",
                                                           "modifier": 0, "rank": "untrained", "gains": ""}


def test_a_mixed_duel_after_initiative_offers_every_focus_but_the_current_one():
    m = Duel([fighter("v", "Valeros", "a"), fighter("e", "Ezren", "b", block=caster(nature=4, nature_rank="trained"))],
             kind="mixed")
    m.do(RollInitiative("v", "deception"), roll=[15])
    m.do(RollInitiative("e", "arcana"), roll=[2])
    m.do(EndTurn())
    c = choices(m.state)
    assert (c["focus"], c["new_focus"], c["slots"]) == \
        ("arcane", [{"value": "primal", "label": "Primal"}, {"value": "occult", "label": "Occult"}], ["1", "2"])
    assert pf2e.actions(m.state) == ["Strike", "CastSpell", "Demoralize", "Feint",
                                     "ChangeTraditionFocus", "EndTurn", "OtherAction", "Yield", "Disqualify", "Abandon", "SetCondition"]
    assert m.state["slots"]["e"] == {"1": 3, "2": 2}
    m.state = dict(m.state, slots={"v": {}, "e": {"1": 0, "2": 2, "10": 1}})
    assert choices(m.state)["slots"] == ["2", "10"]


def test_an_initiative_tie_between_pcs_shows_the_tied_and_waits_for_the_gm():
    d = together_tie()
    assert pf2e.progress(d.state) == "Round 1, initiative tie"
    assert pf2e.actions(d.state) == ["BreakTie", "Yield", "Disqualify", "Abandon", "SetCondition"]
    c = choices(d.state)
    assert c["tied"] == [{"id": "v", "name": "Valeros"}, {"id": "m", "name": "Merisiel"}]
    assert (c["turn"], c["turn_name"], c["reactions"], c["targets"], c["slots"], c["focus"], c["new_focus"]) == \
        (None, "", [], [], [], None, [])
    b = board(d.state)
    assert [[p["name"] for p in tier] for tier in b["tiers"]] == [["Valeros", "Merisiel"], ["Kyra"], ["Harsk"]]
    assert b["tiers"][0][0] == {"id": "v", "name": "Valeros", "total": 21, "skill": "Intimidation", "current": False}


def test_targets_leave_out_the_fallen_and_the_benched():
    d = four("together")
    for who, die in (("v", 15), ("m", 12), ("k", 10), ("h", 5)):
        d.do(RollInitiative(who, "intimidation"), roll=[die])
    assert choices(d.state)["targets"] == [{"id": "k", "name": "Kyra"}, {"id": "h", "name": "Harsk"}]
    d.state = dict(d.state, hp=dict(d.state["hp"], k=0))
    assert choices(d.state)["targets"] == [{"id": "h", "name": "Harsk"}]
    t = tag_team()
    assert choices(t.state)["targets"] == [{"id": "k", "name": "Kyra"}]


def test_an_npc_is_marked_and_a_judge_proposal_shows():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b", rank="villano")])
    d.do(RollInitiative("v", "perception"), roll=[15])
    d.do(RollInitiative("k", "perception"), roll=[5])
    d.do(Strike(damage=4), attack=[15])
    b = board(d.state)
    assert [s["duelists"][0]["npc"] for s in b["sides"]] == [False, True]
    assert b["proposal"] == {"side": "a", "ending": "first_blood", "detail": "Valeros drew first blood from Kyra", "at": 7}
    assert pf2e.progress(d.state) == "Round 1, the judge must confirm"
    assert pf2e.actions(d.state) == ["ConfirmVictory", "DeclineVictory", "Yield", "Disqualify", "Abandon",
                                     "SetCondition"]


# --- one hit point, one slot: still standing, still there ------------------------------------------

def test_one_hp_is_standing_on_the_board_and_in_the_forms():
    d = four("together")
    for who, die in (("v", 15), ("m", 12), ("k", 10), ("h", 5)):
        d.do(RollInitiative(who, "intimidation"), roll=[die])
    d.state = dict(d.state, hp=dict(d.state["hp"], k=1))
    assert choices(d.state)["targets"] == [{"id": "k", "name": "Kyra"}, {"id": "h", "name": "Harsk"}]
    assert board(d.state)["sides"][1]["duelists"][0]["conditions"] == []
    d.do(Strike(target="k", damage=1), attack=[15])
    assert d.hp("k") == 0
    fresh_round = four("together")
    fresh_round.state = dict(fresh_round.state, hp=dict(fresh_round.state["hp"], v=1))
    assert board(fresh_round.state)["waiting_for"] == ["Valeros", "Merisiel", "Kyra", "Harsk"]


@pytest.mark.parametrize("hp, sides", [
    ({"m": 1}, ["a"]),            # a partner at 1 HP can come in
    ({"v": 1}, ["a"]),            # on his own turn, whatever his HP
])
def test_tagging_at_one_hp(hp, sides):
    d = tag_team()
    d.state = dict(d.state, hp=dict(d.state["hp"], **hp))
    assert [s["side"] for s in choices(d.state)["tag_sides"]] == sides
    assert "Tag" in pf2e.actions(d.state)


def test_a_duelist_at_one_hp_off_their_turn_cannot_be_tagged_out():
    d = tag_team()
    d.state = dict(d.state, turn="k", hp=dict(d.state["hp"], v=1))
    assert [s["side"] for s in choices(d.state)["tag_sides"]] == ["b"]
    d.state = dict(d.state, turn="k", hp=dict(d.state["hp"], v=0))
    assert [s["side"] for s in choices(d.state)["tag_sides"]] == ["a", "b"]


def test_a_counter_at_one_hp_with_one_slot_left():
    d = spell_duel()
    d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    d.state = dict(d.state, hp={"e": 30, "s": 1})
    assert choices(d.state)["counters"] == [{"id": "s", "name": "Seoni", "slots": ["1", "2", "3"]}]
    [attempt] = d.do(DuelingCounter("s", slot_rank=3), check=[10])  # rank 3 has a single slot
    assert attempt.counteracted and d.state["slots"]["s"]["3"] == 0


def test_no_slot_left_means_no_counter_and_the_spell_does_not_wait():
    d = spell_duel()
    d.state = dict(d.state, slots=dict(d.state["slots"], s={"1": 0, "2": 0, "3": 0}))
    [cast, damage] = d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    assert (cast.pending, damage.amount) == (False, 1)


def test_a_caster_s_own_side_never_counters_it():
    d = spell_duel()
    d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    d.state = dict(d.state, focus={"e": "occult", "s": "occult"}, reaction={"e": "dueling_counter", "s": "dueling_counter"})
    assert [c["id"] for c in choices(d.state)["counters"]] == ["s"]


def test_slot_ranks_sort_as_numbers():
    from tests.unit.test_pf2e_support import caster as caster_sheet
    d = Duel([fighter("e", "Ezren", "a", block=caster_sheet(spell_slots="2:1, 10:1")),
              fighter("s", "Seoni", "b", block=caster_sheet())], kind="spellcasting")
    assert [s["rank"] for s in board(d.state)["sides"][0]["duelists"][0]["slots"]] == ["2", "10"]


def test_a_used_reaction_shows_to_the_gm_and_is_offered_no_more():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")])
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "perception"), roll=[5])
    assert choices(d.state)["reactions"] == [{"value": "bullying_press", "label": "Bullying Press"}]
    d.do(Strike(reaction="bullying_press"), attack=[2])
    assert choices(d.state)["reactions"] == []
    assert board(d.state)["sides"][0]["duelists"][0]["reacted"] is True
    assert board(pf2e.public(d.state))["sides"][0]["duelists"][0]["reacted"] is False


def test_a_tie_below_the_top_is_the_one_offered_and_broken():
    d = four()
    for who, die in (("h", 20), ("v", 12), ("m", 12), ("k", 2)):
        d.do(RollInitiative(who, "intimidation"), roll=[die])
    assert choices(d.state)["tied"] == [{"id": "v", "name": "Valeros"}, {"id": "m", "name": "Merisiel"}]
    d.do(BreakTie("m"))
    assert d.state["order"] == ["h", "m", "v", "k"]


def test_a_partner_tagged_in_mid_round_is_not_waited_for_and_feels_bullying_press():
    d = tag_team()
    d.do(Tag(side="a"))
    assert board(d.state)["waiting_for"] == []
    events = d.do(Strike(reaction="bullying_press", damage=3), attack=[15])
    assert events[-1] == Pf2eFrightened(duelist="m", value=1, cause="Bullying Press")


def test_everyone_rolls_once_in_a_spell_duel_even_at_0_hp_and_perception_grants_no_reaction():
    d = Duel([fighter("e", "Ezren", "a", block=caster()), fighter("s", "Seoni", "b", block=caster())],
             kind="spellcasting")
    d.state = dict(d.state, hp={"e": 30, "s": 0})
    d.do(RollInitiative("s", "perception"), roll=[5])
    d.do(RollInitiative("e", "perception"), roll=[5])
    assert d.state["reaction"] == {"s": None, "e": None}


def test_both_off_guard_is_no_invariant_problem():
    d = tag_team()
    assert pf2e.invariants(dict(d.state, off_guard=["v", "m", "k", "h"])) == []


@pytest.mark.parametrize("valeros_hp, tag", [(0, True), (1, False)])
def test_only_a_knocked_out_duelist_may_be_tagged_out_off_their_turn(valeros_hp, tag):
    d = tag_team()
    d.state = dict(d.state, turn="k", hp=dict(d.state["hp"], v=valeros_hp, h=0))  # Kyra has nobody to tag in
    assert ("Tag" in pf2e.actions(d.state)) is tag
