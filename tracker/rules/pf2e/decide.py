"""Deciding a Pathfinder 2e duel: each command checked against the state, handed to the helper
that resolves it (``rounds``, ``strikes``, ``spells``, ``ending``) through one table."""
from __future__ import annotations

from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import Abandon, Disqualify, Yield, decide_ending, handled_by, require_running

from . import commands as c
from . import conditions, ending, maneuvers, rounds, spells, strikes
from tracker.rules.text import t

HANDLERS = {
    c.RollInitiative: rounds.roll_initiative, c.ChooseSkill: rounds.choose_skill,
    c.RevealSkills: rounds.reveal_skills, c.BreakTie: rounds.break_tie, c.ActSecond: rounds.act_second,
    c.EndTurn: rounds.end_turn, c.Tag: rounds.tag,
    c.Strike: strikes.strike, c.Demoralize: maneuvers.demoralize, c.Feint: maneuvers.feint,
    c.OtherAction: maneuvers.other_action, c.DeceptiveSidestep: strikes.sidestep, c.DeclineSidestep: strikes.decline_sidestep,
    c.ReadyReaction: strikes.ready_reaction, c.WithdrawReaction: strikes.withdraw_reaction,
    c.CastSpell: spells.cast, c.DuelingCounter: spells.counter, c.DeclineCounter: spells.decline_counter,
    c.ChangeTraditionFocus: spells.change_focus,
    c.ConfirmVictory: ending.confirm_victory, c.DeclineVictory: ending.decline_victory,
}
ANSWERS_PENDING = {"strike": (c.DeceptiveSidestep, c.DeclineSidestep),
                   "spell": (c.DuelingCounter, c.DeclineCounter)}
WAITING = {"strike": t("the target must first use or decline Deceptive Sidestep"),
           "spell": t("an opponent may first use Dueling Counter or let the spell take effect")}


def decide(state: dict, command, dice: Dice) -> list:
    """The events that follow from ``command``, or Refused with the reason."""
    if isinstance(command, c.EscalateToCombat):
        return ending.escalate(state, command)
    require_running(state)
    if isinstance(command, conditions.SetCondition):  # a fix by hand, whatever the table waits for
        return conditions.decide(state, command)
    if isinstance(command, Disqualify):
        return ending.disqualify(state, command)
    if isinstance(command, (Yield, Abandon)):
        return decide_ending(state, command)
    if state["proposal"] and not isinstance(command, (c.ConfirmVictory, c.DeclineVictory)):
        raise Refused(t("{detail}: the judge must first confirm or decline the victory",
                        detail=state["proposal"]["detail"]))
    pending = state["pending"]
    if pending and not isinstance(command, ANSWERS_PENDING[pending["kind"]]):
        raise Refused(WAITING[pending["kind"]])
    return handled_by(HANDLERS, state, command, dice)
