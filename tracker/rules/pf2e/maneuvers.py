"""The turn's other actions: Demoralize and Feint (a skill check against the target's DC, with
the conditions their degrees give) and any other action the GM names, with an optional check."""
from __future__ import annotations

from tracker.rules.base import Refused
from tracker.rules.dice import Dice

from . import events as ev
from .checks import attack_penalty, degree
from .rounds import then_end_turn
from .table import name, spend, stats, target_of, turn_holder
from tracker.rules.text import t

# Demoralize [base]: critical success frightened 2, success frightened 1, otherwise nothing.
DEMORALIZE_FRIGHTENS = {"critical_success": 2, "success": 1}


def _actor(state: dict, who: str | None, what: str) -> str:
    actor = turn_holder(state, who, what)
    if state["hp"][actor] <= 0:
        raise Refused(t("{name} is knocked out", name=name(state, actor)))
    return actor


def _check(state: dict, actor: str, skill: str, extra: int) -> int:
    """A skill check's modifier: the sheet's, the GM's other modifiers, less frightened."""
    return stats(state, actor).get(skill, 0) + extra - state["frightened"][actor]


def _dc(state: dict, target: str, stat: str) -> int:
    """10 + the target's modifier, less frightened (a status penalty to every DC too)."""
    return 10 + stats(state, target).get(stat, 0) - state["frightened"][target]


def demoralize(state: dict, cmd, dice: Dice) -> list:
    actor = _actor(state, cmd.duelist, "Demoralize")
    spend(state, actor, 1, "Demoralize")
    target = target_of(state, actor, cmd.target)
    if [actor, target] in state.get("demoralized", []):
        # [base] the target is then immune to your Demoralize for 10 minutes: longer than a duel.
        raise Refused(t("{target} is immune to {actor}'s Demoralize for the rest of the duel (10 minutes)",
                        target=name(state, target), actor=name(state, actor)), field="target")
    modifier = _check(state, actor, "intimidation", cmd.modifier)
    dc = _dc(state, target, "will")
    die = dice.roll(20, "check", t("{name}'s Intimidation check", name=name(state, actor)))
    result = degree(die + modifier, dc, die)
    frightened = DEMORALIZE_FRIGHTENS.get(result, 0)
    events = [ev.Pf2eDemoralized(duelist=actor, target=target, die=die, modifier=modifier, total=die + modifier,
                                 dc=dc, degree=result, frightened=frightened)]
    return then_end_turn(state, events, actor, cmd.end_turn)


def feint(state: dict, cmd, dice: Dice) -> list:
    actor = _actor(state, cmd.duelist, "Feint")
    spend(state, actor, 1, t("a Feint"))
    target = target_of(state, actor, cmd.target)
    modifier = _check(state, actor, "deception", cmd.modifier)
    dc = _dc(state, target, "perception")
    die = dice.roll(20, "check", t("{name}'s Deception check", name=name(state, actor)))
    result = degree(die + modifier, dc, die)
    exposed = {"critical_success": target, "success": target, "critical_failure": actor}.get(result, "")
    events = [ev.Pf2eFeinted(duelist=actor, target=target, die=die, modifier=modifier, total=die + modifier,
                             dc=dc, degree=result, exposed=exposed)]
    return then_end_turn(state, events, actor, cmd.end_turn)


def other_action(state: dict, cmd, dice: Dice) -> list:
    actor = _actor(state, cmd.duelist, "act")
    cost = int(cmd.cost)
    spend(state, actor, cost, cmd.action)
    if (cmd.dc is None) != (cmd.check_modifier is None):
        missing = "dc" if cmd.dc is None else "check_modifier"
        raise Refused(t("a check needs both its modifier and its DC (or neither, for no check)"), field=missing)
    if cmd.dc is None and cmd.dice_check:
        raise Refused(t("a d20 was typed for an action without a check"), field="dice_check")
    taken = {"duelist": actor, "action": cmd.action, "cost": cost, "attack": cmd.attack}
    if cmd.dc is not None:
        penalty = attack_penalty(state["strikes"], False) if cmd.attack and state["settings"]["attack_penalty"] else 0
        modifier = cmd.check_modifier + penalty - state["frightened"][actor]
        die = dice.roll(20, "check", t("{name}'s {action} check", name=name(state, actor), action=cmd.action))
        taken.update(die=die, modifier=modifier, total=die + modifier, dc=cmd.dc,
                     degree=degree(die + modifier, cmd.dc, die))
    return then_end_turn(state, [ev.Pf2eActionTaken(**taken)], actor, cmd.end_turn)
