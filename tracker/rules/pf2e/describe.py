"""A Pathfinder 2e duel in plain language: one line for the log per event."""
from __future__ import annotations


from tracker.rules.dispatch import by_type
from tracker.rules.duel import DuelStarted, DuelWon, describe_ending, ending_label, names, other
from tracker.rules.text import N_, Text, join, t, tn

from . import events as ev
from .checks import DEGREE_LABELS
from .setup import judge_name
from .sheet import TRADITION_NAMES
from .table import REACTION_NAMES, name
from .terms import KINDS, VICTORIES


def describe(state: dict, event) -> Text:
    """One plain line for the log, given the state before the event."""
    return describe_ending(state, event, ending_detail) or _line(event, state)


def proposal_detail(state: dict, e: ev.Pf2eVictoryProposed) -> Text | str:
    """What the rules saw when they proposed a victory, from the state before the proposal: who
    drew first blood from whom, or which side is knocked out."""
    if e.sentence:  # an old log stored the sentence itself
        return e.sentence
    if e.ending == "first_blood" and e.attacker:
        return t("{attacker} drew first blood from {target}", attacker=name(state, e.attacker),
                 target=name(state, e.target))
    if e.ending == "knockout":
        return t("{names} knocked out", names=names(state, other(e.side)))
    return ending_label(e.ending)  # a proposal the fold refuses as impossible: told before it checks


def ending_detail(state: dict, event) -> Text | None:
    """How a victory the judge confirmed is told, from the state before it: the judge's words on
    the agreed condition (a custom victory), or else what the rules proposed; None when the judge's
    own words (on a proposed victory) tell it."""
    if not isinstance(event, DuelWon):
        return None
    if event.ending == "custom":
        return t("{judge} confirmed: {detail}", judge=judge_name(state),
                 detail=event.detail or state["settings"]["victory_text"])
    if event.detail or not state.get("proposal"):
        return None
    return state["proposal"]["detail"]


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


@by_type
def _line(event, state: dict):
    return type(event).__name__


@_line.register
def _(e: DuelStarted, state):
    state = state or {"duelists": [dict(d) for d in e.duelists], "judge": e.judge}  # nothing before the start
    victory = VICTORIES[e.settings["victory"]]
    return t("{kind}: {a} against {b}, until {victory}; judge: {judge}.", kind=KINDS[e.kind], a=names(state, "a"),
             b=names(state, "b"), victory=victory, judge=judge_name(state))


@_line.register
def _(e: ev.Pf2eSkillChosen, state):
    # Sealed: the line says only that a choice was made (or changed), never the skill.
    if e.duelist in (state.get("sealed") or {}):
        return t("Round {round}: {name} has changed their skill for initiative.", round=e.round,
                 name=name(state, e.duelist))
    return t("Round {round}: {name} has chosen a skill for initiative.", round=e.round, name=name(state, e.duelist))


@_line.register
def _(e: ev.Pf2eInitiativeRolled, state):
    # The skill stays out of the log: the opponent must never learn it.
    return t("Round {round}: {name} rolls {total} for initiative.", round=e.round, name=name(state, e.duelist),
             total=e.total)


@_line.register
def _(e: ev.Pf2eRoundOrdered, state):
    # Totals only, never the skills: players may read this line in a recap.
    def score(who: str):
        roll = state["rolls"].get(who)
        return f"{name(state, who)} {roll['total']}" if roll else name(state, who)

    tiers = join([join([score(i) for i in tier], " = ") for tier in e.tiers])
    if any(len(tier) > 1 for tier in e.tiers):
        return t("Round {round} initiative: {order}; the GM breaks the tie.", round=e.round, order=tiers)
    return t("Round {round} initiative: {order}.", round=e.round, order=tiers)


@_line.register
def _(e: ev.Pf2eTieBroken, state):
    return t("Round {round}: the GM has {name} act first among the tied.", round=e.round, name=name(state, e.first))


@_line.register
def _(e: ev.Pf2eActedSecond, state):
    return t("Round {round}: {name} won initiative and chooses to act second.", round=e.round,
             name=name(state, e.duelist))


@_line.register
def _(e: ev.Pf2eStrikeRolled, state):
    values = dict(attacker=name(state, e.attacker), target=name(state, e.target), die=e.die,
                  modifier=_signed(e.modifier), total=e.total, ac=e.ac, degree=DEGREE_LABELS[e.degree])
    if e.reaction:
        return t("{attacker} Strikes {target} with {reaction}: {die}{modifier} = {total} vs AC {ac}, {degree}.",
                 reaction=REACTION_NAMES[e.reaction], **values)
    return t("{attacker} Strikes {target}: {die}{modifier} = {total} vs AC {ac}, {degree}.", **values)


@_line.register
def _(e: ev.Pf2eSidestepUsed, state):
    penalty = f" {_signed(e.penalty)}" if e.penalty else ""
    return t("{defender} uses Deceptive Sidestep: {attacker} rolls again, {die}{modifier}{penalty} = {total} vs AC "
             "{ac}, {degree}.", defender=name(state, e.defender), attacker=name(state, e.attacker), die=e.die,
             modifier=_signed(e.modifier), penalty=penalty, total=e.total, ac=e.ac, degree=DEGREE_LABELS[e.degree])


@_line.register
def _(e: ev.Pf2eReactionReadied, state):
    return t("{name} readies {reaction} for their next melee Strike.", name=name(state, e.duelist),
             reaction=REACTION_NAMES[e.reaction])


@_line.register
def _(e: ev.Pf2eReactionWithdrawn, state):
    return t("{name} no longer readies {reaction}.", name=name(state, e.duelist), reaction=REACTION_NAMES[e.reaction])


@_line.register
def _(e: ev.Pf2eSidestepDeclined, state):
    return t("{name} lets the hit stand.", name=name(state, e.defender))


def source_name(source: str) -> str:
    """What dealt the damage, as the reader says it: a Strike (a fixed word of the log, "Golpe" in
    Spanish) or the spell's name the GM typed (user data, as written)."""
    return t("Strike") if source == "Strike" else source


MULTIPLIED = {"full": "", "double": t(", doubled"), "half": t(", halved"), "none": t(", none taken")}


@_line.register
def _(e: ev.Pf2eDamageDealt, state):
    how = (t("{expression} ({dice}) = {base}", expression=e.expression, dice=" ".join(map(str, e.dice)), base=e.base)
           if e.expression else t("{base} typed", base=e.base))
    left = max(state["hp"][e.target] - e.amount, 0)  # as the fold counts it, also after a retraction
    return t("{source}: {attacker} deals {amount} damage to {target} [{how}{times}]: {left} HP left.",
             source=source_name(e.source), attacker=name(state, e.attacker), amount=e.amount, target=name(state, e.target),
             how=how, times=MULTIPLIED[e.multiplier], left=left)


@_line.register
def _(e: ev.Pf2eFrightened, state):
    if e.cause:
        return t("{name} is frightened {value} ({cause}).", name=name(state, e.duelist), value=e.value, cause=e.cause)
    return t("{name} is frightened {value}.", name=name(state, e.duelist), value=e.value)


@_line.register
def _(e: ev.Pf2eOffGuard, state):
    return t("{name} is off-guard until the start of their next turn ({cause}).", name=name(state, e.duelist),
             cause=e.cause)


@_line.register
def _(e: ev.Pf2eTurnEnded, state):
    who = name(state, e.duelist)
    text = (t("{name} ends the turn (frightened {value})", name=who, value=e.frightened)
            if state["frightened"][e.duelist] else t("{name} ends the turn", name=who))
    if not e.next:
        return t("{ended}; round {round} is over: roll initiative.", ended=text, round=state["round"])
    if e.new_round:
        return t("{ended}; a new round: {name} acts.", ended=text, name=name(state, e.next))
    return t("{ended}; {name} acts.", ended=text, name=name(state, e.next))


@_line.register
def _(e: ev.Pf2eTagged, state):
    return t("Tag: {out} steps out and {into} steps in.", out=name(state, e.out), into=name(state, e.into))


@_line.register
def _(e: ev.Pf2eSpellCast, state):
    slot = t("cantrip") if e.cantrip else t("rank {rank} slot", rank=e.rank)
    values = dict(caster=name(state, e.caster), spell=e.spell, rank=e.rank,
                  tradition=TRADITION_NAMES.get(e.tradition, e.tradition), slot=slot)
    if e.target:
        return t("{caster} casts {spell} (rank {rank}, {tradition}, {slot}) at {target}.", target=name(state, e.target),
                 **values)
    return t("{caster} casts {spell} (rank {rank}, {tradition}, {slot}).", **values)


@_line.register
def _(e: ev.Pf2eCounterAttempted, state):
    values = dict(name=name(state, e.duelist), slot=e.slot_rank, die=e.die, modifier=_signed(e.modifier), total=e.total,
                  dc=e.dc, degree=DEGREE_LABELS[e.degree], spell=e.spell, rank=e.spell_rank)
    if e.counteracted:
        return t("{name} uses Dueling Counter with a rank {slot} slot: {die}{modifier} = {total} vs DC {dc}, "
                 "{degree}: {spell} (rank {rank}) is counteracted.", **values)
    return t("{name} uses Dueling Counter with a rank {slot} slot: {die}{modifier} = {total} vs DC {dc}, "
             "{degree}: {spell} (rank {rank}) is not counteracted.", **values)


@_line.register
def _(e: ev.Pf2eCounterDeclined, state):
    return t("No Dueling Counter: {spell} takes effect.", spell=e.spell)


def _check(e):
    return t("{die}{modifier} = {total} vs DC {dc}, {degree}", die=e.die, modifier=_signed(e.modifier), total=e.total,
             dc=e.dc, degree=DEGREE_LABELS[e.degree])


@_line.register
def _(e: ev.Pf2eDemoralized, state):
    values = dict(name=name(state, e.duelist), target=name(state, e.target), check=_check(e))
    if not e.frightened:
        return t("{name} Demoralizes {target}: Intimidation {check}.", **values)
    now = max(e.frightened, state["frightened"][e.target])
    return t("{name} Demoralizes {target}: Intimidation {check}: {target} is frightened {value}.", value=now, **values)


FEINT_RESULTS = {
    "critical_success": N_("{name} Feints {target}: Deception {check}: {target} is off-guard against {name}'s melee "
                           "attacks until the end of {name}'s next turn."),
    "success": N_("{name} Feints {target}: Deception {check}: {target} is off-guard against {name}'s next melee "
                  "attack this turn."),
    "critical_failure": N_("{name} Feints {target}: Deception {check}: {name} is off-guard against {target}'s melee "
                           "attacks until the end of {name}'s next turn."),
}


@_line.register
def _(e: ev.Pf2eFeinted, state):
    values = dict(name=name(state, e.duelist), target=name(state, e.target), check=_check(e))
    result = FEINT_RESULTS.get(e.degree)
    if not result:
        return t("{name} Feints {target}: Deception {check}.", **values)
    return t(result, **values)


@_line.register
def _(e: ev.Pf2eActionTaken, state):
    cost = t("free action") if e.cost == 0 else tn("{count} action", "{count} actions", e.cost)
    values = dict(name=name(state, e.duelist), action=e.action, cost=cost)
    if e.die:
        return t("{name}: {action} ({cost}): {check}.", check=_check(e), **values)
    return t("{name}: {action} ({cost}).", **values)


@_line.register
def _(e: ev.Pf2eFocusChanged, state):
    return t("{name} uses Change Tradition Focus.", name=name(state, e.duelist))


@_line.register
def _(e: ev.Pf2eVictoryProposed, state):
    return t("Victory condition met ({ending}: {detail}): {judge} must confirm that {names} won.",
             ending=ending_label(e.ending), detail=proposal_detail(state, e), judge=judge_name(state),
             names=names(state, e.side))


@_line.register
def _(e: ev.Pf2eVictoryDeclined, state):
    if e.reason:
        return t("{judge} does not confirm the victory: {reason}.", judge=judge_name(state), reason=e.reason)
    return t("{judge} does not confirm the victory.", judge=judge_name(state))


@_line.register
def _(e: ev.Pf2ePenaltyImposed, state):
    return t("The agreed penalty falls on {names}: {penalty}.", names=names(state, e.side), penalty=e.penalty)


@_line.register
def _(e: ev.Pf2eDuelEscalated, state):
    if e.side:
        if e.detail:
            return t("{names} fought on after the duel's end: it is now normal combat ({detail}).",
                     names=names(state, e.side), detail=e.detail)
        return t("{names} fought on after the duel's end: it is now normal combat.", names=names(state, e.side))
    if e.detail:
        return t("The fight went on after the duel's end: it is now normal combat ({detail}).", detail=e.detail)
    return t("The fight went on after the duel's end: it is now normal combat.")
