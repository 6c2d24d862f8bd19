"""A Foundry VTT actor of the PF2e system (an export, or a file of the system's compendium packs).

An NPC (``"type": "npc"``) holds its figures: ``system.details.level.value``,
``system.attributes.ac.value``, ``system.attributes.hp.max``, Perception
(``system.perception.mod``, in older files ``system.attributes.perception.value``), the saves
under ``system.saves``, the skills under ``system.skills`` (older files: ``lore`` items with
``system.mod.value``), its Strikes as ``melee`` items (``system.bonus.value``,
``system.damageRolls``, ``system.traits.value``) and its spells as ``spellcastingEntry`` items
(``system.spelldc.dc``, ``system.slots.slotN.max``).

A PC (``"type": "character"``) holds a build, worked out by the rules in ``build``: its
``ancestry``, ``background`` and ``class`` items (HP, boosts, flaws, proficiency ranks), the
level boosts in ``system.build.attributes.boosts``, the skill ranks in ``system.skills``, its
equipped ``armor`` and held ``weapon`` items, its ``spellcastingEntry`` items.
"""
from __future__ import annotations

from typing import Any

from tracker.rules.imports import Imported, Reader, bounds, checked, listed, refuse
from tracker.rules.text import t

from ..sheet import STATS
from .build import FOUNDRY_SHORT, SKILL_ATTRIBUTE, STRIKING, Attributes, damage, proficiency, rank_name

SHEET_SKILLS = tuple(SKILL_ATTRIBUTE)


def recognises(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("system"), dict) and isinstance(data.get("items"), list) \
        and "type" in data


def read(data: Any) -> Imported:
    if not isinstance(data, dict):
        raise refuse("$", t("must be a JSON object"))
    doc = Reader(data)
    system = doc.get("_stats.systemId")
    if system is not None and system != "pf2e":
        raise refuse("_stats.systemId", t("this actor belongs to the game system {system}, not Pathfinder 2e",
                                          system=str(system)[:40]))
    if not isinstance(data.get("items", []), list):
        raise refuse("items", t("must be a list"))
    kind = doc.get("type")
    if kind == "npc":
        return _npc(doc)
    if kind == "character":
        return _character(doc)
    raise refuse("type", t("must be an NPC or a character actor, not {kind}", kind=str(kind)[:40]))


def _items(doc: Reader, kind: str) -> list[tuple[str, dict]]:
    """The actor's items of one type, each with its path."""
    return [(f"items.{i}", item) for i, item in enumerate(listed(doc.get("items")))
            if isinstance(item, dict) and item.get("type") == kind]


def _in_range(name: str, path: str, value: Any) -> int:
    low, high = bounds(STATS, name)
    return checked(path, value, low, high)


# --- NPC --------------------------------------------------------------------------------

def _npc(doc: Reader) -> Imported:
    stats: dict[str, Any] = {}
    paths: dict[str, str] = {}
    left: list[tuple[str, str]] = []

    def take(name: str, path: str, default: Any = None) -> None:
        value = doc.get(path)
        if value is None:
            if default is None:
                raise refuse(path, t("is required"))
            value = default
        stats[name] = _in_range(name, path, value)
        paths[name] = path

    take("level", "system.details.level.value")
    take("hp_max", "system.attributes.hp.max")
    take("ac", "system.attributes.ac.value")
    take("con", "system.abilities.con.mod", 0)
    perception = "system.perception.mod" if doc.get("system.perception.mod") is not None \
        else "system.attributes.perception.value"
    take("perception", perception)
    stats["perception_rank"] = "trained"
    take("will", "system.saves.will.value", 0)
    for save in ("fortitude", "reflex"):
        value = doc.get(f"system.saves.{save}.value")
        if value is not None:
            left.append(("save", f"{save.capitalize()} {int(value):+d}"))
    _npc_skills(doc, stats, paths, left)
    _npc_strike(doc, stats, paths, left)
    _spellcasting(doc, stats, paths, left, None)
    return Imported(name=doc.text("name") or "?", rank="villano", stats=stats,
                    source_id=str(doc.get("_id") or ""), paths=paths, left_out=tuple(left))


def _npc_skills(doc: Reader, stats: dict, paths: dict, left: list) -> None:
    named: dict[str, tuple[str, Any, str]] = {}
    skills = doc.get("system.skills")
    if isinstance(skills, dict):
        for key, entry in skills.items():
            if isinstance(entry, dict):
                field = "base" if "base" in entry else "value" if "value" in entry else "mod"
                named[key.lower()] = (f"system.skills.{key}.{field}", entry.get(field), key)
    for path, item in _items(doc, "lore"):
        name = str(item.get("name") or "").strip()
        named[name.lower()] = (f"{path}.system.mod.value", Reader(item).get("system.mod.value"), name)
    for skill in SHEET_SKILLS:
        if skill in named:
            path, value, _ = named[skill]
            stats[skill] = _in_range(skill, path, value)
            stats[f"{skill}_rank"] = "trained"
            paths[skill] = path
        else:
            stats[skill] = _in_range(skill, f"system.abilities.{SKILL_ATTRIBUTE[skill]}.mod",
                                     doc.get(f"system.abilities.{SKILL_ATTRIBUTE[skill]}.mod", 0))
            stats[f"{skill}_rank"] = "untrained"
    left += [("skill", shown) for name, (_, _, shown) in named.items() if name not in SHEET_SKILLS]


def _npc_strike(doc: Reader, stats: dict, paths: dict, left: list) -> None:
    strikes = _items(doc, "melee")
    if not strikes:
        raise refuse("items", t("holds no Strike (an item of type melee)"))
    melee = [s for s in strikes if Reader(s[1]).get("system.weaponType.value") != "ranged"]
    path, chosen = (melee or strikes)[0]
    item = Reader(chosen)
    stats["weapon"] = item.text("name", "weapon", 80)
    bonus = item.get("system.bonus.value")
    if bonus is None:
        raise refuse(f"{path}.system.bonus.value", t("is required"))
    stats["attack_bonus"] = _in_range("attack_bonus", f"{path}.system.bonus.value", bonus)
    paths["attack_bonus"] = f"{path}.system.bonus.value"
    rolls = item.get("system.damageRolls")
    if not isinstance(rolls, dict) or not rolls:
        raise refuse(f"{path}.system.damageRolls", t("is required"))
    (first_key, first), *others = rolls.items()
    if not isinstance(first, dict) or not isinstance(first.get("damage"), str):
        raise refuse(f"{path}.system.damageRolls.{first_key}.damage", t("is required"))
    stats["damage"] = first["damage"].replace(" ", "")
    paths["damage"] = f"{path}.system.damageRolls.{first_key}.damage"
    for _key, roll in others:
        if isinstance(roll, dict):
            left.append(("damage", f"{roll.get('damage', '')} {roll.get('damageType', '')}".strip()))
    _traits(item.get("system.traits.value"), left)
    left += [("strike", str(s.get("name") or "")) for p, s in strikes if p != path]


def _traits(traits: Any, left: list) -> None:
    for trait in listed(traits):
        if trait in ("agile", "finesse"):
            left.append(("trait", trait))


def _spellcasting(doc: Reader, stats: dict, paths: dict, left: list, computed_dc) -> None:
    """The first spellcasting entry with a DC and slots: its DC and slots; the others left out.
    ``computed_dc`` works a PC's DC out from the entry (an NPC's is written in it)."""
    entries = _items(doc, "spellcastingEntry")
    chosen = None
    for path, entry in entries:
        reader = Reader(entry)
        dc = computed_dc(path, entry) if computed_dc else reader.get("system.spelldc.dc")
        if dc is None:
            continue
        slots = _slots(path, reader)
        if chosen is None or (slots and not chosen[2]):
            chosen = (path, dc, slots)
    if chosen is None:
        return
    path, dc, slots = chosen
    stats["spell_dc"] = _in_range("spell_dc", f"{path}.system.spelldc.dc", dc)
    paths["spell_dc"] = f"{path}.system.spelldc.dc"
    if slots:
        stats["spell_slots"] = ", ".join(f"{rank}:{count}" for rank, count in slots)
        paths["spell_slots"] = f"{path}.system.slots"
    left.append(("spell_attack", f"{stats['spell_dc'] - 10:+d}"))
    left += [("spellcasting", str(e.get("name") or "")) for p, e in entries if p != path]


def _slots(path: str, entry: Reader) -> list[tuple[int, int]]:
    found = []
    for rank in range(1, 11):
        value = entry.get(f"system.slots.slot{rank}.max")
        if value:
            found.append((rank, checked(f"{path}.system.slots.slot{rank}.max", value, 0, 9)))
    return [(rank, count) for rank, count in found if count]


# --- PC ---------------------------------------------------------------------------------

def _one(doc: Reader, kind: str) -> tuple[str, Reader]:
    found = _items(doc, kind)
    if not found:
        raise refuse("items", t("holds no {kind} item: a PC's build needs one", kind=kind))
    path, item = found[0]
    return path, Reader(item)


def _choices(boosts: Any) -> list[str]:
    """The attributes a set of boosts (or flaws) gives: each one's ``selected``, else its only option."""
    chosen = []
    for entry in (boosts.values() if isinstance(boosts, dict) else listed(boosts)):
        if not isinstance(entry, dict):
            continue
        options = listed(entry.get("value"))
        pick = entry.get("selected") or (options[0] if len(options) == 1 else None)
        if isinstance(pick, str):
            chosen.append(pick)
    return chosen


def _character(doc: Reader) -> Imported:
    level = checked("system.details.level.value", doc.need("system.details.level.value"), 1, 25)
    ancestry_path, ancestry = _one(doc, "ancestry")
    class_path, klass = _one(doc, "class")
    backgrounds = _items(doc, "background")
    background = Reader(backgrounds[0][1]) if backgrounds else Reader({})
    attrs = Attributes()
    for flaw in _choices(ancestry.get("system.flaws")):
        attrs.flaw(flaw)
    for boost in _choices(ancestry.get("system.boosts")) + _choices(background.get("system.boosts")):
        attrs.boost(boost)
    key = doc.get("system.details.keyability.value") or next(iter(listed(klass.get("system.keyAbility.value"))), None)
    if isinstance(key, str):
        attrs.boost(key)
    levelled = doc.get("system.build.attributes.boosts") or {}
    if isinstance(levelled, dict):
        for at, chosen in sorted(levelled.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 99):
            if str(at).isdigit() and int(at) <= level:
                for boost in listed(chosen):
                    attrs.boost(boost)
    stats: dict[str, Any] = {"level": level}
    paths: dict[str, str] = {"level": "system.details.level.value"}
    left: list[tuple[str, str]] = []
    stats["con"] = attrs["con"]
    hp = checked(f"{ancestry_path}.system.hp", ancestry.get("system.hp", 0), 0, 20) + \
        (checked(f"{class_path}.system.hp", klass.need("system.hp"), 1, 20) + attrs["con"]) * level
    stats["hp_max"] = _in_range("hp_max", f"{class_path}.system.hp", hp)
    paths["hp_max"] = f"{class_path}.system.hp"
    ranks = lambda path: checked(f"{class_path}.{path}", klass.get(path, 0), 0, 4)  # noqa: E731
    stats["perception"] = attrs["wis"] + proficiency(ranks("system.perception"), level)
    stats["perception_rank"] = rank_name(ranks("system.perception"))
    stats["will"] = attrs["wis"] + proficiency(ranks("system.savingThrows.will"), level)
    for save, attr in (("fortitude", "con"), ("reflex", "dex")):
        left.append(("save", f"{save.capitalize()} {attrs[attr] + proficiency(ranks(f'system.savingThrows.{save}'), level):+d}"))
    trained = {skill for skill in listed(klass.get("system.trainedSkills.value"))
               + listed(background.get("system.trainedSkills.value")) if isinstance(skill, str)}
    skills = doc.get("system.skills") or {}
    for skill, attr in SKILL_ATTRIBUTE.items():
        rank = 1 if skill in trained else 0
        for key, entry in (skills.items() if isinstance(skills, dict) else ()):
            if FOUNDRY_SHORT.get(key, key) == skill and isinstance(entry, dict):
                rank = max(rank, checked(f"system.skills.{key}.rank", entry.get("rank", 0), 0, 4))
        stats[skill] = attrs[attr] + proficiency(rank, level)
        stats[f"{skill}_rank"] = rank_name(rank)
    stats["ac"] = _armor_class(doc, klass, class_path, attrs, level, paths)
    _pc_strike(doc, klass, class_path, attrs, level, stats, paths, left)

    def spell_dc(path: str, entry: dict) -> int | None:
        reader = Reader(entry)
        attr = reader.get("system.ability.value") or key
        if not isinstance(attr, str) or attr not in attrs.mods:
            return None
        rank = reader.get("system.proficiency.value") or klass.get("system.spellcasting") or 0
        rank = checked(f"{path}.system.proficiency.value", rank, 0, 4)
        return 10 + attrs[attr] + proficiency(rank, level) if rank else None

    _spellcasting(doc, stats, paths, left, spell_dc)
    left += [("feat", str(item.get("name") or "")) for _, item in _items(doc, "feat")
             if Reader(item).get("system.category") not in ("classfeature", "ancestryfeature")]
    return Imported(name=doc.text("name") or "?", rank="pj", stats=stats, source_id=str(doc.get("_id") or ""),
                    paths=paths, left_out=tuple(left))


def _armor_class(doc: Reader, klass: Reader, class_path: str, attrs: Attributes, level: int, paths: dict) -> int:
    worn = [(p, Reader(a)) for p, a in _items(doc, "armor")
            if Reader(a).get("system.equipped.inSlot") and Reader(a).get("system.category") != "shield"]
    if worn:
        path, armor = worn[0]
        category = armor.get("system.category") if isinstance(armor.get("system.category"), str) else "unarmored"
        bonus = checked(f"{path}.system.acBonus", armor.get("system.acBonus", 0), 0, 20) + \
            checked(f"{path}.system.runes.potency", armor.get("system.runes.potency",
                                                             armor.get("system.potencyRune.value", 0)) or 0, 0, 4)
        cap = armor.get("system.dexCap")
        dex = attrs["dex"] if cap is None else min(attrs["dex"], checked(f"{path}.system.dexCap", cap, 0, 10))
        paths["ac"] = f"{path}.system.acBonus"
    else:
        category, bonus, dex = "unarmored", 0, attrs["dex"]
        paths["ac"] = f"{class_path}.system.defenses.unarmored"
    rank = checked(f"{class_path}.system.defenses.{category}", klass.get(f"system.defenses.{category}", 0), 0, 4)
    return _in_range("ac", paths["ac"], 10 + dex + proficiency(rank, level) + bonus)


def _pc_strike(doc: Reader, klass: Reader, class_path: str, attrs: Attributes, level: int, stats: dict,
               paths: dict, left: list) -> None:
    weapons = [(p, Reader(w)) for p, w in _items(doc, "weapon")]
    held = [w for w in weapons if w[1].get("system.equipped.carryType") == "held"] or weapons
    melee = [w for w in held if not w[1].get("system.range")]
    if not (melee or held):
        rank = checked(f"{class_path}.system.attacks.unarmed", klass.get("system.attacks.unarmed", 0), 0, 4)
        stats.update(weapon="Fist", attack_bonus=attrs["str"] + proficiency(rank, level),
                     damage=damage(1, "d4", attrs["str"]))
        left.append(("trait", "agile"))
        return
    path, weapon = (melee or held)[0]
    category = weapon.get("system.category") if isinstance(weapon.get("system.category"), str) else "simple"
    rank = checked(f"{class_path}.system.attacks.{category}", klass.get(f"system.attacks.{category}", 0), 0, 4)
    traits = listed(weapon.get("system.traits.value"))
    ranged = bool(weapon.get("system.range"))
    attribute = attrs["dex"] if ranged else max(attrs["str"], attrs["dex"]) if "finesse" in traits else attrs["str"]
    potency = checked(f"{path}.system.runes.potency", weapon.get("system.runes.potency",
                                                                 weapon.get("system.potencyRune.value", 0)) or 0, 0, 4)
    striking = weapon.get("system.runes.striking", weapon.get("system.strikingRune.value", ""))
    extra = striking if isinstance(striking, int) else STRIKING.get(striking, 0)
    stats["weapon"] = weapon.text("name", "weapon", 80)
    stats["attack_bonus"] = _in_range("attack_bonus", f"{path}.system.category",
                                      proficiency(rank, level) + attribute + potency)
    paths["attack_bonus"] = f"{path}.system.category"
    dice = checked(f"{path}.system.damage.dice", weapon.get("system.damage.dice", 1), 1, 10) + extra
    die = weapon.get("system.damage.die") or "d4"
    if not isinstance(die, str) or not die.startswith("d"):
        raise refuse(f"{path}.system.damage.die", t("must be a die such as d8"))
    stats["damage"] = damage(dice, die, 0 if ranged else attrs["str"])
    paths["damage"] = f"{path}.system.damage.die"
    _traits(traits, left)
    left += [("strike", w.text("name")) for p, w in weapons if p != path]
