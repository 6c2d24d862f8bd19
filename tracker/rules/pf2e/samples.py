"""Sample PF2e duels for tests, benchmarks and the demo: two duellists and the set-ups they duel under."""
from __future__ import annotations

DUELISTS = (
    {"name": "Seelah Ashcourt", "rank": "pj", "player": "Carlos",
     "stats": {"pf2e": {"level": 5, "hp_max": 68, "ac": 22, "attack_bonus": 13, "weapon": "Rapier",
                        "damage": "1d6+4", "deception": 11, "deception_rank": "expert", "intimidation": 9,
                        "intimidation_rank": "trained", "perception": 10, "perception_rank": "trained",
                        "arcana": 4, "arcana_rank": "untrained", "nature": 3, "nature_rank": "untrained",
                        "occultism": 4, "occultism_rank": "untrained", "religion": 6, "religion_rank": "trained",
                        "spell_dc": 19, "spell_slots": "1:2, 2:1"}}},
    {"name": "Baron Vex", "rank": "elite",
     "stats": {"pf2e": {"level": 5, "hp_max": 75, "ac": 21, "attack_bonus": 14, "weapon": "Longsword",
                        "damage": "1d8+4", "deception": 8, "deception_rank": "trained", "intimidation": 12,
                        "intimidation_rank": "expert", "perception": 11, "perception_rank": "trained",
                        "arcana": 10, "arcana_rank": "trained", "nature": 2, "nature_rank": "untrained",
                        "occultism": 3, "occultism_rank": "untrained", "religion": 3, "religion_rank": "untrained",
                        "spell_dc": 20, "spell_slots": "1:3, 2:2"}}},
)

SETUPS = ({"kind": "combat"}, {"kind": "spellcasting"}, {"kind": "mixed"})


def scripted(ids: dict) -> tuple[dict, list[dict]]:
    """A wins round 1's initiative with Intimidation, B round 2's; then A yields."""
    a, b = ids["a"], ids["b"]
    return {"kind": "combat"}, [
        {"type": "RollInitiative", "duelist": a, "skill": "intimidation", "dice_roll": [12]},
        {"type": "RollInitiative", "duelist": b, "skill": "deception", "dice_roll": [5]},
        {"type": "EndTurn"},
        {"type": "EndTurn"},
        {"type": "RollInitiative", "duelist": a, "skill": "perception", "dice_roll": [3]},
        {"type": "RollInitiative", "duelist": b, "skill": "intimidation", "dice_roll": [15]},
        {"type": "Yield", "side": "a"},
    ]
