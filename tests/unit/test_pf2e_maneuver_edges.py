"""Demoralize, Feint and other actions at their edges, for either side: who may act, what each
refusal says and which field it points at, the dice each asks for, frightened on both ends of a
check, and ending the turn in the same step."""
from __future__ import annotations

import pytest

from tests.unit.test_pf2e_actions import duel
from tests.unit.test_pf2e_support import Duel
from tracker.rules.base import Refused
from tracker.rules.dice import fixed_dice
from tracker.rules.pf2e import decide
from tracker.rules.pf2e.commands import Demoralize, Feint, OtherAction, RollInitiative, Strike

NAMES = {"v": "Valeros", "k": "Kyra"}
OTHER = {"v": "k", "k": "v"}


def turn_of(who: str) -> Duel:
    """Valeros (Will DC 15, Perception DC 18) and Kyra (Will DC 16, Perception DC 18); ``who`` acts first."""
    d = duel()
    d.do(RollInitiative("v", "intimidation"), roll=[15 if who == "v" else 2])
    d.do(RollInitiative("k", "perception"), roll=[15 if who == "k" else 2])
    assert d.state["turn"] == who
    return d


def refusal(d: Duel, command, **typed) -> tuple[str, str | None]:
    with pytest.raises(Refused) as refused:
        decide(d.state, command, fixed_dice(**typed))
    return refused.value.reason, refused.value.field


def frighten(d: Duel, **values) -> None:
    d.state = dict(d.state, frightened=dict(d.state["frightened"], **values))


WILL_DC = {"v": 15, "k": 16}


@pytest.mark.parametrize("who", ["v", "k"])
@pytest.mark.parametrize("own, theirs, short, degree", [
    (0, 1, 0, "success"),  # the target's frightened 1 lowers its Will DC by 1: met exactly
    (0, 1, 1, "failure"),  # one short of it
    (1, 0, 0, "success"),  # the actor's frightened 1 lowers the check by 1
    (1, 0, 1, "failure"),
    (2, 2, 0, "success"),  # both at once
])
def test_demoralize_takes_frightened_off_the_check_and_off_the_dc(who, own, theirs, short, degree):
    d = turn_of(who)
    frighten(d, **{who: own, OTHER[who]: theirs})
    dc, modifier = WILL_DC[OTHER[who]] - theirs, 9 - own  # Intimidation +9
    e = d.do(Demoralize(duelist=who, target=OTHER[who]), check=[dc - modifier - short])[0]
    assert (e.duelist, e.target, e.modifier, e.dc, e.degree) == (who, OTHER[who], modifier, dc, degree)


@pytest.mark.parametrize("who", ["v", "k"])
def test_feint_takes_frightened_off_the_check_and_off_the_perception_dc(who):
    d = turn_of(who)
    frighten(d, **{who: 1, OTHER[who]: 2})
    e = d.do(Feint(duelist=who), check=[11])[0]
    assert (e.die, e.modifier, e.total, e.dc, e.degree, e.exposed) == (11, 6, 17, 16, "success", OTHER[who])


@pytest.mark.parametrize("who", ["v", "k"])
@pytest.mark.parametrize("command, skill", [(Demoralize, "Intimidation"), (Feint, "Deception")])
def test_each_check_names_its_die(who, command, skill):
    d = turn_of(who)
    assert refusal(d, command()) == (f"type another d20 for {NAMES[who]}'s {skill} check, or let the server roll",
                                     "dice_check")
    assert refusal(d, command(), check=[21]) == (f"a d20 cannot show 21 ({NAMES[who]}'s {skill} check)", "dice_check")
    assert d.do(command(), check=[20])[0].die == 20


@pytest.mark.parametrize("who", ["v", "k"])
def test_another_action_s_check_names_its_die(who):
    d = turn_of(who)
    climb = OtherAction(action="Climb", check_modifier=0, dc=10)
    assert refusal(d, climb) == (f"type another d20 for {NAMES[who]}'s Climb check, or let the server roll",
                                 "dice_check")
    assert refusal(d, climb, check=[21])[0] == f"a d20 cannot show 21 ({NAMES[who]}'s Climb check)"
    assert d.do(climb, check=[20])[0].die == 20


@pytest.mark.parametrize("who", ["v", "k"])
@pytest.mark.parametrize("command, what", [(Demoralize, "Demoralize"), (Feint, "Feint"),
                                           (lambda **kw: OtherAction(action="Climb", check_modifier=0, dc=10, **kw),
                                            "act")])
def test_only_the_turn_s_holder_acts_and_not_when_knocked_out(who, command, what):
    d = turn_of(who)
    assert refusal(d, command(duelist=OTHER[who]), check=[10]) == \
        (f"{NAMES[OTHER[who]]} cannot {what} out of turn: it is {NAMES[who]}'s turn", None)
    d.state = dict(d.state, hp=dict(d.state["hp"], **{who: 1}))
    d.do(command(duelist=who), check=[10])  # 1 HP still acts
    d.state = dict(d.state, hp=dict(d.state["hp"], **{who: 0}))
    assert refusal(d, command(duelist=who), check=[10]) == (f"{NAMES[who]} is knocked out", None)


@pytest.mark.parametrize("who", ["v", "k"])
@pytest.mark.parametrize("command, what", [(Demoralize, "Demoralize"), (Feint, "a Feint")])
def test_a_check_costs_one_action_and_says_so_when_none_is_left(who, command, what):
    d = turn_of(who)
    d.do(OtherAction(action="Stride", cost="2"))
    d.do(command(), check=[10])
    assert d.state["actions"] == 3
    assert refusal(d, command(), check=[10]) == (f"{NAMES[who]} has no action left this turn: {what} costs 1", None)


@pytest.mark.parametrize("who", ["v", "k"])
def test_demoralizing_the_same_target_twice_is_refused_at_the_target_field(who):
    d = turn_of(who)
    d.do(Demoralize(), check=[10])
    assert refusal(d, Demoralize(), check=[10]) == (
        f"{NAMES[OTHER[who]]} is immune to {NAMES[who]}'s Demoralize for the rest of the duel (10 minutes)", "target")


@pytest.mark.parametrize("who", ["v", "k"])
@pytest.mark.parametrize("command", [Demoralize, Feint,
                                     lambda **kw: OtherAction(action="Climb", check_modifier=0, dc=10, **kw)])
def test_a_check_may_end_the_turn_in_the_same_step(who, command):
    d = turn_of(who)
    events = d.do(command(end_turn=True), check=[10])
    assert d.types(events)[1:] == ["Pf2eTurnEnded"] and d.state["turn"] == OTHER[who]
    assert d.types(turn_of(who).do(command(end_turn=False), check=[10])) == [d.types(events)[0]]


@pytest.mark.parametrize("dc, modifier, field", [(15, None, "check_modifier"), (None, 3, "dc")])
def test_a_check_needs_both_its_modifier_and_its_dc(dc, modifier, field):
    d = turn_of("v")
    assert refusal(d, OtherAction(action="Climb", dc=dc, check_modifier=modifier), check=[10]) == \
        ("a check needs both its modifier and its DC (or neither, for no check)", field)


def test_a_die_typed_for_an_action_without_a_check_is_refused():
    d = turn_of("k")
    assert refusal(d, OtherAction(action="Stride", dice_check=(12,))) == \
        ("a d20 was typed for an action without a check", "dice_check")


@pytest.mark.parametrize("attack, penalty_setting, modifier", [
    (True, True, 5),  # the second attack this turn: −5
    (True, False, 10),  # the setting off: no penalty
    (False, True, 10),  # no attack trait: no penalty
    (False, False, 10),
])
def test_another_action_takes_the_attack_penalty_only_with_the_trait_and_the_setting(attack, penalty_setting, modifier):
    d = duel(attack_penalty=penalty_setting)
    d.do(RollInitiative("v", "intimidation"), roll=[15])
    d.do(RollInitiative("k", "perception"), roll=[2])
    d.do(Strike(), attack=[2])
    frighten(d, v=1)
    e = d.do(OtherAction(action="Trip", check_modifier=10, dc=15, attack=attack), check=[10])[0]
    assert e.modifier == modifier - 1  # frightened 1 always counts

