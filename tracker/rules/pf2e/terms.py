"""Pathfinder 2e duels' vocabulary: the name, the kinds of duel, the teams and the victories."""
from __future__ import annotations

NAME = "pf2e"
TITLE = "Pathfinder 2e"
MAX_PER_SIDE = 2  # pairs fighting together, or tag teams

KINDS = {"combat": "Combat duel", "spellcasting": "Spellcasting duel", "mixed": "Mixed duel (combat and spells)"}
TEAMS = {"single": "one against one", "together": "pairs fighting together", "tag": "pairs as tag teams"}
VICTORIES = {"first_blood": "first blood", "knockout": "knockout", "custom": "a custom condition"}
