"""The guard of tests/conftest.py: a tier that serves pages fails its test when any ruleset but the
shipped ones is registered (issue 29). Here, in the unit tier, the coin ruleset is registered."""
import pytest

from tests import coin_ruleset
from tests.conftest import SERVING_TIERS, SHIPPED, only_shipped_rulesets
from tracker import rules


def test_the_shipped_rulesets_are_the_three_of_tracker_rules():
    assert list(SHIPPED) == ["rocet", "pirate", "pf2e"]
    assert all(module.__name__.startswith("tracker.rules.") for module in SHIPPED.values())
    assert SERVING_TIERS == ("web", "browser", "crawl")


def test_the_guard_fails_while_a_test_ruleset_is_registered():
    assert "coin" in rules.RULESETS  # this tier's conftest registered it
    with pytest.raises(AssertionError, match="only the shipped rulesets .* found rocet, pirate, pf2e, coin"):
        only_shipped_rulesets("now")


def test_the_guard_fails_when_a_shipped_ruleset_is_swapped_for_a_double(monkeypatch):
    monkeypatch.delitem(rules.RULESETS, "coin")
    only_shipped_rulesets("now")  # the shipped three alone pass
    monkeypatch.setitem(rules.RULESETS, "pirate", coin_ruleset)
    with pytest.raises(AssertionError):
        only_shipped_rulesets("now")
