"""The web tier serves the program users run: the shipped rulesets and nothing else (issue 29).
A test double registered here would change what pages do (the coin ruleset once made every plural
lenient and hid a 500)."""
from tracker import rules


def test_the_web_tier_holds_exactly_the_shipped_rulesets(app):
    assert list(rules.RULESETS) == ["rocet", "pirate", "pf2e"]
    assert all(module.__name__.startswith("tracker.rules.") for module in rules.RULESETS.values())
