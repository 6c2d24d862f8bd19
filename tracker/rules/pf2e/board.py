"""What the duel page draws from a Pathfinder 2e state: plain data, no markup, no decisions.

``board`` works on the GM's state and on ``public(state)`` alike: it reads secret keys
(initiative skills, reactions, tradition focus, pending reactions) only when they are there,
so a board built from the public view cannot show them. ``choices`` is for the GM's forms.
"""
from __future__ import annotations

from .checks import attack_penalty
from .sheet import MAGIC_SKILLS, SKILL_NAMES, SKILL_OF_TRADITION, TRADITION_LABELS, TRADITION_NAMES, TRADITIONS, trained
from .table import REACTION_NAMES, initiative_skills, usual_skill
from tracker.rules.text import t

SIDE_LABELS = {"a": t("Side A"), "b": t("Side B")}


def board(state: dict) -> dict:
    """Both sides, the initiative order, whose turn it is and what the table is waiting for."""
    rolls = state.get("rolls") or {}
    secret = "reaction" in state  # the GM's state; public(state) has no reactions
    sides = []
    for side in ("a", "b"):
        sides.append({"side": side, "label": SIDE_LABELS[side],
                      "duelists": [_duelist(state, d, secret) for d in state["duelists"] if d["side"] == side]})
    order = [_place(state, who, rolls, secret) for who in state.get("order") or []]
    tiers = [[_place(state, who, rolls, secret) for who in tier] for tier in state.get("tiers") or []]
    waiting_for = [d["name"] for d in state["duelists"]
                   if d["id"] not in rolls and _rolls_now(state, d["id"])] if state["phase"] == "initiative" else []
    left = 3 - state.get("actions", 0) if state.get("turn") else 0
    return {"round": state["round"], "phase": state["phase"], "turn": _name(state, state.get("turn")),
            "actions_left": left,
            "order": order, "tiers": tiers, "waiting_for": waiting_for, "sides": sides,
            "pending": _pending(state) if secret else None,
            "proposal": state.get("proposal"), "spells": _spells(state), "terms": terms(state)}


def _name(state: dict, who: str | None) -> str:
    return next((d["name"] for d in state["duelists"] if d["id"] == who), "") if who else ""


def _rolls_now(state: dict, who: str) -> bool:
    if state["kind"] == "spellcasting":
        return True
    active = state.get("active")
    side = next(d["side"] for d in state["duelists"] if d["id"] == who)
    return state["hp"].get(who, 0) > 0 and (active is None or active.get(side) == who)


def _place(state: dict, who: str, rolls: dict, secret: bool) -> dict:
    roll = rolls.get(who) or {}
    return {"id": who, "name": _name(state, who), "total": roll.get("total"),
            "skill": SKILL_NAMES.get(roll.get("skill", ""), "") if secret else "",
            "current": who == state.get("turn")}


def _duelist(state: dict, d: dict, secret: bool) -> dict:
    who, sheet = d["id"], d.get("stats") or {}
    roll = (state.get("rolls") or {}).get(who) or {}
    active = state.get("active")
    frightened = (state.get("frightened") or {}).get(who, 0)
    reaction = (state.get("reaction") or {}).get(who) if secret else None
    slots = state.get("slots", {}).get(who, {})
    expended = state.get("expended", {}).get(who, {})
    ranks = sorted(set(slots) | set(expended), key=int)
    conditions = []
    if frightened:
        conditions.append({"name": t("Frightened {value}", value=frightened),
                           "lasts": t("−1 at the end of each of their turns")})
    if who in (state.get("off_guard") or []):
        conditions.append({"name": t("Off-guard (−2 AC)"), "lasts": t("until the start of their next turn")})
    for x in state.get("exposures") or []:
        if x["who"] == who:
            this_turn = x["ends"] <= 1 and state.get("turn") == x["owner"]
            if x["once"]:
                lasts = t("{name}'s next melee attack this turn", name=_name(state, x["against"]))
            elif this_turn:
                lasts = t("until the end of {name}'s turn", name=_name(state, x["owner"]))
            else:
                lasts = t("until the end of {name}'s next turn", name=_name(state, x["owner"]))
            conditions.append({"name": t("Off-guard (−2 AC) against {name}", name=_name(state, x["against"])),
                               "lasts": lasts})
    if state["hp"].get(who, 0) <= 0:
        conditions.append({"name": t("Knocked out"), "lasts": "0 HP"})
    return {
        "id": who, "name": d["name"], "npc": d.get("rank") != "pj",
        "hp": state["hp"].get(who, 0), "hp_max": sheet.get("hp_max", 0),
        "ac": sheet.get("ac"), "attack": sheet.get("attack_bonus"), "weapon": sheet.get("weapon", ""),
        "damage": sheet.get("damage", ""), "spell_dc": sheet.get("spell_dc"),
        "frightened": frightened, "conditions": conditions,
        "off_guard": who in (state.get("off_guard") or []),
        "turn": who == state.get("turn"),
        "benched": active is not None and active.get(d["side"]) != who,
        "initiative": roll.get("total"),
        "skill": SKILL_NAMES.get(roll.get("skill", ""), "") if secret else "",
        "reaction": REACTION_NAMES.get(reaction, "") if reaction else "",
        "reacted": bool((state.get("reacted") or {}).get(who)) if secret else False,
        "focus": ((state.get("focus") or {}).get(who) or "") if secret else "",
        "slots": [{"rank": r, "left": slots.get(r, 0), "expended": expended.get(r, 0)} for r in ranks],
    }


def _pending(state: dict):
    pending = state.get("pending")
    if not pending:
        return ""
    if pending["kind"] == "strike":
        return t("{target} may use Deceptive Sidestep against {attacker}'s hit ({total} against AC {ac}).",
                 target=_name(state, pending["target"]), attacker=_name(state, pending["attacker"]),
                 total=pending["die"] + pending["modifier"], ac=pending["ac"])
    return t("{spell} ({tradition}, rank {rank}) waits: an opponent focused on that tradition may use Dueling Counter.",
             spell=pending["spell"], tradition=TRADITION_NAMES.get(pending["tradition"], pending["tradition"]), rank=pending["rank"])


def _spells(state: dict) -> list[dict]:
    spells = []
    waiting = (state.get("pending") or {}).get("kind") == "spell"  # only the GM's state knows
    for n, s in enumerate(state.get("spells") or [], start=1):
        if s.get("countered"):
            result = t("countered")
        elif waiting and n == len(state["spells"]):
            result = t("waiting for a counter")
        else:
            result = t("cast")
        spells.append({"caster": _name(state, s["caster"]), "spell": s["spell"], "rank": s["rank"],
                       "tradition": s["tradition"], "cantrip": s["cantrip"], "result": result})
    return spells


def terms(state: dict) -> list:
    """The agreed terms, in a few words each."""
    s = state["settings"]
    out = []
    if s.get("melee_only"):
        out.append(t("melee only"))
    if s.get("no_poison"):
        out.append(t("no poison"))
    if s.get("no_reach"):
        out.append(t("no reach weapons"))
    if s.get("item_level_cap") is not None:
        out.append(t("items up to level {level}", level=s["item_level_cap"]))
    if s.get("banned_spells"):
        out.append(t("banned spells: {spells}", spells=s["banned_spells"]))
    if s.get("penalty"):
        out.append(t("penalty for cheating: {penalty}", penalty=s["penalty"]))
    return out


# --- the GM's forms -------------------------------------------------------------------

def choices(state: dict) -> dict:
    """What the GM's forms offer now: skills per duelist to roll, reactions, targets, slots."""
    turn = state.get("turn")
    return {
        "initiative": [_initiative(state, d) for d in state["duelists"]
                       if state["phase"] == "initiative" and d["id"] not in state["rolls"]
                       and _rolls_now(state, d["id"])],
        "tied": next(([{"id": i, "name": _name(state, i)} for i in tier] for tier in state["tiers"] if len(tier) > 1), []),
        "turn": turn, "turn_name": _name(state, turn),
        "strike_number": state["strikes"] + 1,
        "penalty": (attack_penalty(state["strikes"], False), attack_penalty(state["strikes"], True))
        if state["settings"].get("attack_penalty", True) else (0, 0),
        "actions_left": 3 - state.get("actions", 0) if turn else 0,
        "usual": [{"name": d["name"], "skill": SKILL_NAMES.get(usual_skill(state, d["id"]), "")} for d in state["duelists"]
                  if state["phase"] == "initiative" and d["id"] not in state["rolls"] and _rolls_now(state, d["id"])],
        "demoralize": [target for target in _targets(state, turn) if [turn, target["id"]] not in state.get("demoralized", [])]
        if turn else [],
        "reactions": _strike_reactions(state, turn) if turn else [],
        "readied": REACTION_NAMES[(state.get("readied") or {})[turn]] if (state.get("readied") or {}).get(turn) else "",
        "targets": _targets(state, turn) if turn else [],
        "slots": _slot_ranks(state, turn) if turn else [],
        "focus": state["focus"].get(turn) if turn else None,
        "new_focus": _new_focus(state, turn) if turn else [],
        "counters": _counters(state),
        "tag_sides": _tag_sides(state),
    }


def _initiative(state: dict, d: dict) -> dict:
    sheet = d.get("stats") or {}
    options = []
    for skill in initiative_skills(state["kind"]):
        gains = ""
        if trained(sheet, skill):
            if skill in MAGIC_SKILLS:
                gains = t("Dueling Counter, {tradition} focus", tradition=TRADITION_NAMES[TRADITIONS[skill]])
            elif state["kind"] != "spellcasting":
                gains = REACTION_NAMES[{"intimidation": "bullying_press", "deception": "deceptive_sidestep",
                                        "perception": "sense_weakness"}[skill]]
        options.append({"skill": skill, "label": SKILL_NAMES[skill], "modifier": sheet.get(skill, 0),
                        "rank": sheet.get(f"{skill}_rank", "untrained"), "gains": gains})
    return {"id": d["id"], "name": d["name"], "frightened": state["frightened"].get(d["id"], 0),
            "skills": options, "usual": usual_skill(state, d["id"])}


def _strike_reactions(state: dict, who: str) -> list[dict]:
    reaction = state["reaction"].get(who)
    if reaction in ("bullying_press", "sense_weakness") and not state["reacted"].get(who):
        return [{"value": reaction, "label": REACTION_NAMES[reaction]}]
    return []


def _targets(state: dict, who: str) -> list[dict]:
    side = next(d["side"] for d in state["duelists"] if d["id"] == who)
    active = state.get("active")
    return [{"id": d["id"], "name": d["name"]} for d in state["duelists"]
            if d["side"] != side and state["hp"][d["id"]] > 0 and (active is None or active[d["side"]] == d["id"])]


def _slot_ranks(state: dict, who: str) -> list[str]:
    return sorted((r for r, n in state["slots"].get(who, {}).items() if n > 0), key=int)


def _new_focus(state: dict, who: str) -> list[dict]:
    if not state["refocus"].get(who):
        return []
    sheet = next(d.get("stats") or {} for d in state["duelists"] if d["id"] == who)
    return [{"value": t, "label": TRADITION_LABELS[t]} for t, skill in SKILL_OF_TRADITION.items()
            if trained(sheet, skill) and state["focus"].get(who) != t]


def _counters(state: dict) -> list[dict]:
    """Who may answer the pending spell with Dueling Counter, and the slots they could expend."""
    pending = state.get("pending")
    if not pending or pending["kind"] != "spell":
        return []
    caster_side = next(d["side"] for d in state["duelists"] if d["id"] == pending["caster"])
    out = []
    for d in state["duelists"]:
        who = d["id"]
        if (d["side"] != caster_side and state["focus"].get(who) == pending["tradition"]
                and state["reaction"].get(who) == "dueling_counter" and not state["reacted"].get(who)
                and state["hp"][who] > 0):
            out.append({"id": who, "name": d["name"], "slots": _slot_ranks(state, who)})
    return out


def _tag_sides(state: dict) -> list[dict]:
    active = state.get("active")
    if not active:
        return []
    out = []
    for side, out_id in active.items():
        into = next((d for d in state["duelists"] if d["side"] == side and d["id"] != out_id), None)
        if into and state["hp"][into["id"]] > 0 and (state.get("turn") == out_id or state["hp"][out_id] <= 0):
            out.append({"side": side, "out": _name(state, out_id), "into": into["name"]})
    return out
