"""How a Pathfinder 2e duel ends: the judge confirms the victory condition, a cheat is caught
(with the agreed penalty), a duelist yields; fighting on afterwards escalates to normal combat."""
from __future__ import annotations

from tracker.rules.base import Refused
from tracker.rules.dice import Dice
from tracker.rules.duel import DuelDisqualified, DuelWon, names, other, require_running

from . import events as ev
from .table import side
from tracker.rules.text import t


def after_damage(state: dict, damage: ev.Pf2eDamageDealt) -> list:
    """The victory the rules see after some damage, proposed to the judge."""
    victory = state["settings"]["victory"]
    if state["proposal"] or damage.amount <= 0 or victory == "custom":
        return []
    winner = side(state, damage.attacker)
    if victory == "first_blood":
        return [ev.Pf2eVictoryProposed(side=winner, ending="first_blood", attacker=damage.attacker,
                                       target=damage.target)]
    hp = dict(state["hp"], **{damage.target: damage.hp_after})
    loser = other(winner)
    if all(hp[d["id"]] <= 0 for d in state["duelists"] if d["side"] == loser):
        return [ev.Pf2eVictoryProposed(side=winner, ending="knockout")]
    return []


def knocked_out(state: dict) -> str | None:
    """[assumed] The side still standing over a side wholly at 0 HP in a knockout duel, once the
    judge declined that knockout, when the duel's setting lets it be confirmed later (else None):
    nothing else brings the side lower, so without it only a yield or an abandon ends the duel."""
    settings = state["settings"]
    if state["proposal"] or settings["victory"] != "knockout" \
            or settings.get("declined_knockout", "confirm") != "confirm":
        return None
    for loser in ("a", "b"):
        side_ids = [d["id"] for d in state["duelists"] if d["side"] == loser]
        if side_ids and all(state["hp"][i] <= 0 for i in side_ids):
            return other(loser)
    return None


def confirm_victory(state: dict, cmd, dice: Dice) -> list:
    standing = knocked_out(state)
    if standing is not None:
        if cmd.side and cmd.side != standing:
            raise Refused(t("the rules propose victory for {names}; decline it first if the judge sees otherwise",
                            names=names(state, standing)), field="side")
        return [DuelWon(side=standing, ending="knockout", detail=cmd.detail or "")]
    proposal = state["proposal"]
    if proposal:
        if cmd.side and cmd.side != proposal["side"]:
            raise Refused(t("the rules propose victory for {names}; decline it first if the judge sees otherwise",
                            names=names(state, proposal["side"])), field="side")
        return [DuelWon(side=proposal["side"], ending=proposal["ending"], detail=cmd.detail or "")]
    if state["settings"]["victory"] != "custom":
        what = t("nobody has drawn first blood") if state["settings"]["victory"] == "first_blood" \
            else t("no side is knocked out")
        raise Refused(t("the victory condition is not met yet: {what}", what=what))
    if not cmd.side:
        raise Refused(t("name the side that met the victory condition"), field="side")
    return [DuelWon(side=cmd.side, ending="custom", detail=cmd.detail or "")]


def decline_victory(state: dict, cmd, dice: Dice) -> list:
    if not state["proposal"]:
        raise Refused(t("no victory is waiting for the judge"))
    return [ev.Pf2eVictoryDeclined(reason=cmd.reason or "")]


def disqualify(state: dict, cmd) -> list:
    require_running(state)
    events = [DuelDisqualified(side=cmd.side, reason=cmd.reason or "")]
    if state["settings"]["penalty"]:
        events.append(ev.Pf2ePenaltyImposed(side=cmd.side, penalty=state["settings"]["penalty"]))
    return events


def escalate(state: dict, cmd) -> list:
    if not state.get("outcome"):
        raise Refused(t("the duel has not ended: there is nothing to escalate yet"))
    if state["escalated"]:
        raise Refused(t("this duel has already escalated to normal combat"))
    return [ev.Pf2eDuelEscalated(side=cmd.side or "", detail=cmd.detail or "")]
