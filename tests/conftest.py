"""Fixtures shared by every test: an app on a temporary database, its client and CLI runner,
and a fake ruleset so the core is tested without depending on any real duel system."""
import itertools
import os
import random

import pytest

from tests import coin_ruleset
from tracker import create_app, rules
from tracker.services import Context

rules.register(coin_ruleset)


def fixed_context(seed: int = 7) -> Context:
    """Ids, time and dice from fixed sources, so a test can predict them."""
    counter = itertools.count(1)
    seconds = itertools.count(0)

    def now() -> str:
        tick = next(seconds)
        return f"2026-11-29T20:{tick // 60 % 60:02d}:{tick % 60:02d}.000+00:00"

    return Context(actor="test-gm", now=now,
                   new_id=lambda: f"id{next(counter):04d}", rng=random.Random(seed))


@pytest.fixture
def app(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "tracker.db"),
                      "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "SERVICE_CONTEXT": fixed_context()})
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def db(tmp_path):
    from tracker.db import open_db

    handle = open_db(str(tmp_path / "core.db"))
    yield handle
    handle.close()


@pytest.fixture
def service(db):
    from tracker.services import Service

    return Service(db, fixed_context())


class Table:
    """A tiny script of a campaign at the table, for tests that need one."""

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


@pytest.fixture
def table(service):
    return Table(service)
