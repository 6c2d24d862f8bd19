"""The pirate character sheet (stats, weapons), its damage tracks and the insult table."""
from __future__ import annotations

from typing import Any, Mapping

from tracker.rules import dice_expr
from tracker.rules.base import Invalid, why
from tracker.rules.fields import Field, parse_fields
from tracker.rules.text import t

# A weapon's kind as the reader writes it (the form shows it so), and every spelling the form takes.
KIND_WORDS = {"sword": t("sword"), "pistol": t("pistol")}
WEAPON_KINDS = {"sword": "sword", "espada": "sword", "pistol": "pistol", "pistola": "pistol"}

STATS = (
    Field("atq", t("ATQ (attack modifier)"), minimum=-10, maximum=30),
    Field("def", t("DEF (defence)"), minimum=1, maximum=40),
    Field("pv", t("PV (maximum)"), minimum=1, maximum=999),
    Field("comunicacion", t("Comunicación (skill modifier)"), minimum=-10, maximum=30),
    Field("sab", t("SAB (defence in a duelo de labia)"), minimum=0, maximum=40),
    Field("car", t("CAR (hit points in a duelo de labia)"), minimum=1, maximum=99),
    Field("iniciativa", t("Iniciativa (modifier)"), minimum=-10, maximum=30),
    Field("weapons", t("Weapons"), "weapons", required=False, columns=("name", "kind", "damage", "range"),
          words={"kind": KIND_WORDS},
          cells=(Field("name", t("Weapon name"), "text", maximum=80),
                 Field("kind", t("Weapon kind (sword or pistol)"), "choice",
                       choices=tuple((word, word) for word in WEAPON_KINDS)),
                 Field("damage", t("Damage dice"), "text", maximum=40),
                 Field("range", t("Range in paces (pistols only)"), "int", required=False, minimum=1, maximum=500)),
          help=t("One weapon per line: name | sword or pistol | damage dice | range in paces "
                 "(pistols only), e.g. 'Sable | sword | 1d8' or 'Pistola de chispa | pistol | 1d10 | 15'")),
)

# The stats the table display draws beside the tracks' maxima: all of a stat block its JSON carries.
TABLE_STATS = ("atq", "def", "iniciativa", "comunicacion", "sab")

TRACKS = (
    {"track": "PV", "label": "PV", "max_stat": "pv", "persists": True},
    {"track": "CAR", "label": t("Humiliation (CAR)"), "max_stat": "car", "persists": False},
)

DEFAULT_INSULTS = (
    {"name": "Burla ingeniosa", "to_hit": 1, "damage": "1d4", "backlash": ""},
    {"name": "Insulto directo", "to_hit": 0, "damage": "1d6", "backlash": ""},
    {"name": "Provocación", "to_hit": 0, "damage": "1d8", "backlash": "1d4"},
    {"name": "Humillación", "to_hit": -2, "damage": "1d10", "backlash": ""},
)

# The columns of an insult table's row, for its JSON Schema.
INSULT_CELLS = (Field("name", t("Insult name"), "text", maximum=80),
                Field("to_hit", t("To-hit modifier"), "int", default=0, minimum=-10, maximum=10),
                Field("damage", t("Damage dice"), "text", maximum=40),
                Field("backlash", t("Damage the insulter takes on a miss"), "text", required=False, maximum=40))

INSULT_HELP = t("One insult kind per line: name | to-hit modifier | damage dice | damage the "
                "insulter takes on a miss (blank for none), e.g. 'Provocación | +0 | 1d8 | 1d4'")


def insult_lines(table=DEFAULT_INSULTS) -> str:
    """The table as the text lines the set-up form shows."""
    return "\n".join(f"{i['name']} | {i['to_hit']:+d} | {i['damage']} | {i['backlash']}".rstrip(" |")
                     for i in table)


def validate_stats(raw: Mapping[str, Any]) -> dict:
    """Clean pirate stats, or Invalid with a message per field."""
    errors: dict[str, str] = {}
    try:
        clean = parse_fields(STATS, raw)
    except Invalid as bad:
        errors.update(bad.errors)
        clean = {}
    try:
        clean["weapons"] = parse_weapons(raw.get("weapons"))
    except ValueError as problem:
        errors["weapons"] = why(problem)
    if errors:
        raise Invalid(errors)
    return clean


def _rows(value: Any, keys: tuple[str, ...]) -> list[list[str]]:
    """Rows of cells from a JSON list of dicts or from text lines split on '|'."""
    if value is None:
        return []
    if isinstance(value, str):
        lines = [line for line in value.splitlines() if line.strip()]
        return [[cell.strip() for cell in line.split("|")] for line in lines]
    if isinstance(value, (list, tuple)):
        rows = []
        for item in value:
            if not isinstance(item, Mapping):
                raise ValueError(t("each entry must be an object with {keys}", keys=", ".join(keys)))
            rows.append(["" if item.get(k) is None else str(item.get(k)).strip() for k in keys])
        return rows
    raise ValueError(t("must be text lines or a list"))


def parse_weapons(value: Any) -> list[dict]:
    """Weapons as [{"name", "kind", "damage", "range"}]; range is None for swords."""
    weapons = []
    for n, cells in enumerate(_rows(value, ("name", "kind", "damage", "range")), start=1):
        if len(cells) > 4:
            raise ValueError(t("line {number}: at most 4 parts (name | kind | damage | range)", number=n))
        name, kind, damage, reach = (cells + ["", "", "", ""])[:4]
        if not name:
            raise ValueError(t("line {number}: the weapon needs a name", number=n))
        kinds = {**WEAPON_KINDS, **{str(word).lower(): key for key, word in KIND_WORDS.items()}}
        if kind.lower() not in kinds:
            raise ValueError(t("line {number} ({name}): the kind must be sword or pistol", number=n, name=name))
        kind = kinds[kind.lower()]
        try:
            damage = dice_expr.check(damage)
        except ValueError:
            raise ValueError(t("line {number} ({name}): damage must be dice such as 1d8 or 1d6+1", number=n,
                               name=name)) from None
        if kind == "pistol":
            if not reach.isdigit() or not 1 <= int(reach) <= 500:
                raise ValueError(t("line {number} ({name}): a pistol needs its range in paces (1 to 500)", number=n,
                                   name=name))
            reach = int(reach)
        elif reach:
            raise ValueError(t("line {number} ({name}): only pistols have a range", number=n, name=name))
        else:
            reach = None
        weapons.append({"name": name, "kind": kind, "damage": damage, "range": reach})
    if len({w["name"].lower() for w in weapons}) < len(weapons):
        raise ValueError(t("two weapons share a name"))
    return weapons


def parse_insults(value: Any) -> list[dict]:
    """The insult table as [{"name", "to_hit", "damage", "backlash"}]."""
    insults = []
    for n, cells in enumerate(_rows(value, ("name", "to_hit", "damage", "backlash")), start=1):
        if len(cells) > 4:
            raise ValueError(t("line {number}: at most 4 parts (name | to-hit | damage | backlash)", number=n))
        name, to_hit, damage, backlash = (cells + ["", "", "", ""])[:4]
        if not name:
            raise ValueError(t("line {number}: the insult needs a name", number=n))
        try:
            to_hit = int(to_hit.replace("\u2212", "-").replace(" ", "") or "0")
        except ValueError:
            raise ValueError(t("line {number} ({name}): the to-hit modifier must be a number such as +1 or -2",
                               number=n, name=name)) from None
        if not -10 <= to_hit <= 10:
            raise ValueError(t("line {number} ({name}): the to-hit modifier must be from -10 to +10", number=n,
                               name=name))
        try:
            damage = dice_expr.check(damage)
            backlash = dice_expr.check(backlash) if backlash else ""
        except ValueError:
            raise ValueError(t("line {number} ({name}): damage must be dice such as 1d6", number=n, name=name)) from None
        insults.append({"name": name, "to_hit": to_hit, "damage": damage, "backlash": backlash})
    if not insults:
        raise ValueError(t("the table needs at least one insult"))
    if len({i["name"].lower() for i in insults}) < len(insults):
        raise ValueError(t("two insults share a name"))
    return insults
