"""The demo campaign seeded on first start: characters for each ruleset, a play session,
and one duel under way so a new GM sees a live duel page at once.

Its words (the campaign's notes, the session's title, the stakes) are written in the language of
whoever seeds it (the command line's), as a GM would type them; they are the campaign's data from
then on. A demo seeded in Spanish is a Spanish campaign, so its players read Spanish too.
"""
from __future__ import annotations

from tracker import bootstrap
from tracker.rules import pf2e, pirate, rocet
from tracker.rules.text import t
from tracker.application.services import Context, Service

# Each ruleset's sample duellists, a pair per ruleset: rivals the demo campaign starts with.
CHARACTERS = [*rocet.samples.DUELISTS, *pirate.samples.DUELISTS, *pf2e.samples.DUELISTS]


def seed(db, service: Service | None = None, language: str | None = None) -> str:
    """Create the demo campaign, owned by the first GM if there is one yet (else by the first GM to
    register), its words in the current language and ``language``, when given, its players'
    language; return its id."""
    first = db.execute("SELECT stream FROM events WHERE type = 'GMRegistered' ORDER BY position LIMIT 1").fetchone()
    service = service or bootstrap.service(db, Context(actor=first[0].removeprefix("gm-") if first else ""))
    campaign = service.handle({"type": "CreateCampaign", "name": "La Temporada de Duelos (demo)", "ruleset": "rocet",
                               "notes": str(t("A demo campaign: one duel system per pair of rivals. Edit or retract "
                                              "anything."))}).key
    if language and language != "en" and "SetCampaignLanguage" in service.handlers:
        service.handle({"type": "SetCampaignLanguage", "campaign_id": campaign, "language": language,
                        "expected_version": 1})
    ids = [service.handle({"type": "CreateCharacter", "campaign_id": campaign, **c}).key for c in CHARACTERS]
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1, "date": "2026-11-29",
                              "title": str(t("Swords at dawn")), "notes": str(t("Three rivalries come to a head."))}).key
    service.handle({"type": "StartDuel", "session_id": session, "ruleset": "rocet",
                    "duelists": [{"character_id": ids[0], "side": "a"}, {"character_id": ids[1], "side": "b"}],
                    "challenger": "b", "stakes": str(t("Lope's apology before the court")), "judge": "Don Rodrigo",
                    "setup": {"kind": "relojes", "cards": "virtual", "deck": "shared", "weapon_type": "Espada"}})
    return campaign
