"""Pirate duels at their edges: every rule for both sides, totals exactly at DEF and SAB, range, settings both ways."""
from __future__ import annotations

import pytest

from tracker.rules.duel import DuelDrawn, DuelWon, DuelYielded, Yield, other
from tracker.rules.pirate.commands import Attack, Insult, RecordFall, RollInitiative, Shoot
from tracker.rules.pirate.rolls import edge, max_damage

from tests.unit.test_pirate import INES, LOPE, PISTOLS, Duel

SIDES = ("a", "b")
STATS = {"a": INES, "b": LOPE}
RANGE = {"a": 15, "b": 10}  # Inés's pistol, Lope's pistol
INSULTS = {"Burla ingeniosa": 1, "Insulto directo": 0, "Provocación": 0, "Humillación": -2}


def first(duel: Duel, side: str) -> None:
    """Roll initiative so that ``side`` acts first."""
    duel.run(RollInitiative(), **{side: [20], other(side): [1]})


def needed(side: str, bonus: int, against: str) -> int:
    """The d20 that makes ``side``'s total exactly equal to the foe's ``against``."""
    return STATS[other(side)][against] - bonus


# --- a sword strike: a total equal to DEF hits, one less misses -------------------------------

@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("margin, hits", [(0, True), (-1, False), (1, True)])
def test_a_sword_attack_hits_on_a_total_equal_to_def_for_either_side(side, margin, hits):
    duel = Duel("sword")
    first(duel, side)
    d20 = needed(side, STATS[side]["atq"], "def") + margin
    events = duel.run(Attack(side=side), **{side: [d20, 2]})
    assert (events[0].total, events[0].defence, events[0].hit) == (STATS[other(side)]["def"] + margin,
                                                                  STATS[other(side)]["def"], hits)
    if hits:
        assert events[1] == DuelWon(side=side, ending="first_blood")
        assert duel.state["outcome"]["detail"] == f"{duel.fighter(other(side))['name']} took 2 PV"
        assert duel.fighter(side)["hits"] == 1
    else:
        assert len(events) == 1 and duel.state["outcome"] is None


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("hits", [2, 3])
def test_a_sword_duel_to_hits_is_won_at_exactly_the_agreed_hits_by_either_side(side, hits):
    duel = Duel("sword", sword_victory="hits", hits=hits)
    for n in range(1, hits + 1):
        first(duel, side)
        events = duel.run(Attack(side=side), **{side: [20, 1]})
        if n < hits:
            assert len(events) == 1, f"won after {n} of {hits} hits"
            duel.run(Attack(side=other(side)), **{other(side): [1]})
    assert events[-1].side == side and events[-1].ending == "hits"
    assert str(duel.state["outcome"]["detail"]).startswith(f"{hits} hits; ")


@pytest.mark.parametrize("side", SIDES)
def test_a_duelist_at_exactly_0_pv_falls_and_at_1_pv_does_not(side):
    duel = Duel("sword", sword_victory="death")
    foe = other(side)
    most = max_damage(duel.state["settings"]["weapons"][side]["damage"])
    while duel.fighter(foe)["pv"] > 1:  # wear the foe down to exactly 1 PV
        first(duel, side)
        duel.run(Attack(side=side), **{side: [20, min(most, duel.fighter(foe)["pv"] - 1)]})
        duel.run(Attack(side=foe), **{foe: [1]})
    assert duel.fighter(foe)["pv"] == 1
    assert "only a duelist at 0 PV falls" in duel.refused(RecordFall(side=foe, fate="dead")).reason
    first(duel, side)
    duel.run(Attack(side=side), **{side: [20, 1]})
    assert duel.fighter(foe)["pv"] == 0
    fell, won = duel.run(RecordFall(side=foe, fate="dead"))
    assert won == DuelWon(side=side, ending="death")
    assert duel.state["outcome"]["detail"] == f"{duel.fighter(foe)['name']} is dead"


# --- pistols: a distance equal to the range is within it --------------------------------------

@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("past, how", [(0, ""), (1, "desventaja"), (-1, "")])
def test_a_shot_at_exactly_the_pistol_range_has_no_desventaja(side, past, how):
    duel = Duel("pistol", distance=RANGE[side] + past, **PISTOLS)
    first(duel, side)
    dice = [1, 1] if how else [1]
    [shot] = duel.run(Shoot(side=side), **{side: dice})
    assert (shot.edge, shot.range, shot.distance, shot.hit) == (how, RANGE[side], RANGE[side] + past, False)
    assert shot.shots_left == 5


@pytest.mark.parametrize("side", SIDES)
def test_either_side_wins_a_pistol_duel_with_a_hit_at_exactly_def(side):
    duel = Duel("pistol", distance=5, **PISTOLS)
    first(duel, side)
    shot, won = duel.run(Shoot(side=side), **{side: [needed(side, STATS[side]["atq"], "def"), 1]})
    assert (shot.hit, won.side, won.ending) == (True, side, "hit")


@pytest.mark.parametrize("last", SIDES)
def test_the_pistols_run_dry_whichever_side_fires_last(last):
    duel = Duel("pistol", distance=5, shots=1, **PISTOLS)
    first(duel, other(last))
    duel.run(Shoot(side=other(last)), **{other(last): [1]})
    shot, drawn = duel.run(Shoot(side=last), **{last: [1]})
    assert drawn == DuelDrawn(ending="out_of_shots")
    assert duel.state["outcome"]["detail"] == "both pistols ran dry with no hit"


@pytest.mark.parametrize("ventaja, desventaja, how", [
    (False, False, ""), (True, False, "ventaja"), (False, True, "desventaja"), (True, True, "cancelled")])
def test_ventaja_and_desventaja(ventaja, desventaja, how):
    assert edge(ventaja, desventaja) == how


@pytest.mark.parametrize("expression, most", [("1d4", 4), ("2d6+1", 13), ("1d8-1", 7), ("3", 3)])
def test_the_most_an_expression_can_deal(expression, most):
    assert max_damage(expression) == most


# --- duelo de labia: a total equal to SAB hits; humiliation and points for either side -------

@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("insult", list(INSULTS))
@pytest.mark.parametrize("margin, hits", [(0, True), (-1, False)])
def test_an_insult_hits_on_a_total_equal_to_sab_for_either_side(side, insult, margin, hits):
    duel = Duel("wit", wit_end="humiliation")
    first(duel, side)
    d20 = needed(side, STATS[side]["comunicacion"] + INSULTS[insult], "sab") + margin
    [traded] = duel.run(Insult(side=side, insult=insult), **{side: [d20, 1]})
    assert (traded.total, traded.hit, traded.bonus) == (
        STATS[other(side)]["sab"] + margin, hits, STATS[side]["comunicacion"] + INSULTS[insult])
    car = {"a": 10, "b": 8}
    if hits:
        assert duel.fighter(other(side))["car"] == car[other(side)] - 1
    elif insult == "Provocación":
        assert (traded.backlash, duel.fighter(side)["car"]) == (1, car[side] - 1)
    else:
        assert duel.fighter(side)["car"] == car[side]


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("spare, humiliated", [(0, True), (1, False)])
def test_either_side_humiliates_at_exactly_0_car(side, spare, humiliated):
    duel = Duel("wit", wit_end="humiliation")
    foe = other(side)
    car = duel.fighter(foe)["car"]
    first(duel, side)
    events = duel.run(Insult(side=side, insult="Humillación"), **{side: [20, car - spare]})
    assert duel.fighter(foe)["car"] == spare
    if humiliated:
        assert events[-1] == DuelWon(side=side, ending="humiliation")
        assert duel.state["outcome"]["detail"] == f"{duel.fighter(foe)['name']} withdraws, humiliated"
    else:
        assert len(events) == 1


@pytest.mark.parametrize("side", SIDES)
def test_a_backlash_humiliates_the_insulter_on_either_side(side):
    duel = Duel("wit", wit_end="humiliation", insults="Bravata | +0 | 1d6 | 1d12")
    car = duel.fighter(side)["car"]
    first(duel, side)
    miss, won = duel.run(Insult(side=side, insult="bravata"), **{side: [1, car]})
    assert won.side == other(side) and won.ending == "humiliation"


@pytest.mark.parametrize("side", SIDES)
def test_either_side_wins_on_points_after_exactly_the_agreed_exchanges(side):
    duel = Duel("wit", exchanges=2)
    for exchange in (1, 2):
        first(duel, side)
        hit = duel.run(Insult(side=side, insult="Insulto directo"), **{side: [20, 1]})
        events = duel.run(Insult(side=other(side), insult="Insulto directo"), **{other(side): [1]})
        if exchange == 1:
            assert len(events) == 1 and duel.state["outcome"] is None
    assert events[-1] == DuelWon(side=side, ending="points")
    assert duel.state["outcome"]["detail"] == "2 to 0"


@pytest.mark.parametrize("tie, ends", [("draw", True), ("sudden_death", False)])
def test_the_tie_setting_of_a_wit_duel_both_ways(tie, ends):
    duel = Duel("wit", exchanges=1, tie=tie)
    first(duel, "a")
    duel.run(Insult(side="a", insult="Insulto directo"), a=[20, 3])
    events = duel.run(Insult(side="b", insult="Insulto directo"), b=[20, 3])
    assert isinstance(events[-1], DuelDrawn) is ends
    assert (duel.state["outcome"] is not None) is ends


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("kind", ["sword", "wit"])
def test_either_side_may_yield(side, kind):
    duel = Duel(kind)
    first(duel, side)
    [yielded, *_] = duel.run(Yield(side=side))
    assert isinstance(yielded, DuelYielded) and yielded.side == side
    assert duel.state["outcome"]["winner"] == other(side)


@pytest.mark.parametrize("choice, expected", [("", "Sable"), ("Sable", "Sable"), ("sable", "Sable")])
def test_a_weapon_is_chosen_by_name_or_the_first_on_the_sheet(choice, expected):
    duel = Duel("sword", weapon_a=choice)
    assert duel.state["settings"]["weapons"]["a"]["name"] == expected


# --- what the duel shows, for every kind and setting ------------------------------------------

from tracker.rules import get  # noqa: E402

pirate = get("pirate")
INITIATIVE = ("Each round (exchange) both duelists roll initiative, d20 + Iniciativa; equal totals are "
              "rerolled by both; the higher acts first.")
EDGE = "Ventaja and Desventaja roll 2d20 and keep the higher or lower; together they cancel."


@pytest.mark.parametrize("setup, fought", [({}, "first blood"), ({"sword_victory": "hits", "hits": 3}, "3 hits"),
                                           ({"sword_victory": "death"}, "the death")])
def test_sword_assumptions_name_what_it_is_fought_to(setup, fought):
    notes = pirate.assumptions(Duel("sword", **setup).state)
    assert notes[:2] == [INITIATIVE, f"Fought to {fought}."]
    assert notes[-1] == EDGE and len(notes) == 6
    assert notes[2] == ("An attack is d20 + ATQ against the defender's DEF and hits on a total equal to or higher "
                        "than DEF; a hit rolls the weapon's damage against PV. No natural 20 or 1 rules.")


@pytest.mark.parametrize("bullet, line", [("wounds", "A hit deals the pistol's damage to PV."),
                                          ("no_damage", "A hit deals no PV damage.")])
def test_pistol_assumptions_follow_the_bullet_setting(bullet, line):
    notes = pirate.assumptions(Duel("pistol", distance=7, shots=3, bullet=bullet, **PISTOLS).state)
    assert notes == [INITIATIVE, "Each duelist has 3 shots; both out of shots with no hit is a draw.",
                     "A shot is d20 + ATQ against the target's DEF, hitting on equal or higher; the first hit ends the duel.",
                     "Shots from beyond the pistol's range (distance 7 paces greater than the range) are at Desventaja.",
                     line, EDGE]


@pytest.mark.parametrize("setup, ending, tie", [
    ({}, "After 3 exchanges the most damage dealt wins; losing all CAR ends it at once.",
     "A tie on points goes to sudden death: more exchanges until one leads after a full exchange."),
    ({"tie": "draw", "exchanges": 1}, "After 1 exchanges the most damage dealt wins; losing all CAR ends it at once.",
     "A tie on points is a draw."),
    ({"wit_end": "humiliation"}, "Only humiliation (CAR 0) ends it; exchanges are not counted.", None),
])
def test_wit_assumptions_follow_the_ending_and_tie_settings(setup, ending, tie):
    notes = pirate.assumptions(Duel("wit", insults="Pulla | +0 | 1d4\nBravata | −1 | 1d6 | 1d12", **setup).state)
    assert notes[3] == ("Insult table: Pulla +0 to hit, 1d4; Bravata -1 to hit, 1d6, "
                        "the insulter takes 1d12 on a miss.")
    assert notes[4] == ending
    if tie:
        assert notes[5] == tie and len(notes) == 8
    else:
        assert len(notes) == 7 and not any("tie on points" in n for n in notes)
    assert notes[0] == INITIATIVE.replace("Each round (exchange)", "Each exchange") and notes[-1] == EDGE


@pytest.mark.parametrize("side", SIDES)
def test_progress_and_actions_through_a_duel_for_either_side(side):
    duel = Duel("wit", exchanges=1)
    assert pirate.progress(duel.state) == "Exchange 1: initiative"
    assert pirate.actions(duel.state) == ["RollInitiative", "MarkWorthiness", "Yield", "Disqualify", "Abandon"]
    first(duel, side)
    assert pirate.progress(duel.state) == f"Exchange 1: {duel.fighter(side)['name']} to insult"
    assert pirate.actions(duel.state)[0] == "Insult"
    assert pirate.public(duel.state) == duel.state and pirate.secrets(duel.state) == []
    duel.run(Yield(side=side))
    assert pirate.progress(duel.state).startswith("Over: ")
    assert pirate.actions(duel.state) == []


@pytest.mark.parametrize("side", SIDES)
def test_a_fall_waits_on_the_gm_for_either_side(side):
    duel = Duel("sword", sword_victory="death")
    foe = other(side)
    duel.state = dict(duel.state, fighters=dict(duel.state["fighters"], **{foe: dict(duel.fighter(foe), pv=0)}))
    assert pirate.progress(duel.state) == f"Round 0: {duel.fighter(foe)['name']} is at 0 PV"
    assert pirate.actions(duel.state) == ["RecordFall", "MarkWorthiness", "Yield", "Disqualify", "Abandon"]
    assert pirate.warnings(duel.state) == duel.state["settings"]["warnings"]


# --- a fall, ruled by the GM, for either side and every kind of duel ----------------------------

def at_zero(duel: Duel, side: str, fate=None, winner_hits=0) -> Duel:
    fighters = dict(duel.state["fighters"])
    fighters[side] = dict(fighters[side], pv=0, fate=fate)
    fighters[other(side)] = dict(fighters[other(side)], hits=winner_hits)
    duel.state = dict(duel.state, fighters=fighters)
    return duel


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("setup, hits, fate, ending", [
    ({"sword_victory": "hits", "hits": 3}, 1, "down", "down"),
    ({"sword_victory": "hits", "hits": 3}, 1, "dead", "death"),
    ({"sword_victory": "hits", "hits": 2}, 2, "down", "hits"),
    ({"sword_victory": "first_blood"}, 1, "down", "first_blood"),
    ({"sword_victory": "first_blood"}, 0, "dead", "death"),
    ({"sword_victory": "death"}, 1, "dead", "death"),
    ({"sword_victory": "death"}, 1, "down", None),
])
def test_a_fall_ends_a_sword_duel_as_the_terms_say(side, setup, hits, fate, ending):
    duel = at_zero(Duel("sword", **setup), side, winner_hits=hits)
    name = duel.fighter(side)["name"]
    events = duel.run(RecordFall(side=side, fate=fate))
    assert (events[0].side, events[0].fate) == (side, fate)
    if ending is None:
        assert len(events) == 1
        assert "record their death or end the duel" in duel.refused(RollInitiative(), a=[1], b=[2]).reason
        return
    won = events[-1]
    assert (won.side, won.ending) == (other(side), ending)
    assert str(duel.state["outcome"]["detail"]).endswith(f"{name} is {fate}")


@pytest.mark.parametrize("side", SIDES)
def test_a_fall_in_a_pistol_duel_is_the_shooter_s_win(side):
    duel = at_zero(Duel("pistol", distance=5, **PISTOLS), side)
    fell, won = duel.run(RecordFall(side=side, fate="down"))
    assert won == DuelWon(side=other(side), ending="hit")
    assert duel.state["outcome"]["detail"] == f"{duel.fighter(side)['name']} is down"


@pytest.mark.parametrize("side", SIDES)
def test_falls_that_cannot_be_recorded(side):
    name = {"a": "Inés", "b": "Lope"}[side]
    wit = Duel("wit")
    assert wit.refused(RecordFall(side=side, fate="down")).reason == "nobody falls in a duelo de labia: CAR is not PV"
    standing = Duel("sword")
    refusal = standing.refused(RecordFall(side=side, fate="down"))
    pv = standing.fighter(side)["pv"]
    assert (refusal.reason, refusal.field) == (f"{name} still has {pv} PV: only a duelist at 0 PV falls", "side")
    dead = at_zero(Duel("sword", sword_victory="death"), side, fate="dead")
    refusal = dead.refused(RecordFall(side=side, fate="down"))
    assert (refusal.reason, refusal.field) == (f"{name} is already dead", "side")
    down = at_zero(Duel("sword", sword_victory="death"), side, fate="down")
    refusal = down.refused(RecordFall(side=side, fate="down"))
    assert (refusal.reason, refusal.field) == (f"{name} is already down", "fate")
    assert down.refused(RollInitiative(), a=[1], b=[2]).reason == (
        f"{name} is down: in a duel to the death, record their death or end the duel (yield, abandon)")
    assert at_zero(Duel("sword"), side).refused(RollInitiative(), a=[1], b=[2]).reason == \
        f"{name} is at 0 PV: record whether they are down or dead first"


# --- invariants: every ending checked at its edge, for either winner; broken states named -------

from tracker.rules.pirate.invariants import ENDINGS, invariants  # noqa: E402


def with_fighters(duel: Duel, **sides) -> dict:
    fighters = {s: dict(duel.state["fighters"][s], **sides.get(s, {})) for s in SIDES}
    return dict(duel.state, fighters=fighters)


@pytest.mark.parametrize("winner", SIDES)
def test_each_pirate_ending_holds_exactly_at_its_edge_for_either_winner(winner):
    loser = other(winner)
    hits = Duel("sword", sword_victory="hits", hits=3)
    assert ENDINGS["hits"](with_fighters(hits, **{winner: {"hits": 3}}), winner) == ""
    assert ENDINGS["hits"](with_fighters(hits, **{winner: {"hits": 2}}), winner) == "the winner landed 2 of 3 hits"
    first_blood = Duel("sword")
    assert ENDINGS["first_blood"](with_fighters(first_blood, **{winner: {"hits": 1}}), winner) == ""
    assert ENDINGS["first_blood"](first_blood.state, winner) == "the winner landed 0 of 1 hits"
    for fate, death, down in ((None, "the loser's fate is not ruled", "the loser's fate is not ruled"),
                              ("down", "the loser's fate is down", ""), ("dead", "", "")):
        state = with_fighters(first_blood, **{loser: {"fate": fate}})
        assert (ENDINGS["death"](state, winner), ENDINGS["down"](state, winner)) == (death, down)
    pistol = Duel("pistol", distance=5, shots=2, **PISTOLS)
    assert ENDINGS["hit"](pistol.state, winner) == "the winner's pistol never hit"
    assert ENDINGS["hit"](with_fighters(pistol, **{winner: {"landed": True}}), winner) == ""
    assert ENDINGS["hit"](with_fighters(pistol, **{loser: {"fate": "down"}}), winner) == ""
    assert ENDINGS["out_of_shots"](pistol.state, winner) == "a pistol still has a shot"
    assert ENDINGS["out_of_shots"](with_fighters(pistol, **{winner: {"shots": 0}}), winner) == "a pistol still has a shot"
    assert ENDINGS["out_of_shots"](with_fighters(pistol, a={"shots": 0}, b={"shots": 0}), winner) == ""
    wit = Duel("wit", exchanges=2)
    assert ENDINGS["humiliation"](wit.state, winner) == "the loser still has CAR"
    assert ENDINGS["humiliation"](with_fighters(wit, **{loser: {"car": 0}}), winner) == ""
    assert ENDINGS["humiliation"](with_fighters(wit, **{winner: {"car": 0}}), winner) == "the loser still has CAR"
    assert ENDINGS["points"](dict(wit.state, round=1), winner) == "the agreed exchanges are not over"
    assert ENDINGS["points"](dict(wit.state, round=2, phase="act"), winner) == "the agreed exchanges are not over"
    ahead = with_fighters(wit, **{winner: {"points": 3}, loser: {"points": 2}})
    assert ENDINGS["points"](dict(ahead, round=2), winner) == ""
    level = with_fighters(wit, **{winner: {"points": 2}, loser: {"points": 2}})
    assert ENDINGS["points"](dict(level, round=2), winner) == "the winner does not lead on points"
    assert ENDINGS["points_tied"](level, winner) == ""
    assert ENDINGS["points_tied"](ahead, winner) == "the points are not tied"


@pytest.mark.parametrize("side", SIDES)
def test_broken_pirate_states_say_what_broke(side):
    name = {"a": "Inés", "b": "Lope"}[side]
    duel = Duel("pistol", distance=5, shots=2, **PISTOLS)
    assert invariants(duel.state) == []
    me = duel.fighter(side)
    broken = with_fighters(duel, **{side: {"pv": me["pv"] - 1, "car": me["car"] + 1, "hits": 1, "shots": 3}})
    assert invariants(broken) == [f"{name} has {me['pv'] - 1} PV, not what the wounds left",
                                  f"{name} has {me['car'] + 1} CAR, not what the insults left",
                                  f"{name} counts 1 hits but dealt 0 wounds",
                                  f"{name} has 3 shots of 2"]
    assert invariants(with_fighters(duel, **{side: {"shots": 0}})) == []
    assert invariants(with_fighters(duel, **{side: {"shots": -1}})) == [f"{name} has -1 shots of 2"]
    first(duel, side)
    assert invariants(duel.state) == []
    assert invariants(dict(duel.state, turn=2)) == ["turn 2 of an order of 2"]
    assert invariants(dict(duel.state, turn=-1)) == ["turn -1 of an order of 2"]
    assert invariants(dict(duel.state, turn=1)) == []


def test_a_wit_duel_past_its_exchanges_needs_sudden_death():
    duel = Duel("wit", exchanges=2)
    assert invariants(dict(duel.state, round=2)) == []
    assert invariants(dict(duel.state, round=3)) == ["exchange 3 of 2 without sudden death"]
    assert invariants(dict(duel.state, round=3, sudden_death=True)) == []
    assert invariants(dict(Duel("wit", exchanges=2, wit_end="humiliation").state, round=3)) == []


@pytest.mark.parametrize("side", SIDES)
@pytest.mark.parametrize("ventaja", [False, True])
def test_a_d20_typed_out_of_range_names_the_roll(side, ventaja):
    duel = Duel("sword")
    first(duel, side)
    name = duel.fighter(side)["name"]
    refusal = duel.refused(Attack(side=side, ventaja=ventaja), **{side: [21, 5] if ventaja else [21]})
    assert refusal.reason == f"a d20 cannot show 21 ({name}'s attack)"
    refusal = duel.refused(Attack(side=side), **{side: [20, 99]})
    assert refusal.reason.startswith("a d") and refusal.reason.endswith(f"(damage of {name}'s attack)")


@pytest.mark.parametrize("side", SIDES)
def test_a_miss_records_no_damage_expression_and_a_hit_its_weapon(side):
    duel = Duel("sword", sword_victory="death")
    first(duel, side)
    [miss] = duel.run(Attack(side=side), **{side: [1]})
    assert (miss.damage_expression, miss.damage_dice, miss.damage) == ("", (), 0)
    duel.run(Attack(side=other(side)), **{other(side): [1]})
    first(duel, side)
    [hit] = duel.run(Attack(side=side), **{side: [20, 1]})
    assert (hit.damage_expression, hit.damage_dice) == (duel.state["settings"]["weapons"][side]["damage"], (1,))


@pytest.mark.parametrize("side", SIDES)
def test_the_history_keeps_every_insult_tried_with_its_damage_on_a_hit_only(side):
    duel = Duel("wit", exchanges=2)
    first(duel, side)
    duel.run(Insult(side=side, insult="Insulto directo"), **{side: [20, 4]})
    duel.run(Insult(side=other(side), insult="Provocación"), **{other(side): [1, 2]})  # a miss, 2 back
    events = [e for e in duel.events if type(e).__name__ == "PirateInsultTraded"]
    facts = pirate.history_facts(duel.state, events)
    ids = {"a": "ines", "b": "lope"}
    assert facts.turns == 1
    assert [(f.kind, f.character, f.subject, f.won, f.amount) for f in facts.facts] == [
        ("insults", ids[side], "Insulto directo", True, 4),
        ("insults", ids[other(side)], "Provocación", False, 0)]
