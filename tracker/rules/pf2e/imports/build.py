"""The PF2e rules an import works a PC's figures out by (Player Core ch. 1 and 8).

- An attribute modifier starts at +0; each boost adds 1, but a boost to a modifier already +4 or
  more is partial: two of them add 1. A flaw takes 1 away.
- A proficiency bonus is 0 untrained, else the level plus 2 (trained), 4 (expert), 6 (master) or
  8 (legendary).
- Max HP: the ancestry's HP, plus the class's HP plus the Constitution modifier, per level.
- AC: 10 + Dexterity (up to the armor's cap) + the armor's proficiency bonus + its item bonus
  (and its potency rune). A Strike: the weapon's proficiency bonus + Strength (Dexterity for a
  ranged weapon; the better of the two for a finesse one) + its potency rune; damage the weapon's
  die, one more per striking rune, + Strength for a melee weapon.
- Spell DC: 10 + the spellcasting attribute + the spellcasting proficiency bonus; the spell attack
  is that less 10.
"""
from __future__ import annotations

from ..sheet import RANKS

ATTRIBUTES = ("str", "dex", "con", "int", "wis", "cha")
# The sheet's skills, the attribute each goes by, and the short keys Foundry's older actors use.
SKILL_ATTRIBUTE = {"deception": "cha", "intimidation": "cha", "arcana": "int", "nature": "wis",
                   "occultism": "int", "religion": "wis"}
FOUNDRY_SHORT = {"dec": "deception", "itm": "intimidation", "arc": "arcana", "nat": "nature",
                 "occ": "occultism", "rel": "religion", "acr": "acrobatics", "ath": "athletics",
                 "cra": "crafting", "dip": "diplomacy", "med": "medicine", "prf": "performance",
                 "soc": "society", "ste": "stealth", "sur": "survival", "thi": "thievery"}
STRIKING = {"": 0, None: 0, "striking": 1, "greaterStriking": 2, "majorStriking": 3,
            "greater-striking": 2, "major-striking": 3}


class Attributes:
    """Attribute modifiers built boost by boost."""

    def __init__(self):
        self.mods = dict.fromkeys(ATTRIBUTES, 0)
        self._partial = dict.fromkeys(ATTRIBUTES, False)

    def boost(self, attribute: str) -> None:
        if attribute not in self.mods:
            return
        if self.mods[attribute] < 4:
            self.mods[attribute] += 1
        elif self._partial[attribute]:
            self.mods[attribute] += 1
            self._partial[attribute] = False
        else:
            self._partial[attribute] = True

    def flaw(self, attribute: str) -> None:
        if attribute in self.mods:
            self.mods[attribute] -= 1

    def __getitem__(self, attribute: str) -> int:
        return self.mods[attribute]


def proficiency(rank: int, level: int) -> int:
    """The proficiency bonus of a rank (0 untrained … 4 legendary) at a level."""
    return 0 if rank <= 0 else 2 * min(rank, 4) + level


def rank_name(rank: int) -> str:
    return RANKS[max(0, min(int(rank), 4))]


def modifier(score: int) -> int:
    """An older sheet's attribute score (16) as its modifier (+3)."""
    return (score - 10) // 2


def damage(dice: int, die: str, bonus: int) -> str:
    """"1d8+4" from the dice, the die and a flat bonus."""
    text = f"{max(1, dice)}{die}"
    return text + (f"+{bonus}" if bonus > 0 else f"{bonus}" if bonus < 0 else "")
