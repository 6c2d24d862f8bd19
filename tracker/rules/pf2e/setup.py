"""Setting up a Pathfinder 2e duel: its kind, the teams, the agreed terms and the victory condition."""
from __future__ import annotations

from typing import Mapping

from tracker.rules.base import Refused
from tracker.rules.fields import Field, parse_fields
from tracker.rules.duel import SIDES, DuelStarted

KINDS = {"combat": "Combat duel", "spellcasting": "Spellcasting duel", "mixed": "Mixed duel (combat and spells)"}
TEAMS = {"single": "one against one", "together": "pairs fighting together", "tag": "pairs as tag teams"}
VICTORIES = {"first_blood": "first blood", "knockout": "knockout", "custom": "a custom condition"}

SETUP = (
    Field("kind", "Kind of duel", "choice", default="combat", choices=tuple(KINDS.items())),
    Field("teams", "Duelists per side", "choice", default="single", choices=tuple(TEAMS.items()),
          help="for pairs, pick each side's partner above"),
    Field("victory", "Victory condition", "choice", default="first_blood", choices=tuple(VICTORIES.items())),
    Field("victory_text", "Custom victory condition", "text", required=False, maximum=300,
          help="what the judge must see, for a custom condition"),
    Field("penalty", "Penalty for cheating", "text", required=False, maximum=500),
    Field("melee_only", "Melee weapons only", "bool", default=True),
    Field("no_poison", "No poison", "bool", default=True),
    Field("no_reach", "No reach weapons (polearms)", "bool", default=False),
    Field("item_level_cap", "Item level cap (spell duels)", "int", required=False, minimum=0, maximum=25),
    Field("banned_spells", "Banned kinds of spells", "text", required=False, maximum=300,
          help="e.g. summoning, healing"),
    Field("counteract_with", "Counteract check uses", "choice", default="skill",
          choices=(("skill", "the focus skill's modifier"), ("spell_attack", "the spell attack (spell DC − 10)"))),
    Field("attack_penalty", "Multiple attack penalty", "bool", default=True,
          help="−5/−10 (agile −4/−8) on a turn's second and later Strikes"),
)


def start(header: dict, setup: Mapping, duelists: list[dict], dice) -> list:
    """The duel's first event, once its terms and duelists pass."""
    settings = parse_fields(SETUP, setup)
    if settings["victory"] == "custom" and not settings["victory_text"]:
        raise Refused("describe the custom victory condition the judge will confirm", field="victory_text")
    per_side = 1 if settings["teams"] == "single" else 2
    for side in SIDES:
        count = sum(1 for d in duelists if d["side"] == side)
        if count != per_side:
            wanted = "one duelist" if per_side == 1 else "two duelists"
            raise Refused(f"{TEAMS[settings['teams']]} needs {wanted} on side {side.upper()}, not {count}",
                          field=f"side_{side}")
    for d in duelists:
        if not d.get("stats"):
            raise Refused(f"{d['name']} has no Pathfinder 2e stats block: fill it in before the duel",
                          field=f"side_{d['side']}")
        if hp_at_start(d) <= 0:
            raise Refused(f"{d['name']} is at 0 HP and cannot duel", field=f"side_{d['side']}")
    return [DuelStarted(duel_id=header["duel_id"], campaign_id=header["campaign_id"],
                        session_id=header["session_id"], ruleset="pf2e", kind=settings["kind"],
                        duelists=tuple(dict(d) for d in duelists), settings=settings,
                        challenger=header.get("challenger", ""), stakes=header.get("stakes", ""),
                        judge=header.get("judge", ""))]


def hp_at_start(duelist: dict) -> int:
    stats = duelist.get("stats") or {}
    return int((duelist.get("current") or {}).get("HP", stats.get("hp_max", 0)))


def judge_name(state: dict) -> str:
    return state.get("judge") or "the GM"


def assumptions(state: dict) -> list[str]:
    """The readings this duel runs under where the source leaves room, with their settings."""
    s = state["settings"]
    victory = VICTORIES[s["victory"]] + (f": {s['victory_text']}" if s["victory"] == "custom" else "")
    notes = [
        f"Duelists: {TEAMS[s['teams']]}.",
        f"Victory condition: {victory}; the rules propose it and {judge_name(state)} confirms it.",
        "Initiative ties: an NPC acts before a PC; between two PCs or two NPCs the GM decides.",
        "Frightened is a status penalty to attack rolls, initiative and counteract checks, AC and spell DC; "
        "it drops by 1 at the end of its holder's turn.",
        "Each duelist has one reaction per round; reactions come back when a new round starts.",
        "Deceptive Sidestep: a non-critical hit waits until the target uses or declines it.",
        "Multiple attack penalty " + ("applies (−5/−10, agile −4/−8)." if s["attack_penalty"] else "is off."),
    ]
    if s["kind"] != "combat":
        notes.append("Counteract check: d20 + " + (
            "the focus skill's modifier" if s["counteract_with"] == "skill" else "spell attack (spell DC − 10)")
            + " against the caster's spell DC; the counteract rank is the expended slot's rank.")
        notes.append("A spell waits while an opponent with the matching tradition focus may counter it.")
    if s["kind"] == "mixed":
        notes.append("Mixed duel: the tradition focus comes from that round's initiative roll and lasts the round.")
    if s["kind"] == "spellcasting":
        notes.append("Spellcasting duel: Strikes are not allowed; initiative holds for the whole duel.")
    if s["teams"] == "tag":
        notes.append("Tag teams: the first duelist listed on each side starts; tagging ends the outgoing duelist's turn (or may be done at once when the "
                     "active duelist is knocked out); the partner rolls initiative from the next round.")
    if s["melee_only"]:
        notes.append("Only melee Strikes are accepted.")
    return notes
