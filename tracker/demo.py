"""The demo campaign seeded on first start: characters for each ruleset, a play session,
and one duel under way so a new GM sees a live duel page at once."""
from __future__ import annotations

from tracker import bootstrap
from tracker.services import Context, Service

CHARACTERS = [
    {"name": "Inés de Ayala", "rank": "pj", "player": "Ana", "notes": "Fencing master's daughter.",
     "stats": {"rocet": {"des": "d10", "int": "d8", "pg_max": 40, "pm_max": 35,
                         "weapons": "Espada ropera | Espada | 3\nDaga de vizcaína | Daga | 1"}}},
    {"name": "Lope Calatrava", "rank": "villano", "notes": "Owes Inés a duel since Toledo.",
     "stats": {"rocet": {"des": "d8", "int": "d8", "pg_max": 45, "pm_max": 30,
                         "weapons": "Espada de lazo | Espada | 2\nPuñal | Daga | 1"}}},
    {"name": "Capitana Mara Sal", "rank": "pj", "player": "Bea",
     "stats": {"pirate": {"atq": 5, "def": 14, "pv": 22, "comunicacion": 6, "sab": 13, "car": 16,
                          "iniciativa": 3, "weapons": "Sable | sword | 1d8\nPistola de chispa | pistol | 1d10 | 15"}}},
    {"name": "Barbanegra Jr.", "rank": "villano",
     "stats": {"pirate": {"atq": 4, "def": 13, "pv": 18, "comunicacion": 3, "sab": 11, "car": 12,
                          "iniciativa": 2, "weapons": "Alfanje | sword | 1d8\nPistola larga | pistol | 1d10 | 20"}}},
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
]


def seed(db, service: Service | None = None) -> str:
    """Create the demo campaign, owned by the first GM if there is one yet (else by the first GM to
    register); return its id."""
    first = db.execute("SELECT stream FROM events WHERE type = 'GMRegistered' ORDER BY position LIMIT 1").fetchone()
    service = service or bootstrap.service(db, Context(actor=first[0].removeprefix("gm-") if first else ""))
    campaign = service.handle({"type": "CreateCampaign", "name": "La Temporada de Duelos (demo)", "ruleset": "rocet",
                               "notes": "A demo campaign: one duel system per pair of rivals. Edit or retract anything."}).key
    ids = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, **c}).key for c in CHARACTERS]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": "Swords at dawn", "notes": "Three rivalries come to a head."}).key
    service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet",
                    "duelists": [{"character_id": ids[0], "side": "a"}, {"character_id": ids[1], "side": "b"}],
                    "challenger": "b", "stakes": "Lope's apology before the court", "judge": "Don Rodrigo",
                    "setup": {"kind": "relojes", "cards": "virtual", "deck": "shared", "weapon_type": "Espada"}})
    return campaign
