"""The Rocèt stats block on a character sheet: DES and INT dice, PG and PM, weapons."""
from __future__ import annotations

from typing import Any, Mapping

from tracker.rules.base import Invalid, why
from tracker.rules.fields import Field, parse_fields
from tracker.rules.rocet.terms import WEAPON_TYPES
from tracker.rules.text import t

WEAPON_LINE = "Espada ropera | Espada | 3"

STATS = (
    Field("des", t("DES die"), "die", help=t("Dexterity die: d6, d8, d10 or d12")),
    Field("int", t("INT die"), "die", help=t("Insight die: d6, d8, d10 or d12")),
    Field("pg_max", t("PG (max)"), "int", minimum=1, maximum=999),
    Field("pm_max", t("PM (max)"), "int", minimum=1, maximum=999),
    Field("weapons", t("Weapons"), "weapons", required=False, default=(), columns=("name", "type", "damage"),
          cells=(Field("name", t("Weapon name"), "text", maximum=80),
                 Field("type", t("Weapon type (Espada or Daga to duel)"), "text", maximum=80),
                 Field("damage", t("Fixed damage"), "int", minimum=0, maximum=99)),
          help=t("One weapon per line: name | type | fixed damage, e.g. “{example}”. Only types Espada and Daga "
                 "may be used in a duel.", example=WEAPON_LINE)),
)

TRACKS = (
    {"track": "PG", "label": "PG", "max_stat": "pg_max", "persists": True},
    {"track": "PM", "label": "PM", "max_stat": "pm_max", "persists": True},
)

MAX_WEAPONS = 20


def validate_stats(raw: Mapping[str, Any]) -> dict:
    """Clean Rocèt stats, or Invalid with a message per field."""
    clean = parse_fields(STATS, raw)
    try:
        clean["weapons"] = parse_weapons(clean["weapons"])
    except ValueError as problem:
        raise Invalid({"weapons": why(problem)}) from None
    return clean


def parse_weapons(value: Any) -> list[dict]:
    """Weapons from JSON (a list of dicts) or a textarea (one "name | type | damage" a line)."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        rows = [line for line in value.splitlines() if line.strip()]
        items = []
        for number, line in enumerate(rows, 1):
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3:
                raise ValueError(t("line {number}: write name | type | fixed damage, e.g. {example}", number=number,
                                   example=WEAPON_LINE))
            items.append({"name": parts[0], "type": parts[1], "damage": parts[2]})
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        raise ValueError(t("must be a list of weapons"))
    if len(items) > MAX_WEAPONS:
        raise ValueError(t("at most {count} weapons", count=MAX_WEAPONS))
    return [_weapon(item, number) for number, item in enumerate(items, 1)]


def _weapon(item: Any, number: int) -> dict:
    if not isinstance(item, Mapping):
        raise ValueError(t("weapon {number}: must have a name, a type and a fixed damage", number=number))
    name = str(item.get("name") or "").strip()
    kind = str(item.get("type") or "").strip()
    if not name:
        raise ValueError(t("weapon {number}: needs a name", number=number))
    if len(name) > 80:
        raise ValueError(t("weapon {number}: the name is too long (80 characters at most)", number=number))
    if not kind:
        raise ValueError(t("weapon {number} ({name}): needs a type such as Espada or Daga", number=number, name=name))
    for known in WEAPON_TYPES:
        if kind.lower() == known.lower():
            kind = known
    damage = item.get("damage")
    try:
        if isinstance(damage, bool):
            raise ValueError
        damage = int(str(damage).strip())
    except ValueError:
        raise ValueError(t("weapon {number} ({name}): the fixed damage must be a whole number", number=number,
                           name=name)) from None
    if not 0 <= damage <= 99:
        raise ValueError(t("weapon {number} ({name}): the fixed damage must be from 0 to 99", number=number, name=name))
    return {"name": name, "type": kind, "damage": damage}
