"""Setting up a Pathfinder 2e duel: its kind, the teams, the agreed terms and the victory condition."""
from __future__ import annotations

from typing import Mapping

from tracker.rules.base import Refused
from tracker.rules.fields import Field, parse_fields
from tracker.rules.duel import SIDES, DuelStarted

from .terms import KINDS, NAME, TEAMS, VICTORIES


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
    Field("choices", "Who chooses the secret initiative skills", "choice", default="gm",
          choices=(("gm", "The GM records each roll and its skill"),
                   ("sealed", "Each duelist in secret: players on their seats, NPCs on the GM's page")),
          help="Sealed: nobody, the GM included, sees a skill before every duelist has chosen."),
    Field("reveal", "Sealed skills are rolled", "choice", default="auto",
          choices=(("auto", "as soon as every duelist has chosen"), ("gm", "when the GM presses Roll"))),
    Field("dice_by", "Who rolls the sealed initiative", "choice", default="server",
          choices=(("server", "The server rolls at the reveal"),
                   ("seats", "Each seat types its own d20 with its skill"),
                   ("table", "The GM types the table's d20s and rolls"))),
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
                        session_id=header["session_id"], ruleset=NAME, kind=settings["kind"],
                        duelists=tuple(dict(d) for d in duelists), settings=settings,
                        challenger=header.get("challenger", ""), stakes=header.get("stakes", ""),
                        judge=header.get("judge", ""))]


def hp_at_start(duelist: dict) -> int:
    stats = duelist.get("stats") or {}
    return int((duelist.get("current") or {}).get("HP", stats.get("hp_max", 0)))


def judge_name(state: dict) -> str:
    return state.get("judge") or "the GM"


# --- the set-up form, narrowed to the kind of duel chosen --------------------------------------

COMMON_FIELDS = ("kind", "teams", "victory", "victory_text", "penalty", "no_poison")
COMBAT_FIELDS = ("melee_only", "no_reach", "attack_penalty")
SPELL_FIELDS = ("item_level_cap", "banned_spells", "counteract_with")
KIND_FIELDS = {"combat": COMBAT_FIELDS, "spellcasting": SPELL_FIELDS, "mixed": COMBAT_FIELDS + SPELL_FIELDS}


def setup_fields(kind: str) -> tuple[Field, ...]:
    """The set-up fields that matter in this kind of duel (the others keep their defaults)."""
    wanted = COMMON_FIELDS + KIND_FIELDS.get(kind, COMBAT_FIELDS)
    return tuple(f for f in SETUP if f.name in wanted)


def setup_defaults(kind: str, sheets) -> dict:
    """Nothing to fill from the sheets: a PF2e duel reads the Strike from them when it starts."""
    return {}
