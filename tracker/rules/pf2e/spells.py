"""Spellcasting: casting from slots, Dueling Counter against a focused tradition, changing focus."""
from __future__ import annotations

from tracker.rules import dice_expr
from tracker.rules.base import Refused, why
from tracker.rules.dice import Dice

from . import events as ev
from .checks import counteracts, degree
from .ending import after_damage
from .sheet import SKILL_NAMES, SKILL_OF_TRADITION, TRADITION_NAMES, trained
from .strikes import damage_dealt
from .table import able, can_react, spend, name, opponents, slots_left, stats, target_of, turn_holder
from tracker.rules.text import t


def cast(state: dict, cmd, dice: Dice) -> list:
    if state["kind"] == "combat":
        raise Refused(t("this is a combat duel: spells belong to spellcasting or mixed duels"))
    caster = turn_holder(state, cmd.caster, "cast a spell")
    if state["hp"][caster] <= 0:
        raise Refused(t("{name} is knocked out", name=name(state, caster)))
    spend(state, caster, cmd.actions, cmd.spell)
    if stats(state, caster).get("spell_dc") is None:
        raise Refused(t("{name} has no spell DC on the sheet", name=name(state, caster)))
    if not cmd.cantrip and state["slots"][caster].get(str(cmd.rank), 0) <= 0:
        raise Refused(t("{name} has no rank-{rank} spell slot left", name=name(state, caster), rank=cmd.rank),
                      field="rank")
    expression = ""
    if cmd.damage_expr:
        try:
            expression = dice_expr.check(cmd.damage_expr)
        except ValueError as problem:
            raise Refused(t("damage {problem}", problem=why(problem)), field="damage_expr") from None
    hurts = bool(expression) or cmd.damage is not None
    target = target_of(state, caster, cmd.target) if hurts or cmd.target else ""
    pending = any(can_counter(state, foe, cmd.tradition) for foe in opponents(state, caster))
    cast_ = ev.Pf2eSpellCast(caster=caster, spell=cmd.spell, rank=cmd.rank, tradition=cmd.tradition,
                             cantrip=cmd.cantrip, target=target, damage_expr=expression,
                             damage_typed=cmd.damage, effect=cmd.effect, pending=pending, actions=cmd.actions)
    if pending:
        return [cast_]
    return [cast_] + takes_effect(state, vars(cast_), cmd.damage, dice)


def can_counter(state: dict, who: str, tradition: str) -> bool:
    return (state["focus"].get(who) == tradition and can_react(state, who, "dueling_counter")
            and bool(slots_left(state, who)))


def counter(state: dict, cmd, dice: Dice) -> list:
    spell = _pending_spell(state)
    who = cmd.duelist
    if who not in opponents(state, spell["caster"]):
        raise Refused(t("{name} cannot counter a spell cast by their own side", name=name(state, who)),
                      field="duelist")
    if state["reacted"].get(who):
        raise Refused(t("{name} has already used a reaction this round", name=name(state, who)), field="duelist")
    if state["reaction"].get(who) != "dueling_counter" or state["focus"].get(who) != spell["tradition"]:
        raise Refused(t("{name} has no Dueling Counter against {tradition} spells", name=name(state, who),
                        tradition=TRADITION_NAMES.get(spell["tradition"], spell["tradition"])), field="duelist")
    if state["slots"][who].get(str(cmd.slot_rank), 0) <= 0:
        raise Refused(t("{name} has no rank-{rank} slot left to expend", name=name(state, who), rank=cmd.slot_rank),
                      field="slot_rank")
    caster = spell["caster"]
    modifier = _counter_modifier(state, who) - state["frightened"][who]
    dc = stats(state, caster)["spell_dc"] - state["frightened"][caster]
    die = dice.roll(20, "check", t("{name}'s counteract check", name=name(state, who)))
    result = degree(die + modifier, dc, die)
    done = counteracts(result, cmd.slot_rank, spell["rank"])
    attempt = ev.Pf2eCounterAttempted(duelist=who, caster=caster, spell=spell["spell"], slot_rank=cmd.slot_rank,
                                      spell_rank=spell["rank"], die=die, modifier=modifier,
                                      total=die + modifier, dc=dc, degree=result, counteracted=done)
    if done:
        return [attempt]
    return [attempt] + takes_effect(state, spell, _typed(cmd, spell), dice)


def _counter_modifier(state: dict, who: str) -> int:
    sheet = stats(state, who)
    if state["settings"]["counteract_with"] == "spell_attack" and sheet.get("spell_dc") is not None:
        return sheet["spell_dc"] - 10
    return sheet[SKILL_OF_TRADITION[state["focus"][who]]]


def decline_counter(state: dict, cmd, dice: Dice) -> list:
    spell = _pending_spell(state)
    return [ev.Pf2eCounterDeclined(spell=spell["spell"])] + takes_effect(state, spell, _typed(cmd, spell), dice)


def _pending_spell(state: dict) -> dict:
    pending = state["pending"]
    if not pending or pending["kind"] != "spell":
        raise Refused(t("no spell is waiting for a Dueling Counter"))
    return pending


def _typed(cmd, spell: dict) -> int | None:
    return cmd.damage if cmd.damage is not None else spell["damage_typed"]


def takes_effect(state: dict, spell: dict, typed: int | None, dice: Dice) -> list:
    """An uncountered spell's damage, if it deals any."""
    if not spell["target"] or (not spell["damage_expr"] and typed is None):
        return []
    if not able(state, spell["target"]):
        return []
    damage = damage_dealt(state, spell["caster"], spell["target"], spell["spell"], spell["damage_expr"],
                          typed, spell["effect"], dice)
    return [damage] + after_damage(state, damage)


def change_focus(state: dict, cmd, dice: Dice) -> list:
    who = turn_holder(state, cmd.duelist, "Change Tradition Focus")
    spend(state, who, 1, "Change Tradition Focus")
    if not state["refocus"].get(who):
        raise Refused(t("{name} did not gain Change Tradition Focus (it needs a trained magic skill for initiative)",
                        name=name(state, who)))
    if state["focus"].get(who) == cmd.tradition:
        raise Refused(t("{name}'s focus is already {tradition}", name=name(state, who), tradition=TRADITION_NAMES.get(cmd.tradition, cmd.tradition)), field="tradition")
    skill = SKILL_OF_TRADITION[cmd.tradition]
    if not trained(stats(state, who), skill):
        raise Refused(t("{name} is untrained in {skill} and cannot focus on the {tradition} tradition",
                        name=name(state, who), skill=SKILL_NAMES[skill],
                        tradition=TRADITION_NAMES.get(cmd.tradition, cmd.tradition)), field="tradition")
    return [ev.Pf2eFocusChanged(duelist=who, tradition=cmd.tradition)]
