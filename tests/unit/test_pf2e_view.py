"""What a PF2e duel shows: the players' view, the page's board, progress, legal actions, terms and assumptions."""
from __future__ import annotations

import pytest

from tracker.rules import pf2e
from tracker.rules.pf2e.board import board, choices, terms
from tracker.rules.pf2e.commands import CastSpell, EndTurn, RollInitiative, Strike
from tracker.rules.pf2e.view import SECRET_KEYS

from tests.unit.test_pf2e_edges import ezren, seoni, spell_duel, two_fighters
from tests.unit.test_pf2e_support import Duel, fighter


def test_before_initiative_the_board_waits_for_both_rolls():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b", rank="villano")])
    assert pf2e.progress(d.state) == "Round 1, initiative"
    assert pf2e.actions(d.state) == ["RollInitiative", "Yield", "Disqualify", "Abandon", "SetCondition"]
    b = board(d.state)
    assert (b["round"], b["phase"], b["turn"], b["order"], b["waiting_for"]) == (1, "initiative", "", [],
                                                                               ["Valeros", "Kyra"])
    assert [s["label"] for s in b["sides"]] == ["Side A", "Side B"]
    valeros, kyra = b["sides"][0]["duelists"][0], b["sides"][1]["duelists"][0]
    assert (valeros["npc"], kyra["npc"]) == (False, True)
    assert (valeros["hp"], valeros["hp_max"], valeros["ac"], valeros["attack"], valeros["weapon"], valeros["damage"]) == \
        (40, 40, 20, 10, "Longsword", "1d8+4")
    assert (valeros["conditions"], valeros["slots"], valeros["spell_dc"], valeros["benched"]) == ([], [], None, False)
    c = choices(d.state)
    assert [i["name"] for i in c["initiative"]] == ["Valeros", "Kyra"]
    perception = next(o for o in c["initiative"][0]["skills"] if o["skill"] == "perception")
    assert perception == {"skill": "perception", "label": "Perception", "modifier": 8, "rank": "trained",
                          "gains": "Sense Weakness"}
    d.do(RollInitiative("v", "perception"), roll=[15])
    assert board(d.state)["waiting_for"] == ["Kyra"]


def test_the_gm_board_shows_skills_and_reactions_the_public_one_hides():
    d = two_fighters()
    assert pf2e.progress(d.state) == "Round 1, Valeros's turn"
    gm, public = board(d.state), board(pf2e.public(d.state))
    assert [(p["name"], p["total"], p["skill"], p["current"]) for p in gm["order"]] == \
        [("Valeros", 23, "Perception", True), ("Kyra", 13, "Perception", False)]
    assert [(p["name"], p["total"], p["skill"]) for p in public["order"]] == [("Valeros", 23, ""), ("Kyra", 13, "")]
    mine = gm["sides"][0]["duelists"][0]
    assert (mine["reaction"], mine["skill"], mine["turn"], mine["initiative"]) == ("Sense Weakness", "Perception", True, 23)
    theirs = public["sides"][0]["duelists"][0]
    assert (theirs["reaction"], theirs["skill"], theirs["reacted"], theirs["focus"]) == ("", "", False, "")
    assert (gm["pending"], public["pending"]) == ("", None)
    view = pf2e.public(d.state)
    assert not set(SECRET_KEYS) & set(view)
    assert view["rolls"] == {"v": {"total": 23}, "k": {"total": 13}} and view["waiting"] is False
    assert pf2e.actions(d.state) == ["ActSecond", "Strike", "Demoralize", "Feint", "OtherAction", "EndTurn", "Yield", "Disqualify", "Abandon", "SetCondition"]
    c = choices(d.state)
    assert (c["turn"], c["turn_name"], c["strike_number"], c["targets"]) == ("v", "Valeros", 1, [{"id": "k", "name": "Kyra"}])
    assert c["reactions"] == [{"value": "sense_weakness", "label": "Sense Weakness"}]
    d.do(Strike(), attack=[2])
    assert choices(d.state)["strike_number"] == 2
    assert pf2e.actions(d.state)[:2] == ["Strike", "Demoralize"]  # acted: no more acting second


def test_conditions_show_on_the_board():
    d = two_fighters(victory="knockout")
    d.state = dict(d.state, frightened={"v": 0, "k": 2}, off_guard=["k"])
    kyra = board(d.state)["sides"][1]["duelists"][0]
    assert kyra["conditions"] == [{"name": "Frightened 2", "lasts": "−1 at the end of each of their turns"},
                                  {"name": "Off-guard (−2 AC)", "lasts": "until the start of their next turn"}]
    assert (kyra["frightened"], kyra["off_guard"]) == (2, True)
    d.state = dict(d.state, hp={"v": 40, "k": 0})
    assert board(d.state)["sides"][1]["duelists"][0]["conditions"][-1] == {"name": "Knocked out", "lasts": "0 HP"}


def test_a_pending_spell_waits_on_the_board_and_only_the_gm_sees_who_may_counter():
    d = spell_duel()
    d.do(CastSpell("Force Barrage", 1, "occult", damage=1))
    assert pf2e.actions(d.state) == ["DuelingCounter", "DeclineCounter", "Yield", "Disqualify", "Abandon", "SetCondition"]
    gm = board(d.state)
    assert gm["pending"] == ("Force Barrage (occult, rank 1) waits: an opponent focused on that tradition "
                             "may use Dueling Counter.")
    assert gm["spells"] == [{"caster": "Ezren", "spell": "Force Barrage", "rank": 1, "tradition": "occult",
                             "cantrip": False, "result": "waiting for a counter"}]
    assert board(pf2e.public(d.state))["spells"][0]["result"] == "cast"
    assert pf2e.public(d.state)["waiting"] is True
    assert choices(d.state)["counters"] == [{"id": "s", "name": "Seoni", "slots": ["1", "2", "3"]}]
    ezren_ = gm["sides"][0]["duelists"][0]
    assert ezren_["slots"] == [{"rank": "1", "left": 2, "expended": 1}, {"rank": "2", "left": 2, "expended": 0}]
    assert (ezren_["focus"], ezren_["spell_dc"]) == ("arcane", 20)


def test_a_spellcasting_duel_offers_spells_not_strikes():
    d = spell_duel()
    assert pf2e.actions(d.state) == ["CastSpell", "Demoralize", "OtherAction", "ChangeTraditionFocus", "EndTurn", "Yield", "Disqualify", "Abandon", "SetCondition"]
    assert choices(d.state)["slots"] == ["1", "2"]


def test_terms_in_a_few_words_each():
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], melee_only=False, no_poison=False)
    assert terms(d.state) == []
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], no_reach=True, item_level_cap=0,
             banned_spells="healing", penalty="exile")
    assert terms(d.state) == ["melee only", "no poison", "no reach weapons", "items up to level 0",
                              "banned spells: healing", "penalty for cheating: exile"]


@pytest.mark.parametrize("setting, line", [(True, "Multiple attack penalty applies (−5/−10, agile −4/−8)."),
                                           (False, "Multiple attack penalty is off.")])
def test_assumptions_follow_the_multiple_attack_penalty_setting(setting, line):
    d = Duel([fighter("v", "Valeros", "a"), fighter("k", "Kyra", "b")], attack_penalty=setting)
    notes = pf2e.assumptions(d.state)
    assert line in notes
    assert "Only melee Strikes are accepted." in notes
    assert not any(n.startswith("Counteract check") for n in notes)


@pytest.mark.parametrize("counteract_with, words", [("skill", "the focus skill's modifier"),
                                                    ("spell_attack", "spell attack (spell DC − 10)")])
def test_assumptions_name_the_counteract_check_in_spell_duels(counteract_with, words):
    d = Duel([ezren(), seoni()], kind="spellcasting", counteract_with=counteract_with)
    notes = pf2e.assumptions(d.state)
    assert f"Counteract check: d20 + {words} against the caster's spell DC; " \
           "the counteract rank is the expended slot's rank." in notes
    assert "Spellcasting duel: Strikes are not allowed; initiative holds for the whole duel." in notes


def test_the_end_of_a_duel_reads_over_and_offers_escalation():
    d = two_fighters()
    d.do(EndTurn())
    assert pf2e.progress(d.state) == "Round 1, Kyra's turn"
    from tracker.rules.duel import Yield
    d.do(Yield(side="b"))
    assert pf2e.progress(d.state) == "Over"
    assert pf2e.actions(d.state) == ["EscalateToCombat"]
