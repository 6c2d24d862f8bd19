"""The unit tier tests the core with the fake coin ruleset beside the shipped ones; the tiers
that serve pages never see it (tests/conftest.py says why)."""
import pytest

from tests import coin_tier


@pytest.fixture(autouse=True)
def coin_registered():
    yield from coin_tier.registered()
