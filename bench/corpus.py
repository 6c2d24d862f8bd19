"""Large event logs for the benchmarks, built fast: a few hundred duels played at random by
the real rules through the real service, then copied with fresh ids until the log is big."""
from __future__ import annotations

import random

import orjson

from bench.driver import play
from tracker import demo, rules
from tracker.backup import export_lines
from tracker.db import open_db
from tracker import bootstrap
from tracker.services import Context

# Every sample set-up of every ruleset, with the ruleset's sample pair of duellists.
SETUPS = [(module.NAME, module.samples.DUELISTS, setup) for module in rules.shipped() for setup in module.samples.SETUPS]


def template(duels: int = 30, seed: int = 1, max_actions: int = 60) -> list[str]:
    """One demo campaign with ``duels`` duels played at random, as JSON Lines."""
    db = open_db(":memory:")
    rng = random.Random(seed)
    counter = iter(range(10**9))
    service = bootstrap.service(db, Context(rng=rng, new_id=lambda: f"{next(counter):012x}",
                                  now=lambda: "2026-11-29T20:00:00.000+00:00"))
    campaign = demo.seed(db, service)
    session = db.execute("SELECT id FROM sessions").fetchone()[0]
    for index in range(duels):
        ruleset, pair, setup = SETUPS[index % len(SETUPS)]
        # Fresh rivals each time: wounds carry over, and a drained character may not duel.
        rivals = [service.handle({"type": "CreateCharacter", "campaign_id": campaign,
                                  **dict(sheet, name=f"{sheet['name']} {index}")}).key for sheet in pair]
        duel = service.handle({"type": "StartDuel", "session_id": session, "ruleset": ruleset,
                               "duelists": [{"character_id": rivals[0], "side": "a"},
                                            {"character_id": rivals[1], "side": "b"}],
                               "setup": setup}).key
        play(service, duel, rng, max_actions)

    class Lines(list):
        def write(self, text):
            self.append(text)

    lines = Lines()
    export_lines(db, lines)
    return list(lines)


def copies(lines: list[str], total: int):
    """Rows for the events table, ``total`` events: the template once, then its duels again and
    again with fresh duel ids — the same campaign, characters and session, so one campaign's log
    and each character's history grow with the log, as in a long campaign."""
    items = [item for item in map(orjson.loads, lines) if "stream" in item]  # not the trailer
    duel_streams = {i["stream"] for i in items if i["stream"].startswith("duel-")}
    position, copy = 0, 0
    while True:
        for item in items:
            if copy and item["stream"] not in duel_streams:
                continue
            if position >= total:
                return
            position += 1
            data = item["data"]
            stream = item["stream"]
            if copy and stream in duel_streams:
                stream = f"{stream}x{copy}"
                if item["type"] == "DuelStarted":
                    data = dict(data, duel_id=stream.split("-", 1)[1])
            yield (position, stream, item["version"], item["type"], item["schema"],
                   orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode(),
                   orjson.dumps(item["metadata"], option=orjson.OPT_SORT_KEYS).decode(), None)
        copy += 1
