"""Initiative with a secret skill, ties, acting second, ending turns and tagging in."""
from __future__ import annotations

from tracker.rules.base import Refused
from tracker.rules.dice import Dice

from . import events as ev
from .fold import evolve, fold
from .sheet import SKILL_NAMES
from .table import able, contenders, initiative_skills, is_npc, name, partner, stats, turn_holder, usual_skill
from tracker.rules.text import N_, join, t


def sealed_choices(state: dict) -> bool:
    """True when each duelist chooses their initiative skill in secret, rather than the GM recording it."""
    return state["settings"].get("choices") == "sealed"


def roll_initiative(state: dict, cmd, dice: Dice) -> list:
    """One duelist's initiative, or (no duelist named) everyone's still to roll, each with their
    usual skill, in the order of the duel's duelists."""
    if sealed_choices(state):
        raise Refused(t("in this duel each duelist chooses their skill in secret (on a seat, or the NPC's on "
                        "this page): choose, then roll"), field="skill")
    if state["phase"] != "initiative":
        if state["kind"] == "spellcasting":
            raise Refused(t("in a spellcasting duel initiative is rolled once, at the start, and holds"))
        raise Refused(t("initiative for round {round} is already rolled", round=state["round"]))
    if cmd.duelist:
        return _rolled(state, [(cmd.duelist, cmd.skill or usual_skill(state, cmd.duelist))], dice)
    if cmd.skill:
        raise Refused(t("a skill is one duelist's choice: name the duelist, or leave the skill empty "
                        "to roll everyone's usual one"), field="skill")
    waiting = [who for who in contenders(state) if who not in state["rolls"]]
    return _rolled(state, [(who, usual_skill(state, who)) for who in waiting], dice)


def _rolled(state: dict, choices: list[tuple[str, str]], dice: Dice) -> list:
    events, after = [], state
    allowed = initiative_skills(state["kind"])
    for who, skill in choices:
        if who not in contenders(state):
            raise Refused(t("{name} is not fighting this round", name=name(state, who)), field="duelist")
        if who in after["rolls"]:
            raise Refused(t("{name} has already rolled initiative this round", name=name(state, who)), field="duelist")
        if skill not in allowed:
            raise Refused(_skills_allowed(state), field="skill")
        modifier = stats(state, who)[skill] - state["frightened"][who]
        die = dice.roll(20, "roll", t("{name}'s initiative", name=name(state, who)))
        rolled = ev.Pf2eInitiativeRolled(round=state["round"], duelist=who, skill=skill, die=die,
                                         modifier=modifier, total=die + modifier)
        events.append(rolled)
        after = fold(rolled, after, 0)
    if set(after["rolls"]) < set(contenders(after)):
        return events
    return events + [ev.Pf2eRoundOrdered(round=state["round"], tiers=order_tiers(after))]


def choose_skill(state: dict, cmd, dice: Dice) -> list:
    """A sealed skill for this round's initiative; the last one chosen rolls them all (auto reveal)."""
    if not sealed_choices(state):
        raise Refused(t("in this duel the GM records each initiative roll and its skill"), field="skill")
    if state["phase"] != "initiative":
        raise Refused(t("initiative for round {round} is already rolled", round=state["round"]), field="skill")
    if cmd.round is not None and cmd.round != state["round"]:
        raise Refused(t("that choice was for round {chosen}, and the duel is now at round {round}: choose again",
                        chosen=cmd.round, round=state["round"]), field="skill")
    who = cmd.duelist
    if who not in contenders(state):
        raise Refused(t("{name} is not fighting this round", name=name(state, who)), field="duelist")
    if cmd.skill not in initiative_skills(state["kind"]):
        raise Refused(_skills_allowed(state), field="skill")
    by_seat = state["settings"].get("dice_by") == "seats"
    if by_seat and (len(cmd.dice_roll or ()) != 1 or not 1 <= cmd.dice_roll[0] <= 20):
        # Checked now, on the seat that typed it, as Rocèt's sealed dice are; the refusal names no die.
        raise Refused(t("type the d20 you rolled, e.g. 14"), field="dice_roll")
    if by_seat:
        # The seat's d20 is sealed with its skill and rolled at the reveal, not now: set aside, it is
        # not a typed die "left over" (the service refused it so, naming the die, and wedged the seat).
        dice.set_aside("roll", cmd.dice_roll)
    chosen = ev.Pf2eSkillChosen(round=state["round"], duelist=who, skill=cmd.skill,
                                die=cmd.dice_roll[0] if by_seat else 0)
    after = fold(chosen, state, 0)
    settings = state["settings"]
    if set(after["sealed"]) < set(contenders(after)) or settings.get("reveal", "auto") != "auto" \
            or settings.get("dice_by") == "table":
        return [chosen]
    return [chosen] + _roll_sealed(after, dice)


def reveal_skills(state: dict, cmd, dice: Dice) -> list:
    """The GM rolls every sealed skill: the server's d20s or the table's."""
    if not sealed_choices(state):
        raise Refused(t("in this duel the GM records each initiative roll and its skill"))
    if state["phase"] != "initiative":
        raise Refused(t("initiative for round {round} is already rolled", round=state["round"]))
    waiting = [name(state, who) for who in contenders(state) if who not in state.get("sealed", {})]
    if waiting:
        if len(waiting) == 1:
            raise Refused(t("waiting for {name} to choose", name=waiting[0]))
        raise Refused(t("waiting for {first} and {second} to choose", first=join(waiting[:-1]), second=waiting[-1]))
    return _roll_sealed(state, dice)


def _roll_sealed(state: dict, dice: Dice) -> list:
    if state["settings"].get("dice_by") == "seats":  # each seat's own d20, in the order they are rolled
        dice = dice.with_typed({"roll": [state["sealed_dice"][who] for who in contenders(state)]})
    return _rolled(state, [(who, state["sealed"][who]) for who in contenders(state)], dice)


SKILLS_ALLOWED = {"combat": N_("a combat duel's initiative uses {skills}"),
                  "spellcasting": N_("a spellcasting duel's initiative uses {skills}"),
                  "mixed": N_("a mixed duel's initiative uses {skills}")}


def _skills_allowed(state: dict):
    return t(SKILLS_ALLOWED[state["kind"]], skills=join((SKILL_NAMES[s] for s in initiative_skills(state["kind"])), ", "))


def order_tiers(state: dict) -> tuple:
    """Best result first; on a tie NPCs before PCs; what is still tied waits for the GM."""
    tiers = {}
    for d in state["duelists"]:
        roll = state["rolls"].get(d["id"])
        if roll:
            key = (-roll["total"], 0 if is_npc(state, d["id"]) else 1)
            tiers.setdefault(key, []).append(d["id"])
    return tuple(tuple(tiers[key]) for key in sorted(tiers))


def break_tie(state: dict, cmd, dice: Dice) -> list:
    tied = next((tier for tier in state["tiers"] if len(tier) > 1), None)
    if state["phase"] != "ordering" or tied is None:
        raise Refused(t("there is no initiative tie to break"))
    if cmd.first not in tied:
        raise Refused(t("{name} is not among the tied duelists: {tied}", name=name(state, cmd.first),
                        tied=join(name(state, i) for i in tied)), field="first")
    return [ev.Pf2eTieBroken(round=state["round"], first=cmd.first)]


def act_second(state: dict, cmd, dice: Dice) -> list:
    if state["kind"] == "spellcasting":
        raise Refused(t("acting second is a combat-duel choice"))
    first = turn_holder(state, None, "act second")
    if state["acted"] or first != state["order"][0] or len(state["order"]) < 2:
        raise Refused(t("only the initiative winner may choose to act second, before anyone acts this round"))
    return [ev.Pf2eActedSecond(round=state["round"], duelist=first)]


def end_turn(state: dict, cmd, dice: Dice) -> list:
    who = turn_holder(state, cmd.duelist, "end a turn")
    return [turn_ended(state, who)]


def then_end_turn(state: dict, events: list, who: str, end: bool) -> list:
    """``events``, and the end of ``who``'s turn after them when the GM asked for it in the same
    step, unless they leave something to settle first (a reaction, the judge, the duel's end)."""
    if not end:
        return events
    after = state
    for e in events:
        after = evolve(after, e, 0)
    if after.get("outcome") or after["pending"] or after["proposal"] or after["turn"] != who:
        return events
    return events + [turn_ended(after, who)]


def turn_ended(state: dict, who: str) -> ev.Pf2eTurnEnded:
    """The end of ``who``'s turn: frightened drops by 1; the next able duelist acts."""
    frightened = max(state["frightened"][who] - 1, 0)
    order = state["order"]
    start = order.index(who) if who in order else -1
    following = order[start + 1:]
    candidates = [(i, False) for i in following]
    if state["kind"] == "spellcasting":
        candidates += [(i, True) for i in order[:start + 1]]
    for candidate, wrapped in candidates:
        if able(state, candidate):
            return ev.Pf2eTurnEnded(duelist=who, frightened=frightened, next=candidate, new_round=wrapped)
    return ev.Pf2eTurnEnded(duelist=who, frightened=frightened, next="", new_round=True)


def tag(state: dict, cmd, dice: Dice) -> list:
    if state["active"] is None:
        raise Refused(t("tagging is only for tag-team duels"))
    out = state["active"][cmd.side]
    into = partner(state, out)
    if state["hp"][into] <= 0:
        raise Refused(t("{name} is knocked out: nobody to tag in", name=name(state, into)), field="side")
    knocked_out = state["hp"][out] <= 0
    if state["turn"] != out and not knocked_out:
        raise Refused(t("{out} can tag {into} in only on their own turn (or at once if knocked out)",
                        out=name(state, out), into=name(state, into)), field="side")
    tagged = ev.Pf2eTagged(side=cmd.side, out=out, into=into)
    if state["turn"] != out:
        return [tagged]
    return [tagged, turn_ended(fold(tagged, state, 0), out)]
