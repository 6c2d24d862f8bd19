"""Folding a Pathfinder 2e duel's events into its state, one event at a time, never in place.

The fold never invents or loses HP, a slot, a reaction or an ending: an event the state could
not have produced (damage landing on other HP than recorded, a slot the caster no longer has,
an answer to a spell or strike nobody made, a victory the HP do not show) raises
``ImpossibleHistory``; the rules never decide one.
"""
from __future__ import annotations

from .adjust import adjustable_tracks, set_track

import copy
from functools import partial

from tracker.rules.dispatch import by_type
from tracker.rules import duel
from tracker.rules.duel import DuelStarted, impossible

from . import events as ev
from .describe import describe, ending_detail, proposal_detail
from .invariants import ENDINGS
from .results import result
from .setup import hp_at_start
from .sheet import parse_slots
from .table import gains, stats


def _started(event: DuelStarted) -> dict:
    state = duel.initial(event)
    ids = [d["id"] for d in event.duelists]
    by_side = {}
    for d in event.duelists:
        by_side.setdefault(d["side"], d["id"])
    state.update(
        hp={d["id"]: hp_at_start(d) for d in event.duelists},
        round=1, phase="initiative", rolls={}, tiers=[], order=[], turn=None, acted=False, strikes=0,
        actions=0, usual_skill={}, exposures=[], demoralized=[],
        reaction={}, reacted={}, readied={}, focus={}, refocus={},
        frightened={i: 0 for i in ids}, off_guard=[],
        slots={d["id"]: parse_slots(d["stats"].get("spell_slots") or "") for d in event.duelists},
        expended={i: {} for i in ids},
        active=by_side if event.settings.get("teams") == "tag" else None,
        pending=None, proposal=None, spells=[], penalty=None, escalated=None, sealed={}, sealed_dice={},
    )
    return state


AFTER_THE_END = (ev.Pf2ePenaltyImposed, ev.Pf2eDuelEscalated)  # what may follow an ending


def mutate(e, state: dict, at: int) -> dict:
    """The state after one of the duel's own events, once its check (``CHECKS``) finds the state
    could have produced it."""
    check = CHECKS.get(type(e))
    if check:
        check(e, state)
    return fold(e, state, at)


def _penalty(e, state):
    if (state["outcome"] or {}).get("ending") != "disqualification":
        impossible("a penalty without a disqualification")


def _escalated(e, state):
    if not state["outcome"] or state["escalated"]:
        impossible("an escalation of a duel that had not ended, or had already escalated")


def _damage_lands(e, state):
    if e.hp_after != max(state["hp"][e.target] - e.amount, 0):
        impossible(f"{e.amount} damage leaving {e.hp_after} HP of {state['hp'][e.target]}")


def _answers(kind: str):
    def checked(e, state):
        if not state["pending"] or state["pending"]["kind"] != kind:
            impossible(f"an answer to a {kind} nobody is waiting on")
    return checked


def _slot(who: str, rank: int, state: dict) -> None:
    if state["slots"][who].get(str(rank), 0) <= 0:
        impossible(f"a rank {rank} slot spent that {who} no longer has")


def _counter(e, state):
    _answers("spell")(e, state)
    _slot(e.duelist, e.slot_rank, state)
    _reaction(e.duelist, "dueling_counter", state)


def _cast(e, state):
    if not e.cantrip:
        _slot(e.caster, e.rank, state)


def _reaction(who: str, reaction: str, state: dict) -> None:
    """One reaction a round, and only one the duelist gained this round."""
    if state["reacted"].get(who) or state["reaction"].get(who) != reaction:
        impossible(f"{who} used {reaction} without it, or twice in a round")


def _strike(e, state):
    if e.reaction:
        _reaction(e.attacker, e.reaction, state)


def _readied(e, state):
    _in_turn("duelist", e, state)
    _reaction(e.duelist, e.reaction, state)
    if (state.get("readied") or {}).get(e.duelist):
        impossible(f"{e.duelist} readied a second reaction")


def _withdrawn(e, state):
    if (state.get("readied") or {}).get(e.duelist) != e.reaction:
        impossible(f"{e.duelist} withdrew {e.reaction} without having readied it")


def _sidestep(e, state):
    _answers("strike")(e, state)
    _reaction(e.defender, "deceptive_sidestep", state)


def _acted_second(e, state):
    if len(state["order"]) < 2 or state["order"][0] != e.duelist:
        impossible("acting second without being first")


def _turn_of(attr: str):
    # pragma: no mutate block (runs only at import, building the ENDINGS/CHECKS tables)
    # A module-level check, not a closure built at import, so that it runs (and can be
    # mutation-tested) on every call.
    return partial(_in_turn, attr)


def _in_turn(attr: str, e, state):
    if state["turn"] != getattr(e, attr):
        impossible(f"{type(e).__name__} out of {getattr(e, attr)}'s turn")


def _affordable(cost_of):
    # pragma: no mutate block (runs only at import, building the ENDINGS/CHECKS tables)
    return partial(_within_actions, cost_of)


def _within_actions(cost_of, e, state):
    """A new action (Demoralize, Feint, any other) on its duelist's turn, within the three actions.
    Strikes and spells logged before actions were counted are not held to it."""
    _in_turn("duelist", e, state)
    if state.get("actions", 0) + cost_of(e) > 3:
        impossible(f"{type(e).__name__} beyond the turn's three actions")


def _initiative(e, state):
    if state["phase"] != "initiative":
        impossible("initiative rolled in the middle of a round")
    sealed = state.get("sealed") or {}
    if sealed and sealed.get(e.duelist) != e.skill:
        impossible(f"{e.duelist} rolled {e.skill}, not the skill chosen in secret")


def _skill_chosen(e, state):
    if state["phase"] != "initiative" or e.round != state["round"]:
        impossible("an initiative skill chosen in the middle of a round")


def _proposed(e, state):
    if state["proposal"]:
        impossible("a victory proposed while another waits")
    why = ENDINGS[e.ending](state, e.side) if e.ending in ENDINGS else ""
    if why:
        impossible(f"a victory by {e.ending} proposed, but {why}")


def _declined(e, state):
    if not state["proposal"]:
        impossible("a victory declined that nobody proposed")


CHECKS = {ev.Pf2eDamageDealt: _damage_lands, ev.Pf2eSidestepUsed: _sidestep, ev.Pf2eStrikeRolled: _strike,
          ev.Pf2eReactionReadied: _readied, ev.Pf2eReactionWithdrawn: _withdrawn,
          ev.Pf2eSidestepDeclined: _answers("strike"), ev.Pf2eCounterAttempted: _counter,
          ev.Pf2eCounterDeclined: _answers("spell"), ev.Pf2eSpellCast: _cast,
          ev.Pf2eActedSecond: _acted_second, ev.Pf2eTurnEnded: _turn_of("duelist"),
          ev.Pf2eInitiativeRolled: _initiative, ev.Pf2eSkillChosen: _skill_chosen, ev.Pf2eDemoralized: _affordable(lambda e: 1),
          ev.Pf2eFeinted: _affordable(lambda e: 1), ev.Pf2eActionTaken: _affordable(lambda e: e.cost),
          ev.Pf2eVictoryProposed: _proposed,
          ev.Pf2eVictoryDeclined: _declined, ev.Pf2ePenaltyImposed: _penalty, ev.Pf2eDuelEscalated: _escalated}


@by_type
def fold(event, state: dict, at: int) -> dict:
    """The state after ``event``, unchecked (``decide`` folds what it just decided)."""
    raise TypeError(f"not a pf2e event: {type(event).__name__}")


@fold.register
def _(e: ev.Pf2eSkillChosen, state, at):
    return dict(state, sealed={**(state.get("sealed") or {}), e.duelist: e.skill},
                sealed_dice={**(state.get("sealed_dice") or {}), e.duelist: e.die})


@fold.register
def _(e: ev.Pf2eInitiativeRolled, state, at):
    reaction, focus = gains(state["kind"], stats(state, e.duelist), e.skill)
    roll = {"skill": e.skill, "die": e.die, "modifier": e.modifier, "total": e.total}
    sealed = {who: skill for who, skill in (state.get("sealed") or {}).items() if who != e.duelist}
    dice = {who: die for who, die in (state.get("sealed_dice") or {}).items() if who != e.duelist}
    return dict(_with(state, rolls={e.duelist: roll}, reaction={e.duelist: reaction},
                      focus={e.duelist: focus}, refocus={e.duelist: focus is not None}),
                sealed=sealed, sealed_dice=dice, usual_skill={**state.get("usual_skill", {}), e.duelist: e.skill})


@fold.register
def _(e: ev.Pf2eRoundOrdered, state, at):
    return _settle(dict(state, tiers=[list(t) for t in e.tiers], phase="ordering"))


@fold.register
def _(e: ev.Pf2eTieBroken, state, at):
    tiers = []
    for tier in state["tiers"]:
        if e.first in tier:
            tiers += [[e.first], [i for i in tier if i != e.first]]
        else:
            tiers.append(list(tier))
    return _settle(dict(state, tiers=tiers))


@fold.register
def _(e: ev.Pf2eActedSecond, state, at):
    order = list(state["order"])
    order[0], order[1] = order[1], order[0]
    return _begin(dict(state, order=order, acted=True), order[0])


@fold.register
def _(e: ev.Pf2eStrikeRolled, state, at):
    new = _spent(dict(state, strikes=state["strikes"] + 1, acted=True), 1)
    if e.melee:  # a Feint's "next melee attack" is this one
        new["exposures"] = [x for x in state.get("exposures", [])
                            if not (x["once"] and x["who"] == e.target and x["against"] == e.attacker)]
    if e.reaction:
        new = dict(_with(new, reacted={e.attacker: True}), readied=_unready(state, e.attacker))
    pending = None
    if e.pending:
        pending = {"kind": "strike", "attacker": e.attacker, "target": e.target, "reaction": e.reaction,
                   "modifier": e.modifier, "ac": e.ac, "die": e.die, "degree": e.degree,
                   "damage_typed": e.damage_typed, "end_turn": e.end_turn}
    return dict(new, pending=pending)


@fold.register
def _(e: ev.Pf2eReactionReadied, state, at):
    return dict(state, readied={**(state.get("readied") or {}), e.duelist: e.reaction})


@fold.register
def _(e: ev.Pf2eReactionWithdrawn, state, at):
    return dict(state, readied=_unready(state, e.duelist))


def _unready(state: dict, who: str) -> dict:
    return {k: v for k, v in (state.get("readied") or {}).items() if k != who}


@fold.register
def _(e: ev.Pf2eSidestepUsed, state, at):
    return dict(_with(state, reacted={e.defender: True}), pending=None)


@fold.register
def _(e: ev.Pf2eSidestepDeclined, state, at):
    return dict(state, pending=None)


@fold.register
def _(e: ev.Pf2eDamageDealt, state, at):
    hp = e.hp_after  # the check saw it is what the amount leaves of the HP
    new = _with(state, hp={e.target: hp})
    return duel.wound(new, e.target, "HP", state["hp"][e.target] - hp, at, e.source)


@fold.register
def _(e: ev.Pf2eFrightened, state, at):
    return _with(state, frightened={e.duelist: e.value})


@fold.register
def _(e: ev.Pf2eOffGuard, state, at):
    return dict(state, off_guard=sorted(set(state["off_guard"]) | {e.duelist}))


@fold.register
def _(e: ev.Pf2eDemoralized, state, at):
    new = _spent(dict(state, acted=True), 1)
    new["demoralized"] = state.get("demoralized", []) + [[e.duelist, e.target]]
    return _with(new, frightened={e.target: max(e.frightened, state["frightened"][e.target])})


@fold.register
def _(e: ev.Pf2eFeinted, state, at):
    new = _spent(dict(state, acted=True), 1)
    exposure = FEINT_EXPOSURES.get(e.degree)
    if exposure:
        who, against = (e.target, e.duelist) if e.exposed == e.target else (e.duelist, e.target)
        new["exposures"] = state.get("exposures", []) + [dict(exposure, who=who, against=against, owner=e.duelist)]
    return new


# What a Feint leaves, by degree: off-guard against the other's melee attacks until ``ends`` more
# of the feinter's turns have ended (1: this one, 2: their next), or only the next such attack.
FEINT_EXPOSURES = {"critical_success": {"ends": 2, "once": False},
                   "success": {"ends": 1, "once": True},
                   "critical_failure": {"ends": 2, "once": False}}


@fold.register
def _(e: ev.Pf2eActionTaken, state, at):
    new = _spent(dict(state, acted=True), e.cost)
    return dict(new, strikes=new["strikes"] + 1) if e.attack else new


@fold.register
def _(e: ev.Pf2eTurnEnded, state, at):
    new = _with(state, frightened={e.duelist: e.frightened})
    new.update(strikes=0, turn=None, actions=0, readied=_unready(state, e.duelist))  # readied for this turn only
    new["exposures"] = [dict(x, ends=x["ends"] - (x["owner"] == e.duelist)) for x in state.get("exposures", [])
                        if not (x["owner"] == e.duelist and x["ends"] <= 1)]
    if e.new_round:
        new.update(round=state["round"] + 1, reacted={})
    if e.next:
        return _begin(new, e.next)
    # A combat or mixed round is over: initiative is rolled again, with new reactions.
    focus = {} if state["kind"] == "mixed" else state["focus"]
    refocus = {} if state["kind"] == "mixed" else state["refocus"]
    new.update(round=state["round"] + 1, phase="initiative", rolls={}, tiers=[], order=[], acted=False,
               reaction={}, reacted={}, focus=focus, refocus=refocus)
    return new


@fold.register
def _(e: ev.Pf2eTagged, state, at):
    return _with(state, active={e.side: e.into})


@fold.register
def _(e: ev.Pf2eSpellCast, state, at):
    new = _spent(dict(state, acted=True), e.actions)
    if not e.cantrip:
        new = _spend(new, e.caster, e.rank)
    entry = {"at": at, "caster": e.caster, "spell": e.spell, "rank": e.rank, "tradition": e.tradition,
             "cantrip": e.cantrip, "countered": None, "counter": None}
    pending = None
    if e.pending:
        pending = {"kind": "spell", "caster": e.caster, "target": e.target, "spell": e.spell, "rank": e.rank,
                   "tradition": e.tradition, "damage_expr": e.damage_expr, "damage_typed": e.damage_typed,
                   "effect": e.effect}
    return dict(new, spells=state["spells"] + [entry], pending=pending)


@fold.register
def _(e: ev.Pf2eCounterAttempted, state, at):
    new = _spend(_with(state, reacted={e.duelist: True}), e.duelist, e.slot_rank)
    last = dict(new["spells"][-1], countered=e.counteracted,
                counter={"by": e.duelist, "slot_rank": e.slot_rank, "total": e.total, "dc": e.dc,
                         "degree": e.degree, "at": at})
    return dict(new, spells=new["spells"][:-1] + [last], pending=None)


@fold.register
def _(e: ev.Pf2eCounterDeclined, state, at):
    last = dict(state["spells"][-1], countered=False)
    return dict(state, spells=state["spells"][:-1] + [last], pending=None)


@fold.register
def _(e: ev.Pf2eFocusChanged, state, at):
    return _with(_spent(state, 1), focus={e.duelist: e.tradition})


@fold.register
def _(e: ev.Pf2eVictoryProposed, state, at):
    return dict(state, proposal={"side": e.side, "ending": e.ending, "detail": proposal_detail(state, e), "at": at})


@fold.register
def _(e: ev.Pf2eVictoryDeclined, state, at):
    return dict(state, proposal=None)


@fold.register
def _(e: ev.Pf2ePenaltyImposed, state, at):
    return dict(state, penalty={"side": e.side, "text": e.penalty, "at": at})


@fold.register
def _(e: ev.Pf2eDuelEscalated, state, at):
    return dict(state, escalated={"side": e.side, "detail": e.detail, "at": at})


# --- helpers ------------------------------------------------------------------------

def _with(state: dict, **merges: dict) -> dict:
    """A copy of ``state`` with each named dict merged with new entries."""
    new = dict(state)
    for key, entries in merges.items():
        new[key] = {**state[key], **entries}
    return new


def _settle(state: dict) -> dict:
    """Once no tie is left, the tiers become the round's order and the first turn begins."""
    if not state["tiers"] or any(len(t) > 1 for t in state["tiers"]):
        return state
    order = [t[0] for t in state["tiers"]]
    return _begin(dict(state, order=order, tiers=[], phase="turns"), order[0])


def _begin(state: dict, who: str) -> dict:
    """``who``'s turn starts with three actions: off-guard that lasted until now ends."""
    return dict(state, turn=who, strikes=0, actions=0, off_guard=[i for i in state["off_guard"] if i != who])


def _spent(state: dict, cost: int) -> dict:
    """The turn's actions after one costing ``cost`` (states folded before actions were counted
    start from none spent)."""
    return dict(state, actions=state.get("actions", 0) + cost)


def _spend(state: dict, who: str, rank: int) -> dict:
    key = str(rank)
    slots = copy.deepcopy(state["slots"])
    expended = copy.deepcopy(state["expended"])
    slots[who][key] = slots[who].get(key, 0) - 1  # the check saw a slot was left
    expended[who][key] = expended[who].get(key, 0) + 1
    return dict(state, slots=slots, expended=expended)


evolve = duel.evolver(_started, mutate, describe, ENDINGS, after_the_end=AFTER_THE_END, result=result,
                      adjustable=adjustable_tracks, set_track=set_track, ending_detail=ending_detail)
