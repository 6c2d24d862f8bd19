"""The coin ruleset (tests/coin_ruleset.py) for the tiers that serve no page, tests/unit and
tests/integration: its registration for one test, and a tiny script of a campaign at the table.

The web, browser and crawl tiers never import this: they test the program users run, with the
shipped rulesets and nothing else (issue 29; tests/conftest.py holds them to it)."""
from tests import coin_ruleset
from tracker import rules


def registered():
    """Register the coin ruleset for one test, and take it out again: a generator for a fixture."""
    rules.register(coin_ruleset)
    try:
        yield coin_ruleset
    finally:
        rules.RULESETS.pop(coin_ruleset.NAME, None)


class Table:
    """A tiny script of a coin campaign at the table, for tests that need one."""

    def __init__(self, service):
        self.service = service
        self.campaign = service.handle({"type": "CreateCampaign", "name": "The Duelling Season",
                                        "ruleset": "coin"}).key
        self.session = service.handle({"type": "PlanSession", "campaign_id": self.campaign, "number": 1,
                                       "date": "2026-11-29", "title": "Swords at dawn"}).key

    def character(self, name, hp=10, rank="pj"):
        return self.service.handle({"type": "CreateCharacter", "campaign_id": self.campaign, "name": name,
                                    "rank": rank, "stats": {"coin": {"hp": hp}}}).key

    def duel(self, a, b, hits=3):
        return self.service.handle({"type": "StartDuel", "session_id": self.session, "ruleset": "coin",
                                    "duelists": [{"character_id": a, "side": "a"},
                                                 {"character_id": b, "side": "b"}], "hits": hits}).key

    def version(self, stream):
        return self.service.version(stream)

    def play(self, duel_id, a, b, **extra):
        return self.service.handle({"type": "Play", "duel_id": duel_id, "dice_a": [a], "dice_b": [b],
                                    "expected_version": self.version(f"duel-{duel_id}"), **extra})
