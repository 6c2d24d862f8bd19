"""The integration tier tests the core with the fake coin ruleset beside the shipped ones; the tiers
that serve pages never see it (tests/conftest.py says why)."""
import pytest

from tests import coin_tier


@pytest.fixture(autouse=True)
def coin_registered():
    yield from coin_tier.registered()


@pytest.fixture
def table(service):
    """A coin campaign, its session, and a way to make characters and duels and play them."""
    return coin_tier.Table(service)
