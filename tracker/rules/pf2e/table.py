"""Questions about a duel's state that the deciding, the folding and the face all ask."""
from __future__ import annotations

from tracker.rules.base import Refused
from tracker.rules.duel import other

from .sheet import COMBAT_SKILLS, MAGIC_SKILLS, TRADITIONS, trained
from tracker.rules.text import N_, t, tn

DUELING_REACTIONS = {"intimidation": "bullying_press", "deception": "deceptive_sidestep",
                     "perception": "sense_weakness"}
REACTION_NAMES = {"bullying_press": t("Bullying Press"), "deceptive_sidestep": t("Deceptive Sidestep"),
                  "sense_weakness": t("Sense Weakness"), "dueling_counter": t("Dueling Counter")}


def duelist(state: dict, who: str | None) -> dict:
    for d in state["duelists"]:
        if d["id"] == who:
            return d
    raise Refused(t("no duelist {who} in this duel", who=repr(who)))


def name(state: dict, who: str) -> str:
    return duelist(state, who)["name"]


def stats(state: dict, who: str) -> dict:
    return duelist(state, who)["stats"]


def side(state: dict, who: str) -> str:
    return duelist(state, who)["side"]


def is_npc(state: dict, who: str) -> bool:
    return duelist(state, who)["rank"] != "pj"


def on_the_floor(state: dict, who: str) -> bool:
    """Taking part right now: not benched in a tag-team duel."""
    active = state.get("active")
    return active is None or active[side(state, who)] == who


def able(state: dict, who: str) -> bool:
    """On the floor and still standing."""
    return on_the_floor(state, who) and state["hp"][who] > 0


def opponents(state: dict, who: str) -> list[str]:
    foe = other(side(state, who))
    return [d["id"] for d in state["duelists"] if d["side"] == foe and able(state, d["id"])]


def partner(state: dict, who: str) -> str | None:
    mine = side(state, who)
    return next((d["id"] for d in state["duelists"] if d["side"] == mine and d["id"] != who), None)


def initiative_skills(kind: str) -> tuple[str, ...]:
    if kind == "combat":
        return COMBAT_SKILLS
    if kind == "spellcasting":
        return ("perception",) + MAGIC_SKILLS
    return COMBAT_SKILLS + MAGIC_SKILLS


def contenders(state: dict) -> list[str]:
    """Who rolls initiative now: everyone once in a spell duel, else whoever is able this round."""
    if state["kind"] == "spellcasting":
        return [d["id"] for d in state["duelists"]]
    return [d["id"] for d in state["duelists"] if able(state, d["id"])]


def gains(kind: str, sheet: dict, skill: str) -> tuple[str | None, str | None]:
    """The reaction and the tradition focus an initiative skill grants (trained or better)."""
    if not trained(sheet, skill):
        return None, None
    if skill in TRADITIONS:
        return "dueling_counter", TRADITIONS[skill]
    if kind == "spellcasting":
        return None, None
    return DUELING_REACTIONS[skill], None


def can_react(state: dict, who: str, reaction: str) -> bool:
    return (state["reaction"].get(who) == reaction and not state["reacted"].get(who)
            and able(state, who))


def rolled_skill(state: dict, who: str) -> str | None:
    roll = state["rolls"].get(who)
    return roll["skill"] if roll else None


# What cannot be done out of turn, each said whole (the action is a verb in one language, a noun in another).
OUT_OF_TURN = {
    "Strike": N_("{name} cannot Strike out of turn: it is {current}'s turn"),
    "Demoralize": N_("{name} cannot Demoralize out of turn: it is {current}'s turn"),
    "Feint": N_("{name} cannot Feint out of turn: it is {current}'s turn"),
    "act": N_("{name} cannot act out of turn: it is {current}'s turn"),
    "act second": N_("{name} cannot act second out of turn: it is {current}'s turn"),
    "end a turn": N_("{name} cannot end a turn out of turn: it is {current}'s turn"),
    "cast a spell": N_("{name} cannot cast a spell out of turn: it is {current}'s turn"),
    "ready a reaction": N_("{name} cannot ready a reaction out of turn: it is {current}'s turn"),
    "withdraw a reaction": N_("{name} cannot withdraw a reaction out of turn: it is {current}'s turn"),
    "Change Tradition Focus": N_("{name} cannot Change Tradition Focus out of turn: it is {current}'s turn"),
}


def turn_holder(state: dict, who: str | None, what: str) -> str:
    """The duelist whose turn it is, refusing when ``who`` names someone else."""
    current = state["turn"]
    if current is None:
        if state["phase"] == "ordering":
            raise Refused(t("the initiative tie must be broken first"))
        raise Refused(t("nobody's turn yet: roll initiative for round {round}", round=state["round"]))
    if who and who != current:
        raise Refused(t(OUT_OF_TURN[what], name=name(state, who), current=name(state, current)))
    return current


def target_of(state: dict, attacker: str, target: str | None, field: str = "target") -> str:
    foes = opponents(state, attacker)
    if not target:
        if len(foes) == 1:
            return foes[0]
        raise Refused(t("choose a target: there is more than one opponent") if foes
                      else t("no opponent left standing"), field=field)
    if side(state, target) == side(state, attacker):
        raise Refused(t("{target} is on {attacker}'s own side", target=name(state, target),
                        attacker=name(state, attacker)), field=field)
    if not on_the_floor(state, target):
        raise Refused(t("{name} is tagged out", name=name(state, target)), field=field)
    if state["hp"][target] <= 0:
        raise Refused(t("{name} is already knocked out", name=name(state, target)), field=field)
    return target


def slots_left(state: dict, who: str) -> dict[str, int]:
    return {rank: n for rank, n in state["slots"].get(who, {}).items() if n > 0}


ACTIONS_PER_TURN = 3


def actions_left(state: dict) -> int:
    return ACTIONS_PER_TURN - state.get("actions", 0)


def spend(state: dict, who: str, cost: int, what) -> None:
    """Refuse an action costing more than what is left of ``who``'s three actions this turn."""
    left = actions_left(state)
    if cost > left:
        have = tn("only {count} action", "only {count} actions", left) if left else t("no action")
        raise Refused(t("{name} has {have} left this turn: {what} costs {cost}", name=name(state, who), have=have,
                        what=what, cost=cost))


def exposed_to(state: dict, target: str, attacker: str) -> bool:
    """Off-guard against ``attacker``'s melee attacks because of a Feint."""
    return any(x["who"] == target and x["against"] == attacker for x in state.get("exposures", []))


def usual_skill(state: dict, who: str) -> str:
    """The initiative skill ``who`` rolls when none is chosen: the one they last rolled in this
    duel, else [assumed] their best trained skill of the duel's kind (the highest modifier)."""
    allowed = initiative_skills(state["kind"])
    last = state.get("usual_skill", {}).get(who)
    if last in allowed:
        return last
    sheet = stats(state, who)
    ranked = sorted(allowed, key=lambda s: (not trained(sheet, s), -sheet.get(s, 0)))
    return ranked[0]
