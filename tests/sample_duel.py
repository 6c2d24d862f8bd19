"""A ruleset's sample duel started through the service, as a GM would: campaign, session, the two
sample duellists, the duel; its scripted commands are left to the test to send."""
from __future__ import annotations


def start_sample_duel(service, module, name: str = "Sample") -> tuple[str, list[dict]]:
    """The new duel's id and the sample's commands (without ``duel_id`` and versions)."""
    campaign = service.handle({"type": "CreateCampaign", "name": name, "ruleset": module.NAME}).key
    session = service.handle({"type": "PlanSession", "campaign_id": campaign, "number": 1,
                              "date": "2026-11-29", "title": name}).key
    people = {side: service.handle({"type": "CreateCharacter", "campaign_id": campaign, **sheet}).key
              for side, sheet in zip("ab", module.samples.DUELISTS)}
    setup, commands = module.samples.scripted(people)
    duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": module.NAME,
                           "duelists": [{"character_id": i, "side": s} for s, i in people.items()],
                           "setup": setup}).key
    return duel, commands
