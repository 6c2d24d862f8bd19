"""The web tier serves the program users run: the shipped rulesets and nothing else (issue 29).
A test double registered here would change what pages do (the coin ruleset once made every plural
lenient and hid a 500)."""
from tracker import rules


def test_the_web_tier_holds_exactly_the_shipped_rulesets(app):
    assert list(rules.RULESETS) == ["rocet", "pirate", "pf2e"]
    assert all(module.__name__.startswith("tracker.rules.") for module in rules.RULESETS.values())


def test_every_test_of_this_tier_runs_under_the_guard(request):
    """tests/conftest.py checks the registry before and after each test of web, browser and crawl."""
    assert "_program_users_run" in request.fixturenames
