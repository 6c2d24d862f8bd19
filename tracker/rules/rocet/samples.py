"""Sample Rocèt duels for tests, benchmarks and the demo: two fencers and the set-ups they duel under."""
from __future__ import annotations

DUELISTS = (
    {"name": "Inés de Ayala", "rank": "pj", "player": "Ana", "notes": "Fencing master's daughter.",
     "stats": {"rocet": {"des": "d10", "int": "d8", "pg_max": 40, "pm_max": 35,
                         "weapons": "Espada ropera | Espada | 3\nDaga de vizcaína | Daga | 1"}}},
    {"name": "Lope Calatrava", "rank": "villano", "notes": "Owes Inés a duel since Toledo.",
     "stats": {"rocet": {"des": "d8", "int": "d8", "pg_max": 45, "pm_max": 30,
                         "weapons": "Espada de lazo | Espada | 2\nPuñal | Daga | 1"}}},
)

SETUPS = (
    {"kind": "relojes", "cards": "virtual", "weapon_type": "Espada"},
    {"kind": "superioridad", "cards": "physical", "weapon_type": "Espada"},
    {"kind": "primera_sangre", "cards": "virtual", "weapon_type": "Daga"},
    {"kind": "a_muerte", "cards": "virtual", "weapon_type": "Espada"},
)


def scripted(ids: dict) -> tuple[dict, list[dict]]:
    """Physical cards: A's Estocada Alta beats an Insulto, then B's Tajo Circular beats A's
    Insulto and deals damage, then A yields."""
    setup = {"kind": "relojes", "cards": "physical", "weapon_type": "Espada"}
    return setup, [
        {"type": "PlayTurn", "card_a": "Estocada Alta", "card_b": "Insulto", "dice_a": [3, 4], "dice_b": [2, 3]},
        {"type": "DeclineDamage"},
        {"type": "PlayTurn", "card_a": "Insulto", "card_b": "Tajo Circular", "dice_a": [1, 2], "dice_b": [5, 4]},
        {"type": "DealDamage", "source": "attack"},
        {"type": "Yield", "side": "a"},
    ]
