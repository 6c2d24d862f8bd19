"""Large event logs for the benchmarks, built fast: a few hundred duels played at random by
the real rules through the real service, then copied with fresh ids until the log is big."""
from __future__ import annotations

import random

import orjson

from bench.driver import play
from tracker import rules
from tracker.cli import demo
from tracker.backup import export_lines
from tracker.backup.references import rewrite
from tracker.bootstrap.db import open_db
from tracker import bootstrap
from tracker.application.services import Context

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
    # Fresh rivals for each duel (wounds carry over, and a drained character may not duel), all
    # made first: a store of the log's first thousand events already has every character.
    pairs = [[service.handle({"type": "CreateCharacter", "campaign_id": campaign,
                              **dict(sheet, name=f"{sheet['name']} {index}")}).key
              for sheet in SETUPS[index % len(SETUPS)][1]] for index in range(duels)]
    for index, rivals in enumerate(pairs):
        ruleset, _pair, setup = SETUPS[index % len(SETUPS)]
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
    again with fresh duel ids, in the same campaign and session, so the campaign's log grows with
    the log. Every copy is fought by stand-ins, the duelists of the template's last duel of the
    same ruleset, side for side: every other character keeps the duels it had, so a page about
    one of them shows the same thing in a small store and a large one, compared like with like."""
    items = [item for item in map(orjson.loads, lines) if "stream" in item]  # not the trailer
    duel_streams = {i["stream"] for i in items if i["stream"].startswith("duel-")}
    starts = [i["data"] for i in items if i["type"] == "DuelStarted"]
    stand_in = {(d["ruleset"], p["side"]): p["id"] for d in starts for p in d["duelists"]}  # the last wins
    fought_by = {p["id"]: stand_in[(d["ruleset"], p["side"])] for d in starts for p in d["duelists"]}
    position, copy = 0, 0
    while True:
        suffix = f"x{copy}"

        def fresh(category: str, old: str) -> str:
            if category == "duel" and old:
                return old + suffix
            return fought_by.get(old, old) if category == "character" else old

        for item in items:
            if copy and item["stream"] not in duel_streams:
                continue
            if position >= total:
                return
            position += 1
            data, stream = item["data"], item["stream"]
            if copy:
                stream = f"{stream}{suffix}"
                data = rewrite(item["type"], data, fresh)
            yield (position, stream, item["version"], item["type"], item["schema"],
                   orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode(),
                   orjson.dumps(item["metadata"], option=orjson.OPT_SORT_KEYS).decode(), None)
        copy += 1
