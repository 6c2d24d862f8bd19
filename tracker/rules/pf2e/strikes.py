"""Strikes: the attack roll and its degree, the dueling reactions that hook into it, the damage."""
from __future__ import annotations

from tracker.rules import dice_expr
from tracker.rules.base import Refused
from tracker.rules.dice import Dice

from . import events as ev
from .checks import HITS, attack_penalty, degree
from .ending import after_damage
from .rounds import then_end_turn
from .table import REACTION_NAMES, can_react, exposed_to, name, rolled_skill, spend, stats, target_of, turn_holder
from tracker.rules.text import t


def strike(state: dict, cmd, dice: Dice) -> list:
    if state["kind"] == "spellcasting":
        raise Refused(t("this is a spellcasting duel: only spells, no Strikes"))
    attacker = turn_holder(state, cmd.attacker, "Strike")
    if state["hp"][attacker] <= 0:
        raise Refused(t("{name} is knocked out", name=name(state, attacker)))
    spend(state, attacker, 1, t("a Strike"))
    if not cmd.melee and state["settings"]["melee_only"]:
        raise Refused(t("the agreed terms allow melee weapons only"), field="melee")
    target = target_of(state, attacker, cmd.target)
    # A reaction the player readied on their seat is declared by their next melee Strike.
    reaction = cmd.reaction or (readied(state, attacker) if cmd.melee else "")
    if reaction:
        _check_reaction(state, attacker, reaction, cmd.melee)
    penalty = attack_penalty(state["strikes"], cmd.agile) if state["settings"]["attack_penalty"] else 0
    modifier = stats(state, attacker)["attack_bonus"] - state["frightened"][attacker] + penalty + cmd.modifier
    exposed = (target in state["off_guard"] or reaction == "sense_weakness"
               or (cmd.melee and exposed_to(state, target, attacker)))
    ac = stats(state, target)["ac"] - state["frightened"][target] - (2 if exposed else 0)
    die = dice.roll(20, "attack", t("{name}'s attack roll", name=name(state, attacker)))
    result = degree(die + modifier, ac, die)
    pending = result == "success" and cmd.melee and can_react(state, target, "deceptive_sidestep")
    events = [ev.Pf2eStrikeRolled(attacker=attacker, target=target, die=die, modifier=modifier,
                                  total=die + modifier, ac=ac, degree=result, reaction=reaction,
                                  pending=pending, damage_typed=cmd.damage, melee=cmd.melee,
                                  end_turn=cmd.end_turn and pending)]
    if reaction == "sense_weakness" and rolled_skill(state, target) == "deception":
        events.append(ev.Pf2eOffGuard(duelist=target, cause="Sense Weakness"))
    if pending:  # the turn ends, if asked, once the target has answered
        return events
    events += landed(state, attacker, target, result, reaction, cmd.damage, dice)
    return then_end_turn(state, events, attacker, cmd.end_turn)


def _check_reaction(state: dict, attacker: str, reaction: str, melee: bool) -> None:
    label = REACTION_NAMES[reaction]
    if not melee:
        raise Refused(t("{reaction} works only with a melee Strike", reaction=label), field="reaction")
    if state["reacted"].get(attacker):
        raise Refused(t("{name} has already used a reaction this round", name=name(state, attacker)), field="reaction")
    if state["reaction"].get(attacker) != reaction:
        raise Refused(t("{name} did not gain {reaction} this round", name=name(state, attacker), reaction=label),
                      field="reaction")


def readied(state: dict, who: str) -> str:
    """The dueling reaction ``who``'s player readied for their next melee Strike, or ""."""
    return (state.get("readied") or {}).get(who, "")


def ready_reaction(state: dict, cmd, dice: Dice) -> list:
    who = turn_holder(state, cmd.duelist, "ready a reaction")
    if state["kind"] == "spellcasting":
        raise Refused(t("this is a spellcasting duel: no Strikes, so no reaction to ready before one"))
    if readied(state, who):
        raise Refused(t("{name} has already readied {reaction}", name=name(state, who),
                        reaction=REACTION_NAMES[readied(state, who)]), field="reaction")
    _check_reaction(state, who, cmd.reaction, melee=True)
    if not can_react(state, who, cmd.reaction):
        raise Refused(t("{name} cannot react now", name=name(state, who)), field="reaction")
    return [ev.Pf2eReactionReadied(round=state["round"], duelist=who, reaction=cmd.reaction)]


def withdraw_reaction(state: dict, cmd, dice: Dice) -> list:
    who = turn_holder(state, cmd.duelist, "withdraw a reaction")
    if not readied(state, who):
        raise Refused(t("{name} has no reaction readied", name=name(state, who)))
    return [ev.Pf2eReactionWithdrawn(round=state["round"], duelist=who, reaction=readied(state, who))]


def sidestep(state: dict, cmd, dice: Dice) -> list:
    pending = _pending_strike(state)
    attacker, defender = pending["attacker"], pending["target"]
    penalty = -2 if rolled_skill(state, attacker) == "intimidation" else 0
    die = dice.roll(20, "attack", t("{name}'s second attack roll", name=name(state, attacker)))
    total = die + pending["modifier"] + penalty
    result = degree(total, pending["ac"], die)
    used = ev.Pf2eSidestepUsed(defender=defender, attacker=attacker, die=die, modifier=pending["modifier"],
                               penalty=penalty, total=total, ac=pending["ac"], degree=result)
    events = [used] + landed(state, attacker, defender, result, pending["reaction"], _typed(cmd, pending), dice)
    return then_end_turn(state, events, attacker, pending.get("end_turn", False))


def decline_sidestep(state: dict, cmd, dice: Dice) -> list:
    pending = _pending_strike(state)
    events = [ev.Pf2eSidestepDeclined(defender=pending["target"])] + landed(
        state, pending["attacker"], pending["target"], pending["degree"], pending["reaction"],
        _typed(cmd, pending), dice)
    return then_end_turn(state, events, pending["attacker"], pending.get("end_turn", False))


def _pending_strike(state: dict) -> dict:
    pending = state["pending"]
    if not pending or pending["kind"] != "strike":
        raise Refused(t("no hit is waiting for Deceptive Sidestep"))
    return pending


def _typed(cmd, pending: dict) -> int | None:
    return cmd.damage if cmd.damage is not None else pending["damage_typed"]


def landed(state: dict, attacker: str, target: str, result: str, reaction: str,
           typed: int | None, dice: Dice) -> list:
    """What a Strike's final degree does: damage (doubled on a critical), Bullying Press's fear."""
    if result not in HITS:
        return []
    expression = stats(state, attacker)["damage"]
    damage = damage_dealt(state, attacker, target, "Strike", expression, typed,
                          "double" if result == "critical_success" else "full", dice)
    events = [damage]
    if reaction == "bullying_press":
        value = 2 if rolled_skill(state, target) == "perception" else 1
        events.append(ev.Pf2eFrightened(duelist=target, value=max(value, state["frightened"][target]),
                                        cause="Bullying Press"))
    return events + after_damage(state, damage)


MULTIPLIERS = {"full": lambda n: n, "double": lambda n: n * 2, "half": lambda n: n // 2, "none": lambda n: 0}


def damage_dealt(state: dict, attacker: str, target: str, source: str, expression: str,
                 typed: int | None, multiplier: str, dice: Dice) -> ev.Pf2eDamageDealt:
    """Damage typed by the GM or rolled from ``expression``, with the HP it leaves."""
    if typed is not None:
        expression, rolled, base = "", (), typed
    elif expression:
        roll = dice_expr.roll(expression, dice, "damage", t("{source} damage", source=source))
        rolled, base = roll.dice, roll.total
    else:
        rolled, base = (), 0
    amount = MULTIPLIERS[multiplier](base)
    return ev.Pf2eDamageDealt(attacker=attacker, target=target, source=source, expression=expression,
                              dice=rolled, base=base, multiplier=multiplier, amount=amount,
                              hp_after=max(state["hp"][target] - amount, 0))
