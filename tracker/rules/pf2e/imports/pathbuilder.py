"""Pathbuilder 2e's JSON export ("Menu > Export > Export JSON"): ``{"success": true, "build": {…}}``.

The build holds the attribute scores (``build.abilities.str``: 16), the HP parts
(``build.attributes.ancestryhp``, ``classhp``, ``bonushp``, ``bonushpPerLevel``), each proficiency as
its bonus before the level (``build.proficiencies.will``: 0, 2, 4, 6 or 8), the AC already totalled
(``build.acTotal.acTotal``), the weapons (``build.weapons``, with ``attack`` and ``damageBonus``
worked out in newer exports) and the spellcasters (``build.spellCasters``: ``ability``,
``proficiency``, ``perDay`` slots by rank). An export has no id of the character: a newer export
of the same character is known by its name.
"""
from __future__ import annotations

from typing import Any

from tracker.rules.imports import Imported, Reader, bounds, checked, listed, refuse
from tracker.rules.text import t

from ..sheet import STATS
from .build import SKILL_ATTRIBUTE, STRIKING, damage, modifier, rank_name


def recognises(data: Any) -> bool:
    build = data.get("build") if isinstance(data, dict) else None
    return isinstance(build, dict) and "abilities" in build


def _in_range(name: str, path: str, value: Any) -> int:
    low, high = bounds(STATS, name)
    return checked(path, value, low, high)


def read(data: Any) -> Imported:
    if not isinstance(data, dict) or not isinstance(data.get("build"), dict):
        raise refuse("build", t("is required: a Pathbuilder export holds its character under build"))
    if data.get("success") is False:
        raise refuse("success", t("the export says it failed"))
    doc = Reader(data)
    level = checked("build.level", doc.need("build.level"), 1, 25)
    mods = {attr: modifier(checked(f"build.abilities.{attr}", doc.need(f"build.abilities.{attr}"), 1, 40))
            for attr in ("str", "dex", "con", "int", "wis", "cha")}

    def prof(name: str) -> tuple[int, int]:
        """(bonus, rank) of a proficiency: its bonus before the level, plus the level when trained."""
        value = checked(f"build.proficiencies.{name}", doc.get(f"build.proficiencies.{name}", 0) or 0, 0, 8)
        return (value + level if value else 0), value // 2

    stats: dict[str, Any] = {"level": level, "con": mods["con"]}
    paths: dict[str, str] = {"level": "build.level", "con": "build.abilities.con"}
    left: list[tuple[str, str]] = []
    parts = {part: checked(f"build.attributes.{part}", doc.get(f"build.attributes.{part}", 0) or 0, 0, 500)
             for part in ("ancestryhp", "classhp", "bonushp", "bonushpPerLevel")}
    hp = parts["ancestryhp"] + parts["bonushp"] + (parts["classhp"] + mods["con"] + parts["bonushpPerLevel"]) * level
    stats["hp_max"] = _in_range("hp_max", "build.attributes.classhp", hp)
    paths["hp_max"] = "build.attributes.classhp"
    stats["ac"] = _in_range("ac", "build.acTotal.acTotal", doc.need("build.acTotal.acTotal"))
    paths["ac"] = "build.acTotal.acTotal"
    bonus, rank = prof("perception")
    stats["perception"], stats["perception_rank"] = mods["wis"] + bonus, rank_name(rank)
    stats["will"] = mods["wis"] + prof("will")[0]
    for save, attr in (("fortitude", "con"), ("reflex", "dex")):
        left.append(("save", f"{save.capitalize()} {mods[attr] + prof(save)[0]:+d}"))
    for skill, attr in SKILL_ATTRIBUTE.items():
        bonus, rank = prof(skill)
        stats[skill], stats[f"{skill}_rank"] = mods[attr] + bonus, rank_name(rank)
        paths[skill] = f"build.proficiencies.{skill}"
    _strike(doc, level, mods, prof, stats, paths, left)
    _spells(doc, level, mods, stats, paths, left)
    left += [("feat", str(feat[0])) for feat in listed(doc.get("build.feats")) if isinstance(feat, list) and feat]
    left += [("skill", str(lore[0])) for lore in listed(doc.get("build.lores")) if isinstance(lore, list) and lore]
    return Imported(name=doc.text("build.name") or "?", rank="pj", stats=stats, source_id="", paths=paths,
                    left_out=tuple(left))


def _strike(doc: Reader, level: int, mods: dict, prof, stats: dict, paths: dict, left: list) -> None:
    weapons = [w for w in listed(doc.get("build.weapons")) if isinstance(w, dict)]
    if not weapons:
        bonus, _ = prof("unarmed")
        stats.update(weapon="Fist", attack_bonus=bonus + mods["str"], damage=damage(1, "d4", mods["str"]))
        left.append(("trait", "agile"))
        return
    weapon, path = weapons[0], "build.weapons.0"
    reader = Reader(weapon)
    stats["weapon"] = reader.text("display") or reader.text("name") or "weapon"
    if reader.get("attack") is not None:
        stats["attack_bonus"] = _in_range("attack_bonus", f"{path}.attack", reader.get("attack"))
        paths["attack_bonus"] = f"{path}.attack"
    else:
        bonus, _ = prof(reader.text("prof", maximum=40) or "simple")
        potency = checked(f"{path}.pot", reader.get("pot", 0) or 0, 0, 4)
        stats["attack_bonus"] = _in_range("attack_bonus", f"{path}.prof", bonus + mods["str"] + potency)
        paths["attack_bonus"] = f"{path}.prof"
    die = reader.get("die") or "d4"
    if not isinstance(die, str) or not die.startswith("d"):
        raise refuse(f"{path}.die", t("must be a die such as d8"))
    extra = STRIKING.get(reader.get("str"), 0) if isinstance(reader.get("str"), (str, type(None))) else 0
    flat = reader.get("damageBonus")
    flat = checked(f"{path}.damageBonus", flat, -10, 60) if flat is not None else mods["str"]
    stats["damage"] = damage(1 + extra, die, flat)
    paths["damage"] = f"{path}.die"
    for extra_damage in listed(reader.get("extraDamage")):
        left.append(("damage", str(extra_damage)))
    left += [("strike", str(w.get("display") or w.get("name") or "")) for w in weapons[1:]]


def _spells(doc: Reader, level: int, mods: dict, stats: dict, paths: dict, left: list) -> None:
    casters = [(f"build.spellCasters.{i}", c) for i, c in enumerate(listed(doc.get("build.spellCasters")))
               if isinstance(c, dict)]
    chosen = None
    for path, caster in casters:
        per_day = listed(caster.get("perDay"))
        slots = [(rank, checked(f"{path}.perDay.{rank}", per_day[rank], 0, 9))
                 for rank in range(1, min(len(per_day), 11)) if per_day[rank]]
        if chosen is None or (slots and not chosen[2]):
            chosen = (path, caster, slots)
    if chosen is None:
        return
    path, caster, slots = chosen
    attr = caster.get("ability")
    if not isinstance(attr, str) or attr not in mods:
        raise refuse(f"{path}.ability", t("must be one of str, dex, con, int, wis, cha"))
    value = checked(f"{path}.proficiency", caster.get("proficiency", 0) or 0, 0, 8)
    stats["spell_dc"] = _in_range("spell_dc", f"{path}.proficiency", 10 + mods[attr] + (value + level if value else 0))
    paths["spell_dc"] = f"{path}.proficiency"
    if slots:
        stats["spell_slots"] = ", ".join(f"{rank}:{count}" for rank, count in slots)
        paths["spell_slots"] = f"{path}.perDay"
    left.append(("spell_attack", f"{stats['spell_dc'] - 10:+d}"))
    left += [("spellcasting", str(c.get("name") or "")) for p, c in casters if p != path]
