"""The duel history read model: one row per duel and the facts the statistics count.

``write_duel`` runs from the duel writer, live and in ``rebuild``, so both leave the same rows.
Facts no state keeps (every card played, every insult tried, every initiative skill) are read
from the duel's own events, leaving out retracted ones exactly as ``refold`` does; each ruleset's
``history_facts`` knows its state and event shapes, and this module writes what it returns into
one narrow table, whatever the ruleset.
"""
from __future__ import annotations

from typing import Any

from tracker import rules
from tracker.domain.events import from_data
from tracker.projections import replay
from tracker.projections.words import revived
from tracker.eventstore.store import EventStore, dumps, loads

DDL = """
CREATE TABLE IF NOT EXISTS history_duels (
    duel_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, session_id TEXT NOT NULL, ruleset TEXT NOT NULL,
    status TEXT NOT NULL, ending TEXT NOT NULL, decided INTEGER NOT NULL, started INTEGER NOT NULL,
    started_at TEXT NOT NULL, turns INTEGER NOT NULL, lost INTEGER NOT NULL, losses TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS history_duels_campaign ON history_duels(campaign_id, started);
CREATE TABLE IF NOT EXISTS history_facts (
    duel_id TEXT NOT NULL, seq INTEGER NOT NULL, campaign_id TEXT NOT NULL, character_id TEXT NOT NULL,
    kind TEXT NOT NULL, subject TEXT NOT NULL, round INTEGER NOT NULL, won INTEGER NOT NULL,
    amount INTEGER NOT NULL, duel_won INTEGER NOT NULL, PRIMARY KEY (duel_id, seq));
CREATE INDEX IF NOT EXISTS history_facts_campaign
    ON history_facts(campaign_id, kind, subject, won, amount, duel_won);
CREATE INDEX IF NOT EXISTS history_facts_character
    ON history_facts(character_id, kind, subject, won, amount, duel_won);
"""

TABLES = ("history_duels", "history_facts")
LATE_INDEXES = ("history_facts_campaign", "history_facts_character")
# One table per ruleset's facts, before each ruleset declared its own: gone, history_facts holds them.
RETIRED = ("history_cards", "history_insults", "history_initiative")


def create(db) -> None:
    for table in RETIRED:
        db.execute(f"DROP TABLE IF EXISTS {table}")
    for statement in DDL.split(";"):
        if statement.strip():
            db.execute(statement)


# --- writing ------------------------------------------------------------------------------

def write_duel(db, key: str, version: int, state: dict, fresh: bool = False,
               known: tuple[tuple[int, str], list[tuple[int, str, Any]]] | None = None) -> None:
    """Replace the duel's history rows with what its state and its events (up to ``version``) say.
    ``fresh``: the duel has no rows yet. ``known``: where the duel started (position, time) and
    every event it has, typed, as (version, type, event), when the caller kept them (a rebuild)."""
    if not fresh:
        for table in TABLES:
            db.execute(f"DELETE FROM {table} WHERE duel_id = ?", [key])
    campaign = state["campaign_id"]
    module = rules.get(state["ruleset"])
    if known is not None:
        (position, started_at), typed = known
        events = _live(module.HISTORY_EVENTS, typed, lambda: _gone(db, key, version))
    else:
        events = _events(db, key, version, module.HISTORY_EVENTS)
        started = db.execute("SELECT position, metadata FROM events WHERE stream = ? AND version = 1",
                             [f"duel-{key}"]).fetchone()
        position, started_at = started[0], loads(started[1]).get("recorded_at", "")
    found = module.history_facts(state, events)
    losses: dict[str, int] = {}
    for w in state["wounds"]:
        losses[w["track"]] = losses.get(w["track"], 0) + w["amount"]
    outcome = state.get("outcome") or {}
    db.execute("INSERT INTO history_duels (duel_id, campaign_id, session_id, ruleset, status, ending, decided,"
               " started, started_at, turns, lost, losses) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               [key, campaign, state["session_id"], state["ruleset"], "over" if outcome else "running",
                outcome.get("ending", ""), int(bool(outcome.get("winner"))), position,
                started_at, found.turns, sum(losses.values()), dumps(losses)])
    results = outcome.get("results", {})
    db.conn.executemany("INSERT INTO history_facts (duel_id, seq, campaign_id, character_id, kind, subject, round,"
                        " won, amount, duel_won) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [(key, seq, campaign, f.character, f.kind, f.subject, f.round, int(f.won), f.amount,
                          int(results.get(f.character) == "win")) for seq, f in enumerate(found.facts)])


def _events(db, key: str, version: int, types: tuple[str, ...]) -> list[Any]:
    """The duel's events of these types, typed and upcast, without the retracted ones (as ``refold``)."""
    if not types:
        return []
    marks = ", ".join("?" * (len(types) + 2))
    rows = db.execute(f"SELECT version, type, schema, data FROM events WHERE stream = ? AND version <= ?"
                      f" AND type IN ({marks}) ORDER BY version",
                      [f"duel-{key}", version, *types, "EventRetracted", "RetractionRestored"]).fetchall()
    typed = [(v, t, from_data(t, loads(data), schema)) for v, t, schema, data in rows]
    return _live(types, typed, lambda: _gone(db, key, version))


def _gone(db, key: str, version: int) -> set[int]:
    """The versions out of the duel, read as the rules read its retractions now."""
    return replay.replay("duel", EventStore(db).read_stream(f"duel-{key}", version)).gone


def _live(types: tuple[str, ...], typed: list[tuple[int, str, Any]], gone_after_old_retraction) -> list[Any]:
    """The events of these types among ``typed`` (version, type, event), without retracted ones."""
    if not types:
        return []
    typed = [(v, t, ev) for v, t, ev in typed if t in types or t in replay.CORRECTIONS]
    if any((t == "EventRetracted" and ev.scope == "legacy") or t == "RetractionRestored" for _, t, ev in typed):
        # An old retraction, or a restored one, is read as the rules read it now: what it
        # carried, what no longer fits, what came back.
        gone = gone_after_old_retraction()
        return [ev for v, t, ev in typed if t not in replay.CORRECTIONS and v not in gone]
    retracted = {v for _, t, ev in typed if t == "EventRetracted" for v in ev.versions}
    return [ev for v, t, ev in typed if t != "EventRetracted" and v not in retracted]


# --- reading --------------------------------------------------------------------------------

OUTCOMES = ("won", "draw", "abandoned", "running", "win", "loss")  # in words: tracker.web.labels.OUTCOMES
SORTS = {"newest": "h.started DESC", "oldest": "h.started", "longest": "h.turns DESC, h.started DESC",
         "bloodiest": "h.lost DESC, h.started DESC"}
PAGE_SIZE = 25


def _rows(db, sql: str, params: list | tuple = ()) -> list[dict]:
    return list(db.query(sql, params))


def clean_filters(args, rulesets, page: int = 1) -> dict:
    """The page's filters from the query string; anything unknown is left out, not refused. The
    page number comes already read, by the web's one reader of numbers in an address."""
    outcome = args.get("outcome") or None
    character = args.get("character") or None
    return {"character": character, "ruleset": args.get("ruleset") if args.get("ruleset") in rulesets else None,
            "session": args.get("session") or None, "ending": args.get("ending") or None,
            "outcome": outcome if outcome in OUTCOMES and (character or outcome not in ("win", "loss")) else None,
            "sort": args.get("sort") if args.get("sort") in SORTS else "newest",
            "page": max(page, 1)}


def duels_page(db, campaign_id: str, filters: dict, size: int | None = None) -> dict:
    """One page of the campaign's duels, filtered and sorted, with their duelists and the total."""
    size = size or PAGE_SIZE
    where, params = ["h.campaign_id = ?"], [campaign_id]
    source = "history_duels h"
    if filters["character"]:
        source = "duelists p JOIN history_duels h ON h.duel_id = p.duel_id"
        where.append("p.character_id = ?")
        params.append(filters["character"])
    for key, column in (("ruleset", "h.ruleset"), ("session", "h.session_id"), ("ending", "h.ending")):
        if filters[key]:
            where.append(f"{column} = ?")
            params.append(filters[key])
    where += {"won": ["h.decided = 1"], "draw": ["h.status = 'over'", "h.decided = 0", "h.ending != 'abandoned'"],
              "abandoned": ["h.ending = 'abandoned'"], "running": ["h.status = 'running'"],
              "win": ["p.result = 'win'"], "loss": ["p.result = 'loss'"]}.get(filters["outcome"], [])
    # Filter and sort on the narrow history rows; only the page's duels are read in full.
    sql = f"FROM {source} WHERE {' AND '.join(where)}"
    total = db.execute(f"SELECT COUNT(*) {sql}", params).fetchone()[0]
    pages = max((total + size - 1) // size, 1)
    page = min(filters["page"], pages)
    ids = [r[0] for r in db.execute(f"SELECT h.duel_id {sql} ORDER BY {SORTS[filters['sort']]} LIMIT ? OFFSET ?",
                                    [*params, size, (page - 1) * size])]
    marks = ", ".join("?" * len(ids))
    found = {r["id"]: r for r in _rows(
        db, "SELECT d.*, h.started_at, h.turns, h.lost, h.losses, s.number AS session_number,"
            " s.date AS session_date, s.title AS session_title FROM duels d JOIN history_duels h ON h.duel_id = d.id"
            f" JOIN sessions s ON s.id = d.session_id WHERE d.id IN ({marks})", ids)} if ids else {}
    rows = revived([found[i] for i in ids], "summary", "progress")
    _attach_duelists(db, rows)
    return {"duels": rows, "total": total, "page": page, "pages": pages}


def _attach_duelists(db, rows: list[dict]) -> None:
    by_duel: dict[str, list] = {r["id"]: [] for r in rows}
    for r in rows:
        r["losses"] = loads(r["losses"])
        r["duelists"] = by_duel[r["id"]]
    if by_duel:
        marks = ", ".join("?" * len(by_duel))
        for d in _rows(db, f"SELECT duel_id, character_id, side, name, result FROM duelists"
                           f" WHERE duel_id IN ({marks}) ORDER BY side, name", list(by_duel)):
            by_duel[d["duel_id"]].append(d)


def filter_choices(db, campaign_id: str) -> dict:
    """What the filters offer: the campaign's characters, sessions and the endings that happened."""
    return {"characters": _rows(db, "SELECT id, name FROM characters WHERE campaign_id = ? ORDER BY name", [campaign_id]),
            "sessions": _rows(db, "SELECT id, number, title, date FROM sessions WHERE campaign_id = ? ORDER BY number",
                              [campaign_id]),
            "endings": [r[0] for r in db.execute("SELECT DISTINCT ending FROM duels WHERE campaign_id = ?"
                                                 " AND ending IS NOT NULL ORDER BY ending", [campaign_id])]}


def campaign_stats(db, campaign_id: str) -> dict:
    """The figures a GM shows the table: the longest duel of each ruleset and every ruleset's statistics."""
    # The longest duel of each ruleset (the first to reach that length), in portable SQL.
    longest = _rows(db, "SELECT ruleset, kind, id, title, summary, turns FROM (SELECT d.ruleset, d.kind, d.id, d.title,"
                        " d.summary, h.turns, ROW_NUMBER() OVER (PARTITION BY d.ruleset"
                        " ORDER BY h.turns DESC, h.started) AS n FROM history_duels h"
                        " JOIN duels d ON d.id = h.duel_id WHERE h.campaign_id = ?) AS ranked WHERE n = 1"
                        " ORDER BY turns DESC, ruleset", [campaign_id])
    revived(longest, "summary")
    return {"longest": longest, "total": db.execute("SELECT COUNT(*) FROM history_duels WHERE campaign_id = ?",
                                                   [campaign_id]).fetchone()[0],
            **_facts(db, "campaign_id", campaign_id)}


def _facts(db, column: str, value: str) -> dict:
    """Every ruleset's statistics (its facts counted by subject), for a campaign or for one character."""
    found = {}
    for module in rules.RULESETS.values():
        for statistic in module.STATISTICS:
            sums = "".join(f", SUM({source}) AS {name}" for name, source in statistic.sums.items())
            rows = _rows(db, f"SELECT subject AS name, COUNT(*) AS used, SUM(won) AS won{sums} FROM history_facts"
                             f" WHERE {column} = ? AND kind = ? GROUP BY subject ORDER BY used DESC, subject",
                         [value, statistic.kind])
            for row in rows:
                row["name"] = statistic.names.get(row["name"], row["name"])
                row["rate"] = round(100 * row["won"] / row["used"]) if row["used"] else 0
            found[statistic.kind] = rows
    return found


def character_record(db, character_id: str, recent: int = 50) -> dict:
    """A character's record by ruleset, losses duel by duel, rivals and their own statistics."""
    record: dict[str, dict[str, int]] = {}
    for ruleset, result, count in db.execute("SELECT ruleset, result, count FROM records WHERE character_id = ?"
                                             " ORDER BY ruleset", [character_id]):
        record.setdefault(ruleset, {"win": 0, "loss": 0, "draw": 0, "abandoned": 0})[result] = count
    losses = _rows(db, "SELECT w.duel_id, w.track, SUM(w.amount) AS amount, d.title, d.ruleset, h.started,"
                       " h.started_at FROM wounds w JOIN duels d ON d.id = w.duel_id"
                       " JOIN history_duels h ON h.duel_id = w.duel_id WHERE w.character_id = ?"
                       " GROUP BY w.duel_id, w.track, d.title, d.ruleset, h.started, h.started_at HAVING SUM(w.amount) > 0 ORDER BY h.started DESC LIMIT ?", [character_id, recent])
    totals = _rows(db, "SELECT w.track, d.ruleset, SUM(w.amount) AS amount, COUNT(DISTINCT w.duel_id) AS duels"
                       " FROM wounds w JOIN duels d ON d.id = w.duel_id WHERE w.character_id = ?"
                       " GROUP BY w.track, d.ruleset ORDER BY d.ruleset, w.track", [character_id])
    rivals = _rows(db, "SELECT o.character_id AS id, COALESCE(MAX(c.name), MAX(o.name)) AS name, COUNT(*) AS duels,"
                       " COUNT(CASE p.result WHEN 'win' THEN 1 END) AS won, COUNT(CASE p.result WHEN 'loss' THEN 1 END) AS lost"
                       " FROM duelists p"
                       " JOIN duelists o ON o.duel_id = p.duel_id AND o.side != p.side"
                       " LEFT JOIN characters c ON c.id = o.character_id WHERE p.character_id = ?"
                       " GROUP BY o.character_id ORDER BY duels DESC, name LIMIT 10", [character_id])
    return {"record": record, "losses": losses, "loss_totals": totals, "rivals": rivals, "recent": recent,
            "stats": _facts(db, "character_id", character_id)}
