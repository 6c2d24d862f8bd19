"""The Pathfinder 2e stats block: level, HP, AC, the Strike, the seven dueling skills, spells."""
from __future__ import annotations

from typing import Any, Mapping

from tracker.rules import dice_expr
from tracker.rules.base import Invalid, why
from tracker.rules.fields import Field, parse_fields
from tracker.rules.text import t

RANKS = ("untrained", "trained", "expert", "master", "legendary")
RANK_LABELS = {"untrained": t("Untrained"), "trained": t("Trained"), "expert": t("Expert"), "master": t("Master"),
               "legendary": t("Legendary")}
RANK_CHOICES = tuple((r, RANK_LABELS[r]) for r in RANKS)
RANK_WORDS = {"untrained": t("untrained"), "trained": t("trained"), "expert": t("expert"), "master": t("master"),
              "legendary": t("legendary")}  # a rank within a sentence

# Perception is not a skill in PF2e, but for initiative it is chosen like one.
SKILLS = ("deception", "intimidation", "perception", "arcana", "nature", "occultism", "religion")
COMBAT_SKILLS = ("deception", "intimidation", "perception")
MAGIC_SKILLS = ("arcana", "nature", "occultism", "religion")
# A skill as the game names it, in the reader's language as the books of that language name it
# (Deception: Engaño); docs/glossary.md lists both.
SKILL_NAMES = {"deception": t("Deception"), "intimidation": t("Intimidation"), "perception": t("Perception"),
               "arcana": t("Arcana"), "nature": t("Nature"), "occultism": t("Occultism"), "religion": t("Religion")}

TRADITIONS = {"arcana": "arcane", "nature": "primal", "occultism": "occult", "religion": "divine"}
SKILL_OF_TRADITION = {tradition: skill for skill, tradition in TRADITIONS.items()}
# A magical tradition within a sentence ("the arcane focus") and as a choice ("Arcane").
TRADITION_NAMES = {"arcane": t("arcane"), "primal": t("primal"), "occult": t("occult"), "divine": t("divine")}
TRADITION_LABELS = {"arcane": t("Arcane"), "primal": t("Primal"), "occult": t("Occult"), "divine": t("Divine")}
TRADITION_CHOICES = tuple((tradition, TRADITION_LABELS[tradition]) for tradition in SKILL_OF_TRADITION)

SLOT_HELP = t('spell slots per rank, e.g. "1:3, 2:2" (rank:slots); empty for none')


def _skill_fields() -> tuple[Field, ...]:
    # pragma: no mutate block (runs only at import, before mutmut can switch a mutant on)
    fields = []
    for skill in SKILLS:
        fields.append(Field(skill, t("{skill} modifier", skill=SKILL_NAMES[skill]), "int", default=0,
                            minimum=-10, maximum=60))
        fields.append(Field(f"{skill}_rank", t("{skill} proficiency", skill=SKILL_NAMES[skill]), "choice",
                            default="untrained", choices=RANK_CHOICES))
    return tuple(fields)


STATS = (
    Field("level", t("Level"), "int", minimum=-1, maximum=25),
    Field("hp_max", t("Hit Points (max)"), "int", minimum=1, maximum=999),
    Field("con", t("Constitution modifier"), "int", default=0, minimum=-5, maximum=10,
          help=t("a night's rest restores this (minimum 1) × level HP")),
    Field("ac", t("AC"), "int", minimum=1, maximum=70),
    Field("attack_bonus", t("Melee attack bonus"), "int", minimum=-10, maximum=60),
    Field("weapon", t("Weapon"), "text", required=False, maximum=80, help=t("e.g. Rapier")),
    Field("damage", t("Weapon damage"), "text", maximum=40, help=t("dice such as 1d8+4")),
    *_skill_fields(),
    Field("will", t("Will save modifier"), "int", default=0, minimum=-10, maximum=60,
          help=t("the Will DC a Demoralize must beat is 10 + this")),
    Field("spell_dc", t("Spell DC"), "int", required=False, minimum=5, maximum=70),
    Field("spell_slots", t("Spell slots"), "text", required=False, maximum=80, help=SLOT_HELP),
)

# The stats the table display draws beside the tracks' maxima: all of a stat block its JSON carries.
TABLE_STATS = ("ac", "attack_bonus", "weapon", "damage", "spell_dc")

TRACKS = ({"track": "HP", "label": t("HP"), "max_stat": "hp_max", "persists": True},)


def validate_stats(raw: Mapping[str, Any]) -> dict:
    """Clean stats for a PF2e character, or Invalid with a message per field."""
    raw = dict(raw)
    if isinstance(raw.get("spell_slots"), Mapping):
        raw["spell_slots"] = ", ".join(f"{k}:{v}" for k, v in raw["spell_slots"].items())
    clean = parse_fields(STATS, raw)
    errors = {}
    try:
        clean["damage"] = dice_expr.check(clean["damage"])
    except ValueError as problem:
        errors["damage"] = why(problem)
    try:
        clean["spell_slots"] = _format_slots(parse_slots(clean["spell_slots"] or ""))
    except ValueError as problem:
        errors["spell_slots"] = why(problem)
    if errors:
        raise Invalid(errors)
    clean["weapon"] = clean["weapon"] or "weapon"
    return clean


def parse_slots(text: str) -> dict[str, int]:
    """'1:3, 2:2' -> {"1": 3, "2": 2} (JSON keys are strings)."""
    slots: dict[str, int] = {}
    for part in text.replace(";", ",").split(","):
        if not part.strip():
            continue
        rank, _, count = part.partition(":")
        try:
            rank_n, count_n = int(rank), int(count)
        except ValueError:
            raise ValueError(t('"{part}" is not rank:slots, e.g. 2:3', part=part.strip())) from None
        if not 1 <= rank_n <= 10:
            raise ValueError(t("spell ranks go from 1 to 10, not {rank}", rank=rank_n))
        if not 0 <= count_n <= 9:
            raise ValueError(t("rank {rank} cannot have {count} slots", rank=rank_n, count=count_n))
        slots[str(rank_n)] = count_n
    return slots


def _format_slots(slots: dict[str, int]) -> str:
    return ", ".join(f"{rank}:{count}" for rank, count in sorted(slots.items(), key=lambda kv: int(kv[0])))


def trained(stats: dict, skill: str) -> bool:
    return stats.get(f"{skill}_rank", "untrained") != "untrained"


FOLDED_LABEL = t("untrained skills")


def folded_stats(block: Mapping[str, Any]) -> tuple[str, ...]:
    """What the sheet folds away unless asked: each untrained skill, its modifier and its rank."""
    return tuple(name for skill in SKILLS if not trained(block, skill) for name in (skill, f"{skill}_rank"))
