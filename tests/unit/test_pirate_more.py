"""Pirate duels, more edges: the assumptions word for word, the fall endings for either winner,
a state without warnings."""
from __future__ import annotations

import pytest

from tracker.rules import pirate
from tracker.rules.duel import other
from tracker.rules.pirate.invariants import ENDINGS

from tests.unit.test_pirate import Duel

SIDES = ("a", "b")
INITIATIVE = ("Each round (exchange) both duelists roll initiative, d20 + Iniciativa; equal totals are rerolled "
              "by both; the higher acts first.")
WIT_INITIATIVE = ("Each exchange both duelists roll initiative, d20 + Iniciativa; equal totals are rerolled "
                  "by both; the higher acts first.")  # a duel of wits counts exchanges, never rounds
EDGE = "Ventaja and Desventaja roll 2d20 and keep the higher or lower; together they cancel."


def test_a_sword_duel_s_assumptions_word_for_word():
    assert pirate.assumptions(Duel("sword").state) == [
        INITIATIVE,
        "Fought to first blood.",
        "An attack is d20 + ATQ against the defender's DEF and hits on a total equal to or higher than DEF; a hit "
        "rolls the weapon's damage against PV. No natural 20 or 1 rules.",
        "Only a hit that deals damage counts toward first blood or the hits.",
        "At 0 PV the duel waits for the GM to record the duelist down or dead; in a duel to the death only death "
        "(or a yield, disqualification or abandon) ends it.",
        EDGE]


def test_a_wit_duel_s_assumptions_word_for_word():
    assert pirate.assumptions(Duel("wit").state) == [
        WIT_INITIATIVE,
        "In an exchange each duelist insults once, in initiative order.",
        "An insult is d20 + Comunicación + its modifier against the target's SAB, hitting on equal or higher; a hit "
        "rolls its damage against CAR, which never touches PV.",
        "Insult table: Burla ingeniosa +1 to hit, 1d4; Insulto directo +0 to hit, 1d6; Provocación +0 to hit, 1d8, "
        "the insulter takes 1d4 on a miss; Humillación -2 to hit, 1d10.",
        "After 3 exchanges the most damage dealt wins; losing all CAR ends it at once.",
        "A tie on points goes to sudden death: more exchanges until one leads after a full exchange.",
        "Points are the damage dealt to the opponent; damage an insulter takes on a miss is not the opponent's point.",
        EDGE]


@pytest.mark.parametrize("winner", SIDES)
@pytest.mark.parametrize("fate, death, down", [
    ("dead", "", ""), ("down", "the loser's fate is down", ""), (None, "the loser's fate is not ruled",
                                                                "the loser's fate is not ruled")])
def test_the_fall_endings_for_either_winner(winner, fate, death, down):
    duel = Duel("sword", sword_victory="death")
    fighters = {s: dict(duel.state["fighters"][s]) for s in SIDES}
    fighters[other(winner)]["fate"] = fate
    fighters[winner]["fate"] = "dead" if fate is None else None  # the winner's own fate never counts
    state = dict(duel.state, fighters=fighters)
    assert (ENDINGS["death"](state, winner), ENDINGS["down"](state, winner)) == (death, down)


def test_a_duel_without_warnings_has_none():
    duel = Duel("sword")
    settings = {k: v for k, v in duel.state["settings"].items() if k != "warnings"}
    assert pirate.warnings(dict(duel.state, settings=settings)) == []


@pytest.mark.parametrize("verdict, worthy", [("worthy", True), ("unworthy", False)])
def test_a_worthiness_mark_for_either_verdict(verdict, worthy):
    from tracker.rules.pirate.commands import MarkWorthiness
    from tracker.rules.pirate.events import PirateWorthinessMarked
    duel = Duel("sword")
    assert duel.run(MarkWorthiness(side="b", verdict=verdict)) == [PirateWorthinessMarked(side="b", worthy=worthy,
                                                                                         note="")]


@pytest.mark.parametrize("n, words", [(0, "no shots"), (1, "1 shot"), (2, "2 shots")])
def test_shots_left_in_words(n, words):
    from tracker.rules.pirate.describe import _shots
    assert _shots(n) == words


@pytest.mark.parametrize("side", SIDES)
def test_a_backlash_die_typed_out_of_range_names_the_insult(side):
    from tracker.rules.pirate.commands import Insult
    from tests.unit.test_pirate_edges import first
    duel = Duel("wit")
    first(duel, side)
    refusal = duel.refused(Insult(side=side, insult="Provocación"), **{side: [1, 9]})
    assert refusal.reason == "a d4 cannot show 9 (backlash of Provocación)"


def test_car_may_reach_exactly_0_and_not_below():
    from tracker.rules.pirate.invariants import invariants
    duel = Duel("wit")
    fighters = {s: dict(duel.state["fighters"][s]) for s in SIDES}
    car = fighters["a"]["car"]
    wounds = [{"character": "ines", "track": "CAR", "amount": car, "at": 5, "note": ""}]
    fighters["a"]["car"] = 0
    assert [p for p in invariants(dict(duel.state, fighters=fighters, wounds=wounds)) if "CAR" in p] == []


def test_an_unknown_command_is_refused_by_name():
    from tracker.rules.base import Refused
    from tracker.rules.dice import fixed_dice
    from tracker.rules.duel import decide_ending

    class Dance:
        pass

    with pytest.raises(Refused) as refusal:
        decide_ending(Duel("sword").state, Dance())
    assert refusal.value.reason == "unknown command Dance"


def test_invalid_input_names_each_field_in_its_message():
    from tracker.rules.base import Invalid
    problem = Invalid({"pv": "must be a number", "def": "is required"})
    assert problem.message == "pv must be a number; def is required"
    assert problem.fields == {"pv": "must be a number", "def": "is required"}
    assert str(problem) == "pv: must be a number; def: is required"


# --- the log, line by line -----------------------------------------------------------------------

def log(duel) -> list[str]:
    """Every event's line, each described from the state before it."""
    state, lines = None, []
    for at, event in enumerate(duel.events, 1):
        lines.append(pirate.describe(state, event))
        state = pirate.evolve(state, event, at)
    return lines


def test_a_sword_duel_s_log_word_for_word():
    from tracker.rules.pirate.commands import Attack, MarkWorthiness, RollInitiative
    duel = Duel("sword", sword_victory="hits", hits=2)
    duel.run(RollInitiative(), a=[10, 7], b=[11, 3])
    duel.run(Attack(side="a", ventaja=True), a=[4, 15, 6])
    duel.run(Attack(side="b", desventaja=True, ventaja=True), b=[5])
    duel.run(MarkWorthiness(side="b", verdict="unworthy", note="fights dirty"))
    duel.run(MarkWorthiness(side="a", verdict="worthy"))
    assert log(duel) == [
        "Sword duel: Inés vs Lope, to 2 hits.",
        "Round 1 initiative: Inés 9 (d20s 10, 7: ties rerolled), Lope 4 (d20s 11, 3: ties rerolled); Inés goes first.",
        "Round 1: Inés attacks Lope with Sable, with Ventaja (2d20, keep the higher) 4, 15 → 15 +5 = 20 vs DEF 12: "
        "hit, 1d8 [6] = 6; Lope's PV 9 → 3.",
        "Round 1: Lope attacks Inés with Espada ropera, d20 5 (Ventaja and Desventaja cancel) +3 = 8 vs DEF 13: miss.",
        "Lope is marked an unworthy opponent: fights dirty.",
        "Inés is marked a worthy opponent."]


def test_a_wit_duel_s_log_word_for_word():
    from tracker.rules.pirate.commands import Insult
    from tests.unit.test_pirate_edges import first
    duel = Duel("wit", exchanges=1, tie="draw")
    first(duel, "a")
    duel.run(Insult(side="a", insult="Provocación"), a=[1, 3])
    duel.run(Insult(side="b", insult="Burla ingeniosa"), b=[20, 2])
    assert log(duel) == [
        "Duelo de labia (wit duel): Inés vs Lope, 1 exchange, a tie goes to draw.",
        "Exchange 1 initiative: Inés 22 (d20 20), Lope 2 (d20 1); Inés goes first.",
        "Exchange 1: Inés tries Provocación on Lope, d20 1 +4 = 5 vs SAB 11: miss; the backlash 1d4 [3] costs Inés "
        "3 CAR (10 → 7).",
        "Exchange 1: Lope tries Burla ingeniosa on Inés, d20 20 +3 = 23 vs SAB 12: hit, 1d4 [2] = 2; Inés's CAR 7 → 5.",
        "Duel ended: Lope won by points (2 to 0)."]
    assert log(Duel("wit", wit_end="humiliation"))[0] == \
        "Duelo de labia (wit duel): Inés vs Lope, until one is humiliated."
    assert log(Duel("wit", exchanges=3))[0] == \
        "Duelo de labia (wit duel): Inés vs Lope, 3 exchanges, a tie goes to sudden death."


def test_a_pistol_duel_s_log_word_for_word():
    from tracker.rules.pirate.commands import Shoot
    from tests.unit.test_pirate import PISTOLS
    from tests.unit.test_pirate_edges import first
    duel = Duel("pistol", distance=12, shots=2, **PISTOLS)
    first(duel, "b")
    duel.run(Shoot(side="b"), b=[3, 2])
    assert log(duel) == [
        "Pistol duel: Inés vs Lope, at 12 paces, 2 shots each.",
        "Round 1 initiative: Inés 3 (d20 1), Lope 21 (d20 20); Lope goes first.",
        "Round 1: Lope fires Pistola at Inés from 12 paces, beyond its range of 10, with Desventaja (2d20, keep the "
        "lower) 3, 2 → 2 +3 = 5 vs DEF 13: miss; 1 shot left."]


@pytest.mark.parametrize("fate, line", [("down", "Lope is down (alive, out of the fight)."), ("dead", "Lope is dead.")])
def test_a_fall_s_line(fate, line):
    from tracker.rules.pirate.events import PirateDuelistFell
    duel = Duel("sword", sword_victory="death")
    assert pirate.describe(duel.state, PirateDuelistFell(side="b", fate=fate)) == line
    assert log(Duel("sword", sword_victory="death"))[0] == "Sword duel: Inés vs Lope, to the death."
    assert log(Duel("sword"))[0] == "Sword duel: Inés vs Lope, to first blood."


# --- set-up: each refusal by its field, the header, the warnings ----------------------------------

def start(setup: dict, people=None, header=None):
    from tracker.rules.dice import fixed_dice
    from tests.unit.test_pirate import HEADER, duelists
    return pirate.start(header or HEADER, setup, people if people is not None else duelists(), fixed_dice())


def start_refused(setup: dict, people=None):
    from tracker.rules.base import Refused
    with pytest.raises(Refused) as refusal:
        start(setup, people)
    return refusal.value.reason, refusal.value.field


def test_each_set_up_refusal_reads_and_names_its_field():
    from tests.unit.test_pirate import duelists
    ines, lope = duelists()
    assert start_refused({"kind": "sword"}, [ines, dict(lope, side="a")]) == \
        ("a pirate duel is one against one: one duelist per side", "duelists")
    assert start_refused({"kind": "sword"}, [ines]) == ("a duel needs a duelist on each side", "duelists")
    assert start_refused({"kind": "sword"}, [ines, dict(lope, stats=None)]) == \
        ("Lope has no pirate stats on their sheet: fill them in first", "duelists")
    assert start_refused({"kind": "pistol"}, [ines, dict(lope, current={"PV": 0})]) == \
        ("Lope is at 0 PV and cannot fight a pistol duel", "duelists")
    [started] = start({"kind": "sword"}, [ines, dict(lope, current={"PV": 1})])
    assert started.settings["weapons"]["b"]["name"] == "Espada ropera"
    assert start_refused({"kind": "sword", "weapon_b": "Hacha"}) == \
        ("Lope has no sword called Hacha (their swords: Espada ropera)", "weapon_b")
    no_pistol = dict(lope, stats=dict(lope["stats"], weapons=[w for w in lope["stats"]["weapons"] if w["kind"] != "pistol"]))
    assert start_refused({"kind": "pistol", "distance": 5, "second_a": "T", "second_b": "B", "weapon_b": "Pistola"},
                         [ines, no_pistol]) == ("Lope has no pistol called Pistola (their pistols: none)", "weapon_b")
    assert start_refused({"kind": "pistol", "distance": 5, "second_a": "T", "second_b": "B"}, [ines, no_pistol]) == \
        ("Lope has no pistol on their sheet", "weapon_b")
    [started] = start({"kind": "wit"}, [ines, dict(lope, current={"PV": 0})])  # words hurt no PV
    assert started.kind == "wit"


def test_the_header_goes_into_the_first_event_with_empty_defaults():
    [started] = start({"kind": "wit"})
    assert (started.duel_id, started.campaign_id, started.session_id, started.ruleset) == ("d1", "c1", "s1", "pirate")
    assert (started.challenger, started.stakes, started.judge) == ("a", "a ship", "Capitana Ruiz")
    [bare] = start({"kind": "wit"}, header={"duel_id": "d2", "campaign_id": "c2", "session_id": "s2"})
    assert (bare.challenger, bare.stakes, bare.judge) == ("", "", "")


def test_the_warnings_name_who_the_agreed_hits_can_kill():
    from tests.unit.test_pirate import PISTOLS

    def warned(started):  # told from the terms when the duel is read: the event stores none
        assert "warnings" not in started.settings
        return pirate.warnings(pirate.evolve(None, started, 1))

    [pistol] = start({"kind": "pistol", "distance": 5, **PISTOLS})
    assert warned(pistol) == [
        "Lope has 9 PV: one hit of Inés's Pistola de chispa (1d10) can deal up to 10: this duel can kill."]
    [dry] = start({"kind": "pistol", "distance": 5, "bullet": "no_damage", **PISTOLS})
    assert warned(dry) == []
    [sword] = start({"kind": "sword", "sword_victory": "hits", "hits": 2})
    assert warned(sword) == [  # 12 PV against exactly 12 is a warning too
        "Inés has 12 PV: 2 hits of Lope's Espada ropera (1d6) can deal up to 12: this duel can kill.",
        "Lope has 9 PV: 2 hits of Inés's Sable (1d8) can deal up to 16: this duel can kill."]
    [death] = start({"kind": "sword", "sword_victory": "death"})
    assert warned(death) == []


def test_a_fresh_pirate_state_and_its_fighters():
    state = Duel("pistol", distance=5, second_a="T", second_b="B", shots=3).state
    assert (state["round"], state["phase"], state["order"], state["turn"], state["initiative"],
            state["sudden_death"]) == (0, "initiative", [], 0, None, False)
    assert state["fighters"]["a"] == {"id": "ines", "name": "Inés", "pv": 12, "car": 10, "hits": 0, "landed": 0,
                                      "points": 0, "shots": 3, "fate": None, "worthy": None}


def test_a_tied_initiative_asks_for_the_reroll_by_name():
    from tracker.rules.pirate.commands import RollInitiative
    duel = Duel("sword")
    assert duel.refused(RollInitiative(), a=[10], b=[11]).reason == \
        "type another d20 for Inés's initiative (tie reroll), or let the server roll"
    assert duel.refused(RollInitiative(), a=[10, 21], b=[11, 3]).reason == \
        "a d20 cannot show 21 (Inés's initiative (tie reroll))"


@pytest.mark.parametrize("side", SIDES)
def test_a_pistol_hit_counts_as_landed_for_either_side(side):
    from tracker.rules.pirate.commands import Shoot
    from tests.unit.test_pirate import PISTOLS
    from tests.unit.test_pirate_edges import first
    duel = Duel("pistol", distance=5, shots=2, bullet="no_damage", **PISTOLS)
    first(duel, side)
    duel.run(Shoot(side=side), **{side: [20]})
    assert (duel.fighter(side)["landed"], duel.fighter(side)["hits"]) == (1, 0)


def test_a_wit_duel_waits_on_no_fall_and_a_dead_duelist_is_not_waited_on():
    from tracker.rules.pirate.fold import fallen
    wit = Duel("wit")
    fighters = {s: dict(wit.state["fighters"][s], pv=0) for s in SIDES}
    assert fallen(dict(wit.state, fighters=fighters)) is None
    sword = Duel("sword", sword_victory="death")
    fighters = {"a": dict(sword.state["fighters"]["a"], pv=0, fate="dead"),
                "b": dict(sword.state["fighters"]["b"], pv=0, fate="down")}
    assert fallen(dict(sword.state, fighters=fighters)) == "b"


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("ventaja, desventaja, kept, edge", [
    (True, False, 15, "ventaja"), (False, True, 4, "desventaja"), (True, True, 4, "cancelled")])
def test_an_insult_with_ventaja_or_desventaja_keeps_the_right_die_for_either_side(side, ventaja, desventaja, kept, edge):
    from tracker.rules.pirate.commands import Insult
    from tests.unit.test_pirate_edges import first
    duel = Duel("wit")
    first(duel, side)
    dice = [4, 15] if edge != "cancelled" else [4]
    [traded] = duel.run(Insult(side=side, insult="Insulto directo", ventaja=ventaja, desventaja=desventaja),
                        **{side: dice + ([3] if kept == 15 else [])})
    assert (traded.edge, traded.d20, traded.hit) == (edge, kept, kept == 15)


@pytest.mark.parametrize("side", SIDES)
def test_insult_and_shot_dice_typed_out_of_range_name_their_roll(side):
    from tracker.rules.pirate.commands import Insult, Shoot
    from tests.unit.test_pirate import PISTOLS
    from tests.unit.test_pirate_edges import first
    duel = Duel("wit")
    first(duel, side)
    name = duel.fighter(side)["name"]
    assert duel.refused(Insult(side=side, insult="Insulto directo"), **{side: [21]}).reason == \
        f"a d20 cannot show 21 ({name}'s Insulto directo)"
    assert duel.refused(Insult(side=side, insult="Insulto directo"), **{side: [20, 7]}).reason == \
        f"a d6 cannot show 7 (damage of {name}'s Insulto directo)"
    pistols = Duel("pistol", distance=5, shots=2, **PISTOLS)
    first(pistols, side)
    assert pistols.refused(Shoot(side=side), **{side: [20, 99]}).reason.endswith(f"(damage of {name}'s shot)")


def test_the_first_initiative_die_and_the_second_ventaja_die_are_named_and_bounded():
    from tracker.rules.pirate.commands import Attack, RollInitiative
    from tests.unit.test_pirate_edges import first
    duel = Duel("sword")
    assert duel.refused(RollInitiative(), a=[21], b=[3]).reason == "a d20 cannot show 21 (Inés's initiative)"
    first(duel, "a")
    assert duel.refused(Attack(side="a", ventaja=True), a=[5, 21]).reason == "a d20 cannot show 21 (Inés's attack)"
