"""A campaign with something on every page: the demo, a duel of each kind the bench plays (all
three rulesets) part-way through or finished, and the players' links (table display, recap)."""
import random

from bench.corpus import SETUPS
from bench.driver import play
from tests.conftest import fixed_context
from tracker import bootstrap
from tracker.cli import demo
from tracker.bootstrap.db import open_db


def seed(database: str) -> dict:
    """Fill the database; the ids a test starts from: campaign, session, and one duel per ruleset."""
    db = open_db(database)
    try:
        service = bootstrap.service(db, fixed_context())
        rng = random.Random(5)
        campaign = demo.seed(db, service)
        session = db.execute("SELECT id FROM sessions WHERE campaign_id = ?", [campaign]).fetchone()[0]
        duels = {}
        for index, (ruleset, pair, setup) in enumerate(SETUPS):
            rivals = [service.handle({"type": "CreateCharacter", "campaign_id": campaign,
                                      **dict(sheet, name=f"{sheet['name']} {index}")}).key
                      for sheet in pair]
            duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": ruleset, "setup": setup,
                                   "duelists": [{"character_id": rivals[0], "side": "a"},
                                                {"character_id": rivals[1], "side": "b"}]}).key
            finished = index % 3 == 2  # some duels over, most still running
            play(service, duel, rng, 40 if finished else 6, end_with="Abandon" if finished else None)
            duels.setdefault(ruleset, duel)
        service.handle({"type": "IssuePlayerLink", "kind": "display", "target": duels["rocet"]})
        service.handle({"type": "IssuePlayerLink", "kind": "recap", "target": session})
        return {"campaign": campaign, "session": session, "duels": duels}
    finally:
        db.close()
