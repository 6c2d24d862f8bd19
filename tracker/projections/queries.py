"""Reads for the pages, the API, the handlers and the access checks: each one a few indexed
queries on the read models, so a page costs the same with a thousand events in the log as with
a million. Rows come as dicts from sqlite-utils' ``db.query()``."""
from __future__ import annotations

import functools
import hashlib

from typing import Any

from tracker import rules
from tracker.domain.events import EVENT_TYPES
from tracker.domain.errors import NotFound, no_such
from tracker.projections.schema import LINES_OF_STREAM
from tracker.projections import windows
from tracker.projections.words import revived
from tracker.eventstore.store import load_state, loads


def _one(db, sql: str, params: list | tuple, what: str) -> dict:
    """The query's one row (sqlite-utils gives it as a dict), or NotFound naming what was asked."""
    row = next(db.query(sql, params), None)
    if row is None:
        raise NotFound(no_such(what))
    return row


def campaigns(db, gm_id: str | None = None) -> list[dict]:
    """The campaigns a GM may open (theirs, shared with them, the instance's); all without a GM."""
    if gm_id is None:
        return list(db.query("SELECT * FROM campaigns ORDER BY name"))
    return list(db.query("SELECT * FROM campaigns WHERE owner = '' OR id IN"
                         " (SELECT campaign_id FROM campaign_access WHERE gm_id = ?) ORDER BY name", [gm_id]))


def co_gms(db, campaign_id: str) -> list[dict]:
    return list(db.query("SELECT a.gm_id, a.role, g.username FROM campaign_access a JOIN gms g ON g.id = a.gm_id"
                         " WHERE a.campaign_id = ? ORDER BY a.role DESC, g.username", [campaign_id]))


def campaign(db, campaign_id: str) -> dict:
    row = _one(db, "SELECT * FROM campaigns WHERE id = ?", [campaign_id], "campaign")
    row["rules"] = loads(row["rules"])
    return row


def characters(db, campaign_id: str) -> list[dict]:
    rows = list(db.query("SELECT * FROM characters WHERE campaign_id = ? ORDER BY name", [campaign_id]))
    for row in rows:
        row["stats"] = loads(row["stats"])
    return rows


def character_names(db, campaign_id: str) -> list[dict]:
    """The campaign's characters as id and name only, by name (a filter's choices): no stats read."""
    return list(db.query("SELECT id, name FROM characters WHERE campaign_id = ? ORDER BY name", [campaign_id]))


def character(db, character_id: str) -> dict:
    row = _one(db, "SELECT * FROM characters WHERE id = ?", [character_id], "character")
    row["stats"] = loads(row["stats"])
    return row


def character_in(db, campaign_id: str, character_id: str) -> dict | None:
    """The character, if it belongs to this campaign (None otherwise), with its stats read."""
    row = next(db.query("SELECT * FROM characters WHERE id = ? AND campaign_id = ?",
                        [character_id, campaign_id]), None)
    if row is not None:
        row["stats"] = loads(row["stats"])
    return row


def lost_points(db, character_id: str) -> dict[str, int]:
    """What the character has lost on each persisting track, from the running totals."""
    return dict(db.execute("SELECT track, lost FROM track_totals WHERE character_id = ?",
                           [character_id]).fetchall())


def recorded_times(db, stream: str, versions) -> dict[int, str]:
    """When each of these versions of a stream was recorded, as the log keeps it."""
    versions = sorted(set(versions))
    if not versions:
        return {}
    marks = ", ".join("?" * len(versions))
    return dict(db.execute(f"SELECT e.version, l.recorded_at FROM {LINES_OF_STREAM} AND e.version IN ({marks})",
                           [stream, *versions]).fetchall())


def character_sheet(db, character_id: str, recent: int = 30) -> dict:
    """The sheet: stats, current points per track, the latest wounds (each with the event that
    caused it) and duels, and the record. Totals come from running tables, and lists stop at
    ``recent``, so the sheet costs the same however long the character's history grows."""
    row = character(db, character_id)
    lost = lost_points(db, character_id)
    tracks = []
    for name, block in row["stats"].items():
        module = rules.RULESETS.get(name)
        for track in (module.TRACKS if module else ()):
            if not track["persists"]:
                continue
            maximum = block.get(track["max_stat"], 0)
            tracks.append({"ruleset": name, "track": track["track"], "label": track["label"],
                           "max": maximum, "current": maximum - max(lost.get(track["track"], 0), 0)})
    wounds = revived(list(db.query("SELECT w.*, d.title AS duel_title, d.ruleset FROM wounds w JOIN duels d"
                           " ON d.id = w.duel_id WHERE w.character_id = ? ORDER BY w.rowid DESC LIMIT ?",
                           [character_id, recent])), "note")
    duels = revived(list(db.query("SELECT d.*, p.side, p.result FROM duelists p JOIN duels d ON d.id = p.duel_id"
                                  " WHERE p.character_id = ? ORDER BY p.rowid DESC LIMIT ?", [character_id, recent])),
                    *DUEL_WORDS)
    changes = revived(list(db.query("SELECT * FROM track_changes WHERE character_id = ? ORDER BY at DESC, seq DESC"
                                    " LIMIT ?", [character_id, recent])), "note")
    record: dict[str, dict[str, int]] = {}
    for ruleset, result, count in db.execute(
            "SELECT ruleset, result, count FROM records WHERE character_id = ? AND count != 0", [character_id]):
        record.setdefault(ruleset, {"win": 0, "loss": 0, "draw": 0, "abandoned": 0})[result] = count
    return {"character": row, "tracks": tracks, "wounds": wounds, "changes": changes, "duels": duels,
            "record": record, "recent": recent}


def party_of(db, campaign_id: str, session_id: str) -> list[dict]:
    """Who rests at the end of a session: the campaign's PJs and everyone who duelled in it."""
    rows = list(db.query("SELECT * FROM characters WHERE campaign_id = ? AND (rank = 'pj' OR id IN"
                         " (SELECT p.character_id FROM duelists p JOIN duels d ON d.id = p.duel_id"
                         " WHERE d.session_id = ?)) ORDER BY name", [campaign_id, session_id]))
    for row in rows:
        row["stats"] = loads(row["stats"])
    return rows


def sessions(db, campaign_id: str) -> list[dict]:
    return list(db.query("SELECT * FROM sessions WHERE campaign_id = ? ORDER BY number DESC", [campaign_id]))


def session_on(db, campaign_id: str, date: str) -> dict | None:
    """The campaign's session on that date (the highest numbered, when there are several)."""
    return next(db.query("SELECT * FROM sessions WHERE campaign_id = ? AND date = ? ORDER BY number DESC LIMIT 1",
                         [campaign_id, date]), None)


def last_session_number(db, campaign_id: str) -> int:
    row = db.execute("SELECT MAX(number) FROM sessions WHERE campaign_id = ?", [campaign_id]).fetchone()
    return row[0] or 0


def session(db, session_id: str) -> dict:
    return _one(db, "SELECT * FROM sessions WHERE id = ?", [session_id], "session")


DUEL_WORDS = ("summary", "progress")  # the duels table's columns that keep words as data


def duels_of_session(db, session_id: str) -> list[dict]:
    return revived(list(db.query("SELECT * FROM duels WHERE session_id = ? ORDER BY rowid", [session_id])),
                   *DUEL_WORDS)


def duels_of_campaign(db, campaign_id: str, limit: int = 20) -> list[dict]:
    return revived(list(db.query("SELECT * FROM duels WHERE campaign_id = ? ORDER BY rowid DESC LIMIT ?",
                                 [campaign_id, limit])), *DUEL_WORDS)


def duel(db, duel_id: str) -> dict:
    row = _one(db, "SELECT d.*, s.state FROM duels d JOIN stream_states s ON s.stream = 'duel-' || d.id"
                   " WHERE d.id = ?", [duel_id], "duel")
    row["state"] = load_state(row.pop("state"))
    return revived([row], *DUEL_WORDS)[0]


def duel_to_read(db, duel_id: str, before: int | None = None, since: int | None = None,
                 span: int | None = None) -> dict:
    """``duel``, its state shared with the reads before it while the stored state is the same
    (``_shared_state``): for reads only, which never change it. A long duel's state is parsed once
    per version, not on every read of a follower. Its history is the window ``windows.load_window``
    reads (all of it by default), and ``window`` says which."""
    row = _one(db, "SELECT d.*, s.state FROM duels d JOIN stream_states s ON s.stream = 'duel-' || d.id"
                   " WHERE d.id = ?", [duel_id], "duel")
    raw = row.pop("state")
    row["state"], row["window"] = _shared_state(raw if isinstance(raw, (str, bytes)) else bytes(raw),
                                                before, since, span)
    return revived([row], *DUEL_WORDS)[0]


@functools.lru_cache(maxsize=32)
def _shared_state(raw: str | bytes, before: int | None, since: int | None, span: int | None) -> tuple:
    """A stored state parsed (its history window and the ``Window``), keyed by its very text: a
    rebuild that refolds it differently makes another key, so what is shared is never stale. Never
    to be changed by whoever reads it."""
    return windows.load_window(raw, None, before, since, span)


def duel_window(db, duel_id: str, last: int | None = windows.LATEST, before: int | None = None) -> dict:
    """``duel`` with only the latest ``last`` history lines (those before version ``before``), its
    own copy to change, and ``window`` saying which lines it holds: what a duel's page draws."""
    row = _one(db, "SELECT d.*, s.state FROM duels d JOIN stream_states s ON s.stream = 'duel-' || d.id"
                   " WHERE d.id = ?", [duel_id], "duel")
    row["state"], row["window"] = windows.load_window(row.pop("state"), last, before)
    return revived([row], *DUEL_WORDS)[0]


def stream_state(db, stream: str) -> dict | None:
    """A stream's folded state, or None when it does not exist."""
    row = db.execute("SELECT state FROM stream_states WHERE stream = ?", [stream]).fetchone()
    return load_state(row[0]) if row else None


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
    entries = list(db.query(f"SELECT l.*, st.version AS stream_version FROM {source}"
                            " LEFT JOIN stream_states st ON st.stream = l.stream"
                            f" WHERE {' AND '.join(where)} ORDER BY {order} DESC LIMIT ?", [*params, limit + 1]))
    more = len(entries) > limit
    entries = revived(entries[:limit], "summary")
    return {"entries": entries, "next_before": entries[-1]["position"] if more else None}


def log_types() -> list[tuple[str, Any]]:
    """Every event type of the core and of the registered rulesets, for the log's filter: its
    stored name (the filter's value) and its label (``LABEL``, a Text in its own catalog; the
    name itself if it has none), in the order of the labels as the reader reads them."""
    packages = tuple(module.__name__ for module in rules.RULESETS.values())
    own = [(name, getattr(cls, "LABEL", name)) for name, cls in EVENT_TYPES.items()
           if cls.__module__.startswith("tracker.") or cls.__module__.startswith(packages)]
    return sorted(own, key=lambda pair: (str(pair[1]).casefold(), pair[0]))


def log_entry(db, position: int) -> dict | None:
    """An event's line in the log: its summary and the retraction that took it back, if any."""
    row = next(db.query("SELECT summary, retracted_by FROM log_entries WHERE position = ?", [position]), None)
    return row and revived([row], "summary")[0]


def stream_of(db, position: int) -> str | None:
    """The stream the event at ``position`` belongs to (None if there is no such event)."""
    row = db.execute("SELECT stream FROM events WHERE position = ?", [position]).fetchone()
    return row[0] if row else None


def event_position(db, stream: str, version: int) -> int | None:
    """Where a stream's event stands in the whole log (None if there is no such event)."""
    row = db.execute("SELECT position FROM events WHERE stream = ? AND version = ?", [stream, version]).fetchone()
    return row[0] if row else None


# --- GMs, API tokens, players' links and which campaign an id belongs to ----------------------

# Which read model says which campaign an id (named as in a URL) belongs to.
CAMPAIGN_OF = {
    "campaign_id": "SELECT id FROM campaigns WHERE id = ?",
    "character_id": "SELECT campaign_id FROM characters WHERE id = ?",
    "session_id": "SELECT campaign_id FROM sessions WHERE id = ?",
    "duel_id": "SELECT campaign_id FROM duels WHERE id = ?",
    "position": "SELECT campaign_id FROM log_entries WHERE position = ?",
    "stream": "SELECT campaign_id FROM stream_states WHERE stream = ?",
}


def campaign_of(db, name: str, value) -> str | None:
    """The campaign the id ``value`` (of the kind ``name``, a key of CAMPAIGN_OF) belongs to."""
    row = db.execute(CAMPAIGN_OF[name], [value]).fetchone()
    return row[0] if row else None


def duel_ruleset(db, duel_id: str) -> tuple[str, str] | None:
    """A duel's campaign and ruleset, or None when there is no such duel (a light read, no state)."""
    row = db.execute("SELECT campaign_id, ruleset FROM duels WHERE id = ?", [duel_id]).fetchone()
    return (row[0], row[1]) if row else None


def campaign_owner(db, campaign_id: str) -> str | None:
    """The GM who owns the campaign ('' for the whole instance's), None when there is no campaign."""
    row = db.execute("SELECT owner FROM campaigns WHERE id = ?", [campaign_id]).fetchone()
    return row[0] if row else None


def shared_with(db, gm_id: str, campaign_id: str) -> bool:
    """True when the campaign's owner made this GM a co-GM."""
    return db.execute("SELECT 1 FROM campaign_access WHERE gm_id = ? AND campaign_id = ?",
                      [gm_id, campaign_id]).fetchone() is not None


def has_gm(db) -> bool:
    return db.execute("SELECT 1 FROM gms LIMIT 1").fetchone() is not None


def gm(db, gm_id: str) -> dict | None:
    return next(db.query("SELECT id, username FROM gms WHERE id = ?", [gm_id]), None)


def gm_named(db, username: str) -> dict | None:
    return next(db.query("SELECT id, username FROM gms WHERE username = ?", [username]), None)


def gm_login(db, username: str) -> dict | None:
    """What a login checks: the GM's id and password hash."""
    return next(db.query("SELECT id, password_hash FROM gms WHERE username = ?", [username]), None)


def gm_language(db, gm_id: str) -> str | None:
    """The language the GM chose to read Touché in (None before any choice)."""
    state = stream_state(db, f"gm-{gm_id}")  # read whole: JSON paths are not portable SQL
    return state.get("language") if state else None


def gm_version(db, gm_id: str) -> int:
    return db.execute("SELECT version FROM gms WHERE id = ?", [gm_id]).fetchone()[0]


def gm_of_token(db, token_hash: str) -> dict | None:
    """The GM an API token in force (given by its digest) acts for, with the token's scope
    (``read_only``, ``campaign_id``: 0 and "" for a token that may do all its GM may)."""
    return next(db.query("SELECT g.id, g.username, COALESCE(s.read_only, 0) AS read_only,"
                         " COALESCE(s.campaign_id, '') AS campaign_id FROM api_tokens t JOIN gms g ON g.id = t.gm_id"
                         " LEFT JOIN api_token_scopes s ON s.token_id = t.token_id"
                         " WHERE t.token_hash = ? AND t.revoked = 0", [token_hash]), None)


def token_scopes(db, gm_id: str) -> dict[str, dict]:
    """The scoped tokens of the GM, by token id: ``read_only`` and ``campaign_id`` (with its name)."""
    return {row["token_id"]: row for row in db.query(
        "SELECT s.token_id, s.read_only, s.campaign_id, COALESCE(c.name, '') AS campaign FROM api_token_scopes s"
        " JOIN api_tokens t ON t.token_id = s.token_id LEFT JOIN campaigns c ON c.id = s.campaign_id"
        " WHERE t.gm_id = ?", [gm_id])}


def token_in_force(db, token_hash: str) -> dict | None:
    """An API token in force (given by its digest): its id and label."""
    return next(db.query("SELECT token_id AS id, label FROM api_tokens WHERE token_hash = ? AND revoked = 0",
                         [token_hash]), None)


def api_tokens(db, gm_id: str) -> list[tuple]:
    """The GM's API tokens as (token_id, label, revoked), oldest first."""
    return db.execute("SELECT token_id, label, revoked FROM api_tokens WHERE gm_id = ? ORDER BY rowid",
                      [gm_id]).fetchall()


def holds_token(db, gm_id: str, token_id: str) -> bool:
    return db.execute("SELECT 1 FROM api_tokens WHERE token_id = ? AND gm_id = ?",
                      [token_id, gm_id]).fetchone() is not None


def live_player_link(db, link_id: str) -> dict | None:
    """A player link in force: its campaign, kind and target (None once revoked)."""
    return next(db.query("SELECT link_id, campaign_id, kind, target FROM player_links"
                         " WHERE link_id = ? AND revoked = 0", [link_id]), None)


def campaign_of_link(db, link_id: str) -> str | None:
    """The campaign a player link (in force or revoked) was issued in."""
    row = db.execute("SELECT campaign_id FROM player_links WHERE link_id = ?", [link_id]).fetchone()
    return row[0] if row else None


def display_link_ids(db, duel_id: str) -> list[str]:
    """The duel's table-display links in force, in the order they were issued."""
    return [row[0] for row in db.execute("SELECT link_id FROM player_links WHERE kind = 'display'"
                                         " AND target = ? AND revoked = 0 ORDER BY rowid", [duel_id])]


def recap_link_ids(db, session_id: str) -> list[str]:
    """The session's player-recap links in force."""
    return [row[0] for row in db.execute("SELECT link_id FROM player_links WHERE kind = 'recap'"
                                         " AND target = ? AND revoked = 0 ORDER BY link_id", [session_id])]


def campaign_position(db, campaign_id: str) -> int:
    """The log position of the campaign's latest event (0 before any): what "changed since" counts."""
    row = db.execute("SELECT MAX(position) FROM log_entries WHERE campaign_id = ?", [campaign_id]).fetchone()
    return row[0] or 0


def log_head(db) -> int:
    """The position of the log's latest event (0 before any): what the live follow watches."""
    return db.execute("SELECT MAX(position) FROM events").fetchone()[0] or 0


def moved_after(db, position: int) -> set[str]:
    """What the events after ``position`` moved: each stream written (``duel-…``, …) and each
    campaign whose log grew (``campaign:<id>``), the keys live followers wait on."""
    streams = {row[0] for row in db.execute("SELECT DISTINCT stream FROM events WHERE position > ?", [position])}
    campaigns = {f"campaign:{row[0]}" for row in
                 db.execute("SELECT DISTINCT campaign_id FROM log_entries WHERE position > ?", [position])}
    # ``duelist:<character>`` for each character whose duel moved (or began): what a seat waits on
    # for its duels, the one starting too, and never for another table's.
    duel_ids = [stream[5:] for stream in streams if stream.startswith("duel-")]
    duelists: set[str] = set()
    for start in range(0, len(duel_ids), 500):
        chunk = duel_ids[start:start + 500]
        duelists |= {f"duelist:{row[0]}" for row in db.execute(
            f"SELECT DISTINCT character_id FROM duelists WHERE duel_id IN ({', '.join('?' * len(chunk))})", chunk)}
    return streams | campaigns | duelists


def seat_keys(seat: dict) -> tuple[str, ...]:
    """What a seat's live follow waits on (the keys ``moved_after`` names): its campaign (links),
    its session, its character and the duels its character fights."""
    return (f"campaign-{seat['campaign_id']}", f"session-{seat['session_id']}",
            f"character-{seat['character_id']}", f"duelist:{seat['character_id']}")


def log_since(db, campaign_id: str, position: int, limit: int = 100) -> list[dict]:
    """The campaign's log entries after ``position``, oldest first (at most ``limit``)."""
    return revived(list(db.query("SELECT position, stream, version, type, category, summary, recorded_at,"
                                 " retracted_by FROM log_entries WHERE campaign_id = ? AND position > ?"
                                 " ORDER BY position LIMIT ?", [campaign_id, position, limit])), "summary")


def last_chosen(db, kind: str, character_ids: list[str]) -> dict[str, str]:
    """Each character's latest fact of ``kind`` (their usual choice: the last one used), by the
    duel's start and the round, for a form to offer it first."""
    if not character_ids:
        return {}
    marks = ", ".join("?" * len(character_ids))
    rows = db.execute(f"SELECT f.character_id, f.subject FROM history_facts f JOIN history_duels d"
                      f" ON d.duel_id = f.duel_id WHERE f.kind = ? AND f.character_id IN ({marks})"
                      " ORDER BY d.started, f.round, f.seq", [kind, *character_ids]).fetchall()
    return dict(rows)  # the last row of each character wins


# --- players' seats ----------------------------------------------------------------------------

def live_seat(db, link_id: str) -> dict | None:
    """A seat in force: its campaign, session and character (None once revoked or never issued)."""
    return next(db.query("SELECT link_id, campaign_id, session_id, character_id FROM seats"
                         " WHERE link_id = ? AND revoked = 0", [link_id]), None)


def seats_of_session(db, session_id: str) -> list[dict]:
    """The session's seats in force, each with its character's name, in the order they were issued."""
    return list(db.query("SELECT s.link_id, s.character_id, c.name FROM seats s JOIN characters c"
                         " ON c.id = s.character_id WHERE s.session_id = ? AND s.revoked = 0 ORDER BY s.rowid",
                         [session_id]))


def session_closed(db, session_id: str) -> bool:
    """True once the GM closed the session (its seats stop working)."""
    state = stream_state(db, f"session-{session_id}")  # a session's state is small: read it whole
    return bool(state and state.get("closed"))


def running_duels_of(db, session_id: str, character_id: str) -> list[dict]:
    """The session's running duels the character fights in, oldest first, with their states."""
    rows = list(db.query("SELECT d.*, s.state, p.side FROM duels d JOIN duelists p ON p.duel_id = d.id"
                         " JOIN stream_states s ON s.stream = 'duel-' || d.id"
                         " WHERE d.session_id = ? AND p.character_id = ? AND d.status = 'running'"
                         " ORDER BY d.rowid", [session_id, character_id]))
    for row in rows:
        row["state"] = windows.load_window(row["state"])[0]  # a seat draws the latest lines at most
    return revived(rows, *DUEL_WORDS)


def ended_duel_of(db, session_id: str, character_id: str) -> dict | None:
    """The character's latest duel of the session, with its state, if it has ended (None while
    one runs or none was fought): what their seat shows until their next duel starts."""
    rows = list(db.query("SELECT d.*, s.state, p.side FROM duels d JOIN duelists p ON p.duel_id = d.id"
                         " JOIN stream_states s ON s.stream = 'duel-' || d.id"
                         " WHERE d.session_id = ? AND p.character_id = ? ORDER BY d.rowid DESC LIMIT 1",
                         [session_id, character_id]))
    if not rows or rows[0]["status"] == "running":
        return None
    rows[0]["state"] = windows.load_window(rows[0]["state"])[0]
    return revived(rows, *DUEL_WORDS)[0]


def seat_version(db, seat: dict) -> str:
    """What a seat's page stands on, as one short token: it changes whenever the campaign (its
    links), the session, the character or a duel of the session that the character fights moves
    (another duel of the session, another table's, leaves it alone)."""
    return seat_mark(db, seat)[0]


def seat_mark(db, seat: dict) -> tuple[str, int]:
    """The seat's version token and its stamp, read at once: the stamp (the sum of the versions
    of the streams the seat stands on) only grows, so a phone can tell an answer older than what
    it shows (a poll that left before its own tap) and keep the newer one."""
    rows = db.execute("SELECT stream, version FROM stream_states WHERE stream IN (?, ?, ?)"
                      " OR stream IN (SELECT 'duel-' || d.id FROM duels d JOIN duelists p ON p.duel_id = d.id"
                      " WHERE d.session_id = ? AND p.character_id = ?) ORDER BY stream",
                      [f"campaign-{seat['campaign_id']}", f"session-{seat['session_id']}",
                       f"character-{seat['character_id']}", seat["session_id"], seat["character_id"]]).fetchall()
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16], sum(int(row[1]) for row in rows)
