"""Sample pirate duels for tests, benchmarks and the demo: two pirates and the set-ups they duel under."""
from __future__ import annotations

DUELISTS = (
    {"name": "Capitana Mara Sal", "rank": "pj", "player": "Bea",
     "stats": {"pirate": {"atq": 5, "def": 14, "pv": 22, "comunicacion": 6, "sab": 13, "car": 16,
                          "iniciativa": 3, "weapons": "Sable | sword | 1d8\nPistola de chispa | pistol | 1d10 | 15"}}},
    {"name": "Barbanegra Jr.", "rank": "villano",
     "stats": {"pirate": {"atq": 4, "def": 13, "pv": 18, "comunicacion": 3, "sab": 11, "car": 12,
                          "iniciativa": 2, "weapons": "Alfanje | sword | 1d8\nPistola larga | pistol | 1d10 | 20"}}},
)

SETUPS = (
    {"kind": "sword", "sword_victory": "hits", "hits": 3},
    {"kind": "pistol", "distance": 20, "second_a": "Tom", "second_b": "Jack"},
    {"kind": "wit"},
)


def scripted(ids: dict) -> tuple[dict, list[dict]]:
    """A duelo de labia: one exchange of insults (A hits for 3 CAR, B misses), then B yields."""
    return {"kind": "wit"}, [
        {"type": "RollInitiative", "dice_a": [12], "dice_b": [7]},
        {"type": "Insult", "side": "a", "insult": "Burla ingeniosa", "dice_a": [15, 3]},
        {"type": "Insult", "side": "b", "insult": "Burla ingeniosa", "dice_b": [1]},
        {"type": "Yield", "side": "b"},
    ]
