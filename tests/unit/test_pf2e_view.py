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
    assert pf2e.actions(d.state) == ["ActSecond", "Strike", "Demoralize", "Feint", "EndTurn", "OtherAction", "Yield", "Disqualify", "Abandon", "SetCondition"]
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
    assert pf2e.actions(d.state) == ["CastSpell", "Demoralize", "ChangeTraditionFocus", "EndTurn", "OtherAction", "Yield", "Disqualify", "Abandon", "SetCondition"]
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


COMMON_NOTES = [
    "Initiative ties: an NPC acts before a PC; between two PCs or two NPCs the GM decides.",
    "Frightened is a status penalty to attack rolls, initiative and counteract checks, AC and spell DC; "
    "it drops by 1 at the end of its holder's turn.",
    "Each duelist has one reaction per round; reactions come back when a new round starts.",
    "Deceptive Sidestep: a non-critical hit waits until the target uses or declines it.",
    "Each turn has three actions: a Strike, Demoralize, Feint and Change Tradition Focus cost 1, a spell what the GM "
    "enters (2 unless told), any other action its stated cost; the GM ends the turn.",
    "Demoralize: Intimidation against the target's Will DC (10 + Will); success frightened 1, critical success "
    "frightened 2; the target is then immune to that duelist's Demoralize for the rest of the duel (10 minutes).",
    "Frightened lowers skill checks and the DCs they are rolled against too.",
    "Initiative without a chosen skill uses the duelist's usual one: the skill they last rolled in this duel, "
    "else [assumed] their best trained skill.",
    "Multiple attack penalty applies (−5/−10, agile −4/−8).",
    "Feint: Deception against the target's Perception DC (10 + Perception); success: off-guard against the "
    "feinter's next melee Strike this turn; critical success: against their melee Strikes until the end of the "
    "feinter's next turn; critical failure: the feinter is off-guard against the target's melee Strikes until the "
    "end of their next turn.",
]


def test_assumptions_of_a_mixed_duel_with_a_custom_victory_word_for_word():
    from tests.unit.test_pf2e_support import caster
    d = Duel([fighter("v", "Valeros", "a", block=caster()), fighter("k", "Kyra", "b", block=caster())], kind="mixed",
             victory="custom", victory_text="a sword drops", melee_only=False, counteract_with="spell_attack")
    assert pf2e.assumptions(d.state) == [
        "Duelists: one against one.",
        "Victory condition: a custom condition: a sword drops; the rules propose it and Magistrate Ilse confirms it.",
        *COMMON_NOTES,
        "Counteract check: d20 + spell attack (spell DC − 10) against the caster's spell DC; "
        "the counteract rank is the expended slot's rank.",
        "A spell waits while an opponent with the matching tradition focus may counter it.",
        "Mixed duel: the tradition focus comes from that round's initiative roll and lasts the round."]


def test_assumptions_of_a_tag_team_knockout_word_for_word_and_the_gm_judging():
    from tests.unit.test_pf2e_refusals import four
    d = four("tag")
    assert pf2e.assumptions(d.state) == [
        "Duelists: pairs as tag teams.",
        "Victory condition: knockout; the rules propose it and Magistrate Ilse confirms it.",
        "[assumed] A knockout the judge declined may still be confirmed while the side stays at 0 HP (a setting).",
        *COMMON_NOTES,
        "Tag teams: the first duelist listed on each side starts; tagging ends the outgoing duelist's turn (or may be "
        "done at once when the active duelist is knocked out); the partner rolls initiative from the next round.",
        "Only melee Strikes are accepted."]
    d.state = dict(d.state, judge="")
    assert pf2e.assumptions(d.state)[1] == "Victory condition: knockout; the rules propose it and the GM confirms it."


def test_progress_names_the_round_in_every_phase():
    from tests.unit.test_pf2e_refusals import together_tie
    d = two_fighters()
    for state, words in [(dict(d.state, round=3, proposal={"side": "a"}), "Round 3, the judge must confirm"),
                         (dict(d.state, round=4, turn=None, phase="ordering"), "Round 4, initiative tie"),
                         (dict(d.state, round=5, turn=None, phase="initiative"), "Round 5, initiative")]:
        assert pf2e.progress(state) == words
    assert pf2e.progress(together_tie().state) == "Round 1, initiative tie"


def test_alone_on_the_floor_a_duelist_neither_acts_second_nor_strikes():
    d = two_fighters(victory="custom", victory_text="the judge's word")
    d.state = dict(d.state, hp={"v": 40, "k": 0})
    d.do(EndTurn())
    d.do(RollInitiative("v", "perception"), roll=[9])
    assert d.state["order"] == ["v"]
    # nobody stands against him: no Strike, Demoralize or Feint, only an action the GM names (OtherAction)
    assert pf2e.actions(d.state) == ["EndTurn", "OtherAction", "ConfirmVictory", "Yield", "Disqualify", "Abandon",
                                     "SetCondition"]


def test_a_knocked_out_duelist_on_their_turn_may_only_end_it():
    d = two_fighters(victory="custom", victory_text="the judge's word")
    d.state = dict(d.state, hp={"v": 0, "k": 40})
    # no action of his own, not even a free one; setting a condition is the GM's hand, not his turn
    assert pf2e.actions(d.state) == ["ActSecond", "EndTurn", "ConfirmVictory", "Yield", "Disqualify", "Abandon",
                                     "SetCondition"]
