"""Setting up a Pathfinder 2e duel: its kind, the teams, the agreed terms and the victory condition."""
from __future__ import annotations

from typing import Mapping

from tracker.rules.base import Refused
from tracker.rules.fields import Field, parse_fields
from tracker.rules.duel import SIDES, DuelStarted

from .terms import KINDS, NAME, TEAMS, VICTORIES
from tracker.rules.text import t


SETUP = (
    Field("kind", t("Kind of duel"), "choice", default="combat", choices=tuple(KINDS.items())),
    Field("teams", t("Duelists per side"), "choice", default="single", choices=tuple(TEAMS.items()),
          help=t("for pairs, pick each side's partner above")),
    Field("victory", t("Victory condition"), "choice", default="first_blood", choices=tuple(VICTORIES.items())),
    Field("victory_text", t("Custom victory condition"), "text", required=False, maximum=300,
          help=t("what the judge must see, for a custom condition")),
    Field("declined_knockout", t("After the judge declines a knockout"), "choice", default="confirm",
          choices=(("confirm", t("the knockout may still be confirmed while the side stays at 0 HP")),
                   ("fight_on", t("only a yield, a disqualification or abandoning ends the duel"))),
          help=t("[assumed] the rules are silent: nothing else could end the duel, the side at 0 HP stays there")),
    Field("penalty", t("Penalty for cheating"), "text", required=False, maximum=500),
    Field("melee_only", t("Melee weapons only"), "bool", default=True),
    Field("no_poison", t("No poison"), "bool", default=True),
    Field("no_reach", t("No reach weapons (polearms)"), "bool", default=False),
    Field("item_level_cap", t("Item level cap (spell duels)"), "int", required=False, minimum=0, maximum=25),
    Field("banned_spells", t("Banned kinds of spells"), "text", required=False, maximum=300,
          help=t("e.g. summoning, healing")),
    Field("counteract_with", t("Counteract check uses"), "choice", default="skill",
          choices=(("skill", t("the focus skill's modifier")),
                   ("spell_attack", t("the spell attack (spell DC − 10)")))),
    Field("attack_penalty", t("Multiple attack penalty"), "bool", default=True,
          help=t("−5/−10 (agile −4/−8) on a turn's second and later Strikes")),
    Field("choices", t("Who chooses the secret initiative skills"), "choice", default="gm",
          choices=(("gm", t("The GM records each roll and its skill")),
                   ("sealed", t("Each duelist in secret: players on their seats, NPCs on the GM's page"))),
          help=t("Sealed: nobody, the GM included, sees a skill before every duelist has chosen.")),
    Field("reveal", t("Sealed skills are rolled"), "choice", default="auto",
          choices=(("auto", t("as soon as every duelist has chosen")), ("gm", t("when the GM presses Roll")))),
    Field("dice_by", t("Who rolls the sealed initiative"), "choice", default="server",
          choices=(("server", t("The server rolls at the reveal")),
                   ("seats", t("Each seat types its own d20 with its skill")),
                   ("table", t("The GM types the table's d20s and rolls")))),
)


def start(header: dict, setup: Mapping, duelists: list[dict], dice) -> list:
    """The duel's first event, once its terms and duelists pass."""
    settings = parse_fields(SETUP, setup)
    if settings["victory"] == "custom" and not settings["victory_text"]:
        raise Refused(t("describe the custom victory condition the judge will confirm"), field="victory_text")
    per_side = 1 if settings["teams"] == "single" else 2
    for side in SIDES:
        count = sum(1 for d in duelists if d["side"] == side)
        if count != per_side:
            wanted = t("one duelist") if per_side == 1 else t("two duelists")
            raise Refused(t("{teams} needs {wanted} on side {side}, not {count}", teams=TEAMS[settings["teams"]],
                            wanted=wanted, side=side.upper(), count=count), field=f"side_{side}")
    for d in duelists:
        if not d.get("stats"):
            raise Refused(t("{name} has no Pathfinder 2e stats block: fill it in before the duel", name=d["name"]),
                          field=f"side_{d['side']}")
        if hp_at_start(d) <= 0:
            raise Refused(t("{name} is at 0 HP and cannot duel", name=d["name"]), field=f"side_{d['side']}")
    return [DuelStarted(duel_id=header["duel_id"], campaign_id=header["campaign_id"],
                        session_id=header["session_id"], ruleset=NAME, kind=settings["kind"],
                        duelists=tuple(dict(d) for d in duelists), settings=settings,
                        challenger=header.get("challenger", ""), stakes=header.get("stakes", ""),
                        judge=header.get("judge", ""))]


def hp_at_start(duelist: dict) -> int:
    stats = duelist.get("stats") or {}
    return int((duelist.get("current") or {}).get("HP", stats.get("hp_max", 0)))


def judge_name(state: dict):
    return state.get("judge") or t("the GM")


# --- the set-up form, narrowed to the kind of duel chosen --------------------------------------

# Who chooses the secret initiative skills (the GM, or each duelist sealed on their seat), when they
# are rolled and who rolls: shown in every kind, and kept by a campaign as its defaults.
SEATING = ("choices", "reveal", "dice_by")
COMMON_FIELDS = ("kind", "teams", "victory", "victory_text", "declined_knockout", "penalty", "no_poison") + SEATING
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
