"""Reads for the pages and the API: each one a few indexed queries on the read models,
so a page costs the same with a thousand events in the log as with a million."""
from __future__ import annotations

from typing import Any

from tracker import rules
from tracker.events import EVENT_TYPES
from tracker.errors import NotFound
from tracker.store import loads


def _rows(db, sql: str, params: list | tuple = ()) -> list[dict]:
    cursor = db.execute(sql, params)
    names = [c[0] for c in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def _one(db, sql: str, params: list | tuple, what: str) -> dict:
    rows = _rows(db, sql, params)
    if not rows:
        raise NotFound(f"no such {what}")
    return rows[0]


def campaigns(db, gm_id: str | None = None) -> list[dict]:
    """The campaigns a GM may open (theirs, shared with them, the instance's); all without a GM."""
    if gm_id is None:
        return _rows(db, "SELECT * FROM campaigns ORDER BY name")
    return _rows(db, "SELECT * FROM campaigns WHERE owner = '' OR id IN"
                     " (SELECT campaign_id FROM campaign_access WHERE gm_id = ?) ORDER BY name", [gm_id])


def co_gms(db, campaign_id: str) -> list[dict]:
    return _rows(db, "SELECT a.gm_id, a.role, g.username FROM campaign_access a JOIN gms g ON g.id = a.gm_id"
                     " WHERE a.campaign_id = ? ORDER BY a.role DESC, g.username", [campaign_id])


def campaign(db, campaign_id: str) -> dict:
    row = _one(db, "SELECT * FROM campaigns WHERE id = ?", [campaign_id], "campaign")
    row["rules"] = loads(row["rules"])
    return row


def characters(db, campaign_id: str) -> list[dict]:
    rows = _rows(db, "SELECT * FROM characters WHERE campaign_id = ? ORDER BY name", [campaign_id])
    for row in rows:
        row["stats"] = loads(row["stats"])
    return rows


def character(db, character_id: str) -> dict:
    row = _one(db, "SELECT * FROM characters WHERE id = ?", [character_id], "character")
    row["stats"] = loads(row["stats"])
    return row


def character_sheet(db, character_id: str, recent: int = 30) -> dict:
    """The sheet: stats, current points per track, the latest wounds (each with the event that
    caused it) and duels, and the record. Totals come from running tables, and lists stop at
    ``recent``, so the sheet costs the same however long the character's history grows."""
    row = character(db, character_id)
    lost = dict(db.execute("SELECT track, lost FROM track_totals WHERE character_id = ?",
                           [character_id]).fetchall())
    tracks = []
    for name, block in row["stats"].items():
        module = rules.RULESETS.get(name)
        for track in (module.TRACKS if module else ()):
            if not track["persists"]:
                continue
            maximum = block.get(track["max_stat"], 0)
            tracks.append({"ruleset": name, "track": track["track"], "label": track["label"],
                           "max": maximum, "current": maximum - lost.get(track["track"], 0)})
    wounds = _rows(db, "SELECT w.*, d.title AS duel_title, d.ruleset FROM wounds w JOIN duels d ON d.id = w.duel_id"
                       " WHERE w.character_id = ? ORDER BY w.rowid DESC LIMIT ?", [character_id, recent])
    duels = _rows(db, "SELECT d.*, p.side, p.result FROM duelists p JOIN duels d ON d.id = p.duel_id"
                      " WHERE p.character_id = ? ORDER BY p.rowid DESC LIMIT ?", [character_id, recent])
    record: dict[str, dict[str, int]] = {}
    for ruleset, result, count in db.execute(
            "SELECT ruleset, result, count FROM records WHERE character_id = ? AND count != 0", [character_id]):
        record.setdefault(ruleset, {"win": 0, "loss": 0, "draw": 0, "abandoned": 0})[result] = count
    return {"character": row, "tracks": tracks, "wounds": wounds, "duels": duels, "record": record,
            "recent": recent}


def sessions(db, campaign_id: str) -> list[dict]:
    return _rows(db, "SELECT * FROM sessions WHERE campaign_id = ? ORDER BY number DESC", [campaign_id])


def session(db, session_id: str) -> dict:
    return _one(db, "SELECT * FROM sessions WHERE id = ?", [session_id], "session")


def duels_of_session(db, session_id: str) -> list[dict]:
    return _rows(db, "SELECT * FROM duels WHERE session_id = ? ORDER BY rowid", [session_id])


def duels_of_campaign(db, campaign_id: str, limit: int = 20) -> list[dict]:
    return _rows(db, "SELECT * FROM duels WHERE campaign_id = ? ORDER BY rowid DESC LIMIT ?",
                 [campaign_id, limit])


def duel(db, duel_id: str) -> dict:
    row = _one(db, "SELECT d.*, s.state FROM duels d JOIN stream_states s ON s.stream = 'duel-' || d.id"
                   " WHERE d.id = ?", [duel_id], "duel")
    row["state"] = loads(row.pop("state"))
    return row


def stream_version(db, stream: str) -> int:
    row = db.execute("SELECT version FROM stream_states WHERE stream = ?", [stream]).fetchone()
    return row[0] if row else 0


LOG_CATEGORIES = ("campaign", "character", "session", "duel", "correction")


def log_page(db, campaign_id: str, *, category: str | None = None, type_name: str | None = None,
             subject: str | None = None, before: int | None = None, limit: int = 50) -> dict[str, Any]:
    """One page of the campaign's log, newest first, by keyset on the position (no OFFSET)."""
    where, params = ["l.campaign_id = ?"], [campaign_id]
    source = "log_entries l"
    if subject:
        source = "log_subjects s JOIN log_entries l ON l.position = s.position"
        where.append("s.subject = ?")
        params.append(subject)
    if category:
        where.append("l.category = ?")
        params.append(category)
    if type_name:
        where.append("l.type = ?")
        params.append(type_name)
    if before:
        where.append("l.position < ?")
        params.append(before)
    order = "s.position" if subject else "l.position"
    entries = _rows(db, f"SELECT l.*, st.version AS stream_version FROM {source}"
                        " LEFT JOIN stream_states st ON st.stream = l.stream"
                        f" WHERE {' AND '.join(where)} ORDER BY {order} DESC LIMIT ?", [*params, limit + 1])
    more = len(entries) > limit
    entries = entries[:limit]
    return {"entries": entries, "next_before": entries[-1]["position"] if more else None}


def log_types() -> list[str]:
    """Every event type there is (for the log's filter)."""
    return sorted(EVENT_TYPES)
