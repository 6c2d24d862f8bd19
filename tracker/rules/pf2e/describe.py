"""A Pathfinder 2e duel in plain language: one line for the log per event."""
from __future__ import annotations

from functools import singledispatch

from tracker.rules.duel import DuelStarted, describe_ending, names

from . import events as ev
from .checks import DEGREE_LABELS
from .setup import judge_name
from .table import REACTION_NAMES, name
from .terms import KINDS, VICTORIES


def describe(state: dict, event) -> str:
    """One plain line for the log, given the state before the event."""
    return describe_ending(state, event) or _line(event, state)


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


@singledispatch
def _line(event, state: dict) -> str:
    return type(event).__name__


@_line.register
def _(e: DuelStarted, state):
    state = state or {"duelists": [dict(d) for d in e.duelists], "judge": e.judge}  # nothing before the start
    victory = VICTORIES[e.settings["victory"]]
    return (f"{KINDS[e.kind]}: {names(state, 'a')} against {names(state, 'b')}, until {victory}; "
            f"judge: {judge_name(state)}.")


@_line.register
def _(e: ev.Pf2eSkillChosen, state):
    # Sealed: the line says only that a choice was made (or changed), never the skill.
    again = e.duelist in (state.get("sealed") or {})
    return (f"Round {e.round}: {name(state, e.duelist)} has {'changed their' if again else 'chosen a'} "
            "skill for initiative.")


@_line.register
def _(e: ev.Pf2eInitiativeRolled, state):
    # The skill stays out of the log: the opponent must never learn it.
    return f"Round {e.round}: {name(state, e.duelist)} rolls {e.total} for initiative."


@_line.register
def _(e: ev.Pf2eRoundOrdered, state):
    # Totals only, never the skills: players may read this line in a recap.
    def score(who: str) -> str:
        roll = state["rolls"].get(who)
        return f"{name(state, who)} {roll['total']}" if roll else name(state, who)

    tiers = [" = ".join(score(i) for i in tier) for tier in e.tiers]
    tied = any(len(t) > 1 for t in e.tiers)
    return f"Round {e.round} initiative: " + ", ".join(tiers) + ("; the GM breaks the tie." if tied else ".")


@_line.register
def _(e: ev.Pf2eTieBroken, state):
    return f"Round {e.round}: the GM has {name(state, e.first)} act first among the tied."


@_line.register
def _(e: ev.Pf2eActedSecond, state):
    return f"Round {e.round}: {name(state, e.duelist)} won initiative and chooses to act second."


@_line.register
def _(e: ev.Pf2eStrikeRolled, state):
    reaction = f" with {REACTION_NAMES[e.reaction]}" if e.reaction else ""
    return (f"{name(state, e.attacker)} Strikes {name(state, e.target)}{reaction}: "
            f"{e.die}{_signed(e.modifier)} = {e.total} vs AC {e.ac}, {DEGREE_LABELS[e.degree]}.")


@_line.register
def _(e: ev.Pf2eSidestepUsed, state):
    penalty = f" {_signed(e.penalty)}" if e.penalty else ""
    return (f"{name(state, e.defender)} uses Deceptive Sidestep: {name(state, e.attacker)} rolls again, "
            f"{e.die}{_signed(e.modifier)}{penalty} = {e.total} vs AC {e.ac}, {DEGREE_LABELS[e.degree]}.")


@_line.register
def _(e: ev.Pf2eReactionReadied, state):
    return f"{name(state, e.duelist)} readies {REACTION_NAMES[e.reaction]} for their next melee Strike."


@_line.register
def _(e: ev.Pf2eReactionWithdrawn, state):
    return f"{name(state, e.duelist)} no longer readies {REACTION_NAMES[e.reaction]}."


@_line.register
def _(e: ev.Pf2eSidestepDeclined, state):
    return f"{name(state, e.defender)} lets the hit stand."


@_line.register
def _(e: ev.Pf2eDamageDealt, state):
    how = f"{e.expression} ({' '.join(map(str, e.dice))}) = {e.base}" if e.expression else f"{e.base} typed"
    times = {"full": "", "double": ", doubled", "half": ", halved", "none": ", none taken"}[e.multiplier]
    left = max(state["hp"][e.target] - e.amount, 0)  # as the fold counts it, also after a retraction
    return (f"{e.source}: {name(state, e.attacker)} deals {e.amount} damage to {name(state, e.target)} "
            f"[{how}{times}]: {left} HP left.")


@_line.register
def _(e: ev.Pf2eFrightened, state):
    return f"{name(state, e.duelist)} is frightened {e.value}" + (f" ({e.cause})." if e.cause else ".")


@_line.register
def _(e: ev.Pf2eOffGuard, state):
    return f"{name(state, e.duelist)} is off-guard until the start of their next turn ({e.cause})."


@_line.register
def _(e: ev.Pf2eTurnEnded, state):
    text = f"{name(state, e.duelist)} ends the turn"
    if state["frightened"][e.duelist]:
        text += f" (frightened {e.frightened})"
    if not e.next:
        return text + f"; round {state['round']} is over: roll initiative."
    return text + ("; a new round: " if e.new_round else "; ") + f"{name(state, e.next)} acts."


@_line.register
def _(e: ev.Pf2eTagged, state):
    return f"Tag: {name(state, e.out)} steps out and {name(state, e.into)} steps in."


@_line.register
def _(e: ev.Pf2eSpellCast, state):
    slot = "cantrip" if e.cantrip else f"rank {e.rank} slot"
    at = f" at {name(state, e.target)}" if e.target else ""
    return f"{name(state, e.caster)} casts {e.spell} (rank {e.rank}, {e.tradition}, {slot}){at}."


@_line.register
def _(e: ev.Pf2eCounterAttempted, state):
    result = "counteracted" if e.counteracted else "not counteracted"
    return (f"{name(state, e.duelist)} uses Dueling Counter with a rank {e.slot_rank} slot: "
            f"{e.die}{_signed(e.modifier)} = {e.total} vs DC {e.dc}, {DEGREE_LABELS[e.degree]}: "
            f"{e.spell} (rank {e.spell_rank}) is {result}.")


@_line.register
def _(e: ev.Pf2eCounterDeclined, state):
    return f"No Dueling Counter: {e.spell} takes effect."


def _check(e) -> str:
    return f"{e.die}{_signed(e.modifier)} = {e.total} vs DC {e.dc}, {DEGREE_LABELS[e.degree]}"


@_line.register
def _(e: ev.Pf2eDemoralized, state):
    text = f"{name(state, e.duelist)} Demoralizes {name(state, e.target)}: Intimidation {_check(e)}"
    if not e.frightened:
        return text + "."
    now = max(e.frightened, state["frightened"][e.target])
    return text + f": {name(state, e.target)} is frightened {now}."


FEINT_RESULTS = {
    "critical_success": "{target} is off-guard against {actor}'s melee attacks until the end of {actor}'s next turn",
    "success": "{target} is off-guard against {actor}'s next melee attack this turn",
    "critical_failure": "{actor} is off-guard against {target}'s melee attacks until the end of {actor}'s next turn",
}


@_line.register
def _(e: ev.Pf2eFeinted, state):
    text = f"{name(state, e.duelist)} Feints {name(state, e.target)}: Deception {_check(e)}"
    result = FEINT_RESULTS.get(e.degree)
    if not result:
        return text + "."
    return text + ": " + result.format(actor=name(state, e.duelist), target=name(state, e.target)) + "."


@_line.register
def _(e: ev.Pf2eActionTaken, state):
    cost = {0: "free action", 1: "1 action"}.get(e.cost, f"{e.cost} actions")
    text = f"{name(state, e.duelist)}: {e.action} ({cost})"
    return text + (f": {_check(e)}." if e.die else ".")


@_line.register
def _(e: ev.Pf2eFocusChanged, state):
    return f"{name(state, e.duelist)} uses Change Tradition Focus."


@_line.register
def _(e: ev.Pf2eVictoryProposed, state):
    return (f"Victory condition met ({e.ending.replace('_', ' ')}: {e.detail}): "
            f"{judge_name(state)} must confirm that {names(state, e.side)} won.")


@_line.register
def _(e: ev.Pf2eVictoryDeclined, state):
    return f"{judge_name(state)} does not confirm the victory" + (f": {e.reason}." if e.reason else ".")


@_line.register
def _(e: ev.Pf2ePenaltyImposed, state):
    return f"The agreed penalty falls on {names(state, e.side)}: {e.penalty}."


@_line.register
def _(e: ev.Pf2eDuelEscalated, state):
    who = f"{names(state, e.side)} fought on" if e.side else "The fight went on"
    return f"{who} after the duel's end: it is now normal combat" + (f" ({e.detail})." if e.detail else ".")
