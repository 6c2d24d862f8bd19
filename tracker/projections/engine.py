"""Projections as one fold of the log, used live and for rebuild.

Each stream's state is a fold of its events (workspace streams through
``tracker.domain.workspace.evolve``, duel streams through their ruleset's ``evolve``); the read
tables are written from those states, and each event adds a plain-language line to the
log. Live, a ``Projector`` runs inside the append's transaction over the new events;
``tracker.projections.rebuild`` runs the very same code over the whole log, streamed, keeping
states in memory and writing each stream once. A retraction re-folds its stream from the log
without the retracted events, so every table behaves as if they never happened.
"""
from __future__ import annotations

from typing import Any, Iterable

from tracker import rules
from tracker.domain.events import from_data
from tracker.projections import history, replay
from tracker.projections.replay import category, fold
from tracker.projections.schema import LINES_OF_STREAM
from tracker.projections.words import read, retracted_line, stored
from tracker.rules.base import ImpossibleHistory
from tracker.rules.text import join, t, tn
from tracker.eventstore.store import EventStore, Recorded, dumps, load_state
from tracker.domain.workspace import EventRetracted, RetractionRestored

STATE = "SELECT version, state FROM stream_states WHERE stream = ?"
EVENT_AT = "SELECT position FROM events WHERE stream = ? AND version = ?"  # where its log line sits too
LOG_BATCH = 5000
CACHED_STREAMS = 300  # a rebuild writes states out past this, so memory stays flat

__all__ = ["category", "fold", "describe", "refold", "Projector", "write_stream"]


def describe(stream_category: str, state: dict | None, ev: Any) -> Any:
    """The event's line in the log: a Text, rendered in each reader's language when read."""
    return replay.domain(stream_category, state, ev).describe(state, ev)


def refold(store: EventStore, stream: str, up_to_version: int) -> dict | None:
    """A stream's state from the log alone, leaving out every retracted event."""
    return replay.replay(category(stream), store.read_stream(stream, up_to_version)).state


class Projector:
    """Applies recorded events to the read models; call ``flush`` before the transaction ends."""

    def __init__(self, db, store: EventStore, rebuilding: bool = False,
                 known: dict[str, tuple[int, dict | None]] | None = None):
        self.db, self.store, self.rebuilding = db, store, rebuilding
        self.states: dict[str, tuple[int, dict | None]] = dict(known or {})  # states the caller just read
        # Live, what each stream's read rows show now (the state read before its new events), so
        # that a read model its events left as it was is not written again (rebuilding: unused).
        self.shown: dict[str, dict | None] = {} if rebuilding else {
            stream: state for stream, (_, state) in self.states.items()}
        self.dirty: set[str] = set()
        self.log_rows: list[tuple] = []
        self.subject_rows: list[tuple] = []
        self.left_out: set[tuple[str, int]] = set()  # commands left out after an old retraction
        # A rebuild writes into empty tables: a stream written for the first time has no old rows
        # to take back, and a duel whose every event went by here needs no read of the log for
        # its history rows (its typed events are kept until it is written out).
        self.written: set[str] = set()
        self.duel_events: dict[str, tuple[tuple[int, str], list[tuple[int, str, Any]]]] = {}

    def state(self, stream: str) -> tuple[int, dict | None]:
        if stream not in self.states:
            # A rebuild starts from empty tables: a stream it has not written yet has no state row.
            unwritten = self.rebuilding and stream not in self.written
            row = None if unwritten else self.db.conn.execute(STATE, (stream,)).fetchone()
            self.states[stream] = (row[0], load_state(row[1])) if row else (0, None)
            if not self.rebuilding:
                self.shown[stream] = self.states[stream][1]
        return self.states[stream]

    def apply_all(self, recorded: Iterable[Recorded]) -> None:
        for rec in recorded:
            self.apply(rec)

    def apply(self, rec: Recorded) -> None:
        """Fold one recorded event into its stream's state and add its log line. The one path
        of every event, live and in a rebuild (``Rebuilder`` only writes streams out as they end)."""
        stream = rec.stream
        kind = stream.split("-", 1)[0]
        known = self.states.get(stream)
        before = known[1] if known is not None else self.state(stream)[1]
        left_out = None  # the retraction this event is left out by (after an old retraction)
        if rec.type in replay.CORRECTIONS:  # an event about other events: never folded itself
            ev = rec.event
            self.reading_lines()  # the retracted line may still be in the buffer
            past = replay.replay(kind, self.store.read_stream(stream, rec.version))
            after = past.state
            if isinstance(ev, EventRetracted):
                self.duel_events.pop(stream, None)  # the history reads the log again, as refold does
                summary = self._retraction_summary(rec, ev, past.taken[rec.version])
                self._mark(stream, rec.position, past.taken[rec.version])
            else:
                summary = self._restore(rec, ev)
            category_ = "correction"
        else:
            ev = from_data(rec.type, rec.data, rec.schema)
            category_ = kind
            try:
                if self.left_out and (stream, replay.decision(rec)) in self.left_out:
                    raise ImpossibleHistory("its command was left out")
                after = fold(kind, before, ev, rec.version)
                # A duel's fold already told the line (``_told``): not described twice.
                summary = (kind == "duel" and _told(after, rec.version)) or describe(kind, before, ev)
            except ImpossibleHistory:
                after, summary, left_out = self._leave_out(rec, kind, before, ev)
        self.states[stream] = (rec.version, after)
        self.dirty.add(stream)
        meta = rec.metadata
        if self.rebuilding and kind == "duel":
            self._keep(rec, ev)
        self.log_rows.append((rec.position, meta.get("campaign_id", ""), stream, rec.version, rec.type, category_,
                              stored(summary), meta.get("recorded_at", ""), meta.get("actor", ""), left_out))
        self.subject_rows += [(subject, rec.position) for subject in _subjects(stream, after, kind)]
        if len(self.log_rows) >= LOG_BATCH:
            self.flush_log()
        if self.rebuilding and len(self.states) > CACHED_STREAMS:
            self.flush()
            self.states.clear()
            self.duel_events.clear()

    def _leave_out(self, rec: Recorded, kind: str, before: dict | None, ev: Any) -> tuple[Any, Any, int | None]:
        """An event that no longer fits its stream, after an old retraction (replay raises
        otherwise): its whole command goes. The stream's state, the line, and the position of
        the retraction it is left out by."""
        self.reading_lines()  # the command's earlier lines go with it
        self.duel_events.pop(rec.stream, None)
        summary = _left_out_summary(kind, before, ev)
        recorded = self.store.read_stream(rec.stream, rec.version)
        past = replay.replay(kind, recorded)
        self.left_out.add((rec.stream, replay.decision(rec)))
        positions = {r.version: r.position for r in recorded}
        for version, by in past.void.items():
            self._mark(rec.stream, positions[by], [version])
        return past.state, summary, positions.get(past.void.get(rec.version))

    def reading_lines(self) -> None:
        """Before a fold reads or marks the log lines (a correction, a command left out): the
        buffered lines are written first."""
        self.flush_log()

    def _keep(self, rec: Recorded, ev: Any) -> None:
        """Keep a duel's typed events for its history rows, when this projector saw it start."""
        if rec.version == 1:
            self.duel_events[rec.stream] = ((rec.position, rec.metadata.get("recorded_at", "")), [])
        kept = self.duel_events.get(rec.stream)
        if kept is not None:
            kept[1].append((rec.version, rec.type, ev))

    def _mark(self, stream: str, position: int, versions: Iterable[int]) -> None:
        """Mark the log lines of the events a retraction took back."""
        self.db.conn.executemany(
            f"UPDATE log_entries SET retracted_by = ? WHERE position = ({EVENT_AT}) AND retracted_by IS NULL",
            [(position, stream, version) for version in versions])

    def _restore(self, rec: Recorded, ev: RetractionRestored) -> Any:
        """Put back the log lines the restored retraction had marked, mark the retraction itself
        as taken back by the restore, and say what stands again."""
        row = self.db.execute(f"SELECT l.position, l.summary FROM {LINES_OF_STREAM} AND e.version = ?",
                              [rec.stream, ev.version]).fetchone()
        retraction, said = (row[0], read(row[1])) if row else (None, t("a retraction"))
        self.db.execute("UPDATE log_entries SET retracted_by = NULL"
                        " WHERE position IN (SELECT position FROM events WHERE stream = ?) AND retracted_by = ?",
                        [rec.stream, retraction])
        self.db.execute(f"UPDATE log_entries SET retracted_by = ? WHERE position = ({EVENT_AT})",
                        [rec.position, rec.stream, ev.version])
        return _with_reason(t("Restored: {what}", what=retracted_line(said)), ev.reason)

    def _retraction_summary(self, rec: Recorded, ev: EventRetracted, versions: tuple[int, ...]) -> Any:
        row = self.db.execute(f"SELECT l.summary FROM {LINES_OF_STREAM} AND e.version = ?",
                              [rec.stream, ev.version]).fetchone()
        what = read(row[0]) if row else ev.retracted_type
        later = sum(1 for v in versions if v > ev.version)
        if later and ev.scope != "event":
            line = tn("Retracted: {what} (and the event after it)", "Retracted: {what} (and the {count} events after it)",
                      later, what=what)
        else:
            line = t("Retracted: {what}", what=what)
        return _with_reason(line, ev.reason)

    def flush_log(self) -> None:
        if self.log_rows:
            self.db.conn.executemany(
                "INSERT INTO log_entries (position, campaign_id, stream, version, type, category,"
                " summary, recorded_at, actor, retracted_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                self.log_rows)
            self.db.conn.executemany(
                "INSERT OR IGNORE INTO log_subjects (subject, position) VALUES (?, ?)", self.subject_rows)
            self.log_rows, self.subject_rows = [], []

    def flush(self) -> None:
        """Write every changed stream's tables and the buffered log lines. (No checkpoint: the read
        models are written in the append's transaction, so they stand where the log's last
        position does, and a row saying so cost every command a page.)"""
        self.flush_log()
        for stream in sorted(self.dirty):
            version, state = self.states[stream]
            fresh = self.rebuilding and stream not in self.written
            write_stream(self.db, stream, version, state, fresh, self.duel_events.get(stream),
                         shown=self.shown.get(stream, UNKNOWN))
            self.written.add(stream)
            if not self.rebuilding:
                self.shown[stream] = state
        self.dirty.clear()


def _with_reason(line: Any, reason: str) -> Any:
    """A correction's line followed by the GM's reason, when they gave one."""
    return join([line, reason], " — ") if reason else line


def _left_out_summary(kind: str, state: dict | None, ev: Any) -> Any:
    """The line of an event left out after an old retraction: in plain language when the state
    it no longer fits can still tell it, else its type."""
    try:
        text = describe(kind, state, ev)
    except (KeyError, IndexError, TypeError, ValueError):
        text = type(ev).__name__
    return t("{line} (left out: it no longer fits the duel an old retraction rewound)", line=text)


def _told(state: dict | None, version: int) -> Any:
    """The line a duel's fold already told for this event (``rules.duel.evolver`` adds each event's
    ``describe`` to the state's history), so a rebuild does not describe every event twice."""
    lines = state.get("history") if isinstance(state, dict) else None
    last = lines[-1] if lines else None
    return last.get("text") if isinstance(last, dict) and last.get("at") == version else None


def _subjects(stream: str, state: dict | None, kind: str) -> list[str]:
    """What a log line is about: its stream, and for a duel (``kind``, the stream's category)
    each duelist."""
    subjects = [stream]
    if kind == "duel" and state:
        subjects += ["character-" + d["id"] for d in state["duelists"]]
    return subjects


UNKNOWN: Any = object()  # what a stream's read rows show, when the caller does not know it

# The stream's state row updated where it stands (an upsert): INSERT OR REPLACE would delete the
# row and insert it again at the table's end, writing its primary key's index page besides.
WRITE_STATE = ("INSERT INTO stream_states (stream, category, campaign_id, version, state) VALUES (?, ?, ?, ?, ?)"
               " ON CONFLICT DO UPDATE SET category = excluded.category, campaign_id = excluded.campaign_id,"
               " version = excluded.version, state = excluded.state")


def write_stream(db, stream: str, version: int, state: dict | None, fresh: bool = False,
                 events: tuple | None = None, shown: Any = UNKNOWN) -> None:
    """Replace the read rows of one stream with what its state says. ``fresh`` says the stream
    has no rows yet (a rebuild's first write of it); ``events``, for a duel, its typed events
    and where it started, when the caller holds them all; ``shown``, when the caller knows it,
    the state the stream's read rows show now (None: no rows), so rows it shares are not
    written again."""
    kind = category(stream)
    key = stream.split("-", 1)[1]
    if state is None:
        return
    campaign_id = state.get("campaign_id", key if kind == "campaign" else "")
    db.conn.execute(WRITE_STATE, (stream, kind, campaign_id, version, dumps(state)))
    if kind == "duel":
        _write_duel(db, key, version, state, fresh, events)
    elif kind == "character":
        _write_character(db, key, version, state, shown)
    else:
        WRITERS[kind](db, key, version, state)


def _write_campaign(db, key: str, version: int, s: dict) -> None:
    db.execute("INSERT OR REPLACE INTO campaigns (id, name, ruleset, notes, owner, rules, version)"
               " VALUES (?, ?, ?, ?, ?, ?, ?)",
               [key, s["name"], s["ruleset"], s["notes"], s["owner"], dumps(s.get("rules", {})), version])
    db.execute("DELETE FROM campaign_access WHERE campaign_id = ?", [key])
    access = [(key, s["owner"], "owner")] if s["owner"] else []
    access += [(key, gm, "co-gm") for gm in sorted(s["co_gms"])]
    db.conn.executemany("INSERT INTO campaign_access (campaign_id, gm_id, role) VALUES (?, ?, ?)", access)
    db.conn.executemany("INSERT OR REPLACE INTO player_links (link_id, campaign_id, kind, target, revoked)"
                        " VALUES (?, ?, ?, ?, ?)",
                        [(link, key, v["kind"], v["target"], int(v["revoked"])) for link, v in s["links"].items()])
    db.conn.executemany("INSERT OR REPLACE INTO seats (link_id, campaign_id, session_id, character_id, revoked)"
                        " VALUES (?, ?, ?, ?, ?)",
                        [(link, key, v["target"], v.get("character", ""), int(v["revoked"]))
                         for link, v in s["links"].items() if v["kind"] == "seat"])


def _write_gm(db, key: str, version: int, s: dict) -> None:
    db.execute("INSERT OR REPLACE INTO gms (id, username, password_hash, version) VALUES (?, ?, ?, ?)",
               [key, s["username"], s["password_hash"], version])
    db.conn.executemany("INSERT OR REPLACE INTO api_tokens (token_id, gm_id, token_hash, label, revoked)"
                        " VALUES (?, ?, ?, ?, ?)",
                        [(t, key, v["hash"], v["label"], int(v["revoked"])) for t, v in s["tokens"].items()])
    # A scope in a table of its own: a database made before scopes gains it empty, as its tokens are unscoped.
    db.conn.executemany("INSERT OR REPLACE INTO api_token_scopes (token_id, read_only, campaign_id) VALUES (?, ?, ?)",
                        [(t, int(v.get("read_only", False)), v.get("campaign_id", "")) for t, v in s["tokens"].items()
                         if v.get("read_only") or v.get("campaign_id")])
    db.execute("INSERT OR REPLACE INTO session_generations (gm_id, generation) VALUES (?, ?)",
               [key, s.get("sessions_generation", 0)])
    db.execute("DELETE FROM ended_sessions WHERE gm_id = ?", [key])
    db.conn.executemany("INSERT INTO ended_sessions (session_id, gm_id, expires_at) VALUES (?, ?, ?)",
                        [(sid, key, end) for sid, end in sorted(s.get("ended_sessions", {}).items())])


_CHARACTER_COLUMNS = ("INSERT INTO characters (id, campaign_id, name, rank, player, notes, stats, version)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET name = excluded.name,"
                      " rank = excluded.rank, player = excluded.player, notes = excluded.notes,"
                      " stats = excluded.stats, version = excluded.version")
# SQLite rewrites the entry of every index on a column the SET names, even to the same value: a row
# whose campaign stays is updated without naming it, so its campaign index's page is left alone.
WRITE_CHARACTER = _CHARACTER_COLUMNS + ", campaign_id = excluded.campaign_id"
WRITE_CHARACTER_IN_ITS_CAMPAIGN = _CHARACTER_COLUMNS


def _write_character(db, key: str, version: int, s: dict, shown: Any = UNKNOWN) -> None:
    same_campaign = isinstance(shown, dict) and shown.get("campaign_id") == s["campaign_id"]
    db.conn.execute(WRITE_CHARACTER_IN_ITS_CAMPAIGN if same_campaign else WRITE_CHARACTER,
                    (key, s["campaign_id"], s["name"], s["rank"], s["player"], s["notes"], dumps(s["stats"]), version))
    if same_campaign and shown.get("changes", []) == s.get("changes", []):
        return  # an edit of the sheet: its track changes (and so their totals) are as they were
    # Recoveries and adjustments give points back: they count against the track's running total
    # of what was lost, taken out first and put in again, as a duel's wounds are.
    _count_from(db, "track_totals", "character_id, track", "lost", 1,
                "SELECT character_id, track, amount FROM track_changes WHERE character_id = ?", [key])
    db.execute("DELETE FROM track_changes WHERE character_id = ?", [key])
    rows = [(key, s["campaign_id"], c["ruleset"], c["track"], c["amount"], c["at"], c["kind"], stored(c["note"]), seq)
            for seq, c in enumerate(s.get("changes", []))]
    db.conn.executemany("INSERT INTO track_changes (character_id, campaign_id, ruleset, track, amount, at, kind,"
                        " note, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    _count(db, "track_totals", "character_id, track", "lost", -1, [(key, r[3], r[4]) for r in rows])


def _write_session(db, key: str, version: int, s: dict) -> None:
    db.execute("INSERT OR REPLACE INTO sessions (id, campaign_id, number, date, title, notes, version)"
               " VALUES (?, ?, ?, ?, ?, ?, ?)",
               [key, s["campaign_id"], s["number"], s["date"], s["title"], s["notes"], version])


def _write_duel(db, key: str, version: int, s: dict, fresh: bool = False, events: tuple | None = None) -> None:
    module = rules.get(s["ruleset"])
    outcome = s.get("outcome")
    title = " vs ".join(" & ".join(d["name"] for d in s["duelists"] if d["side"] == side)
                        for side in ("a", "b"))
    db.execute("INSERT OR REPLACE INTO duels (id, campaign_id, session_id, ruleset, kind, title, status,"
               " winner, ending, summary, progress, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
               [key, s["campaign_id"], s["session_id"], s["ruleset"], s["kind"], title,
                "over" if outcome else "running", outcome and outcome["winner"],
                outcome and outcome["ending"], stored(outcome["summary"] if outcome else ""),
                stored(module.progress(s)), version])
    results = outcome["results"] if outcome else {}
    if not fresh:
        _count_from(db, "records", "character_id, ruleset, result", "count", -1,
                    "SELECT character_id, ruleset, result, 1 AS amount FROM duelists WHERE duel_id = ?"
                    " AND result IS NOT NULL", [key])
        db.execute("DELETE FROM duelists WHERE duel_id = ?", [key])
    db.conn.executemany(
        "INSERT INTO duelists (duel_id, character_id, campaign_id, side, name, ruleset, result)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(key, d["id"], s["campaign_id"], d["side"], d["name"], s["ruleset"], results.get(d["id"]))
         for d in s["duelists"]])
    _count(db, "records", "character_id, ruleset, result", "count", 1,
           [(d["id"], s["ruleset"], results[d["id"]]) for d in s["duelists"] if d["id"] in results])

    persists = {track["track"]: track["persists"] for track in module.TRACKS}
    if not fresh:
        _count_from(db, "track_totals", "character_id, track", "lost", -1,
                    "SELECT character_id, track, amount FROM wounds WHERE duel_id = ? AND persists = 1", [key])
        db.execute("DELETE FROM wounds WHERE duel_id = ?", [key])
    # The GM's adjustments in the duel count as wounds of the opposite sign (a heal, a negative
    # wound), so a persisting track leaves the duel with them, and a retraction takes them back.
    marks = s["wounds"] + [{**a, "amount": -a["amount"], "note": t("adjusted: {note}", note=a["note"])}
                           for a in s.get("adjustments", ())]
    rows = [(key, w["character"], s["campaign_id"], w["track"], w["amount"], w["at"], stored(w["note"]),
             int(persists.get(w["track"], True)), seq) for seq, w in enumerate(marks)]
    db.conn.executemany(
        "INSERT INTO wounds (duel_id, character_id, campaign_id, track, amount, at, note, persists, seq)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    _count(db, "track_totals", "character_id, track", "lost", 1,
           [(r[1], r[3], r[4]) for r in rows if r[7]])
    history.write_duel(db, key, version, s, fresh, events)


def _count(db, table: str, keys: str, column: str, sign: int, rows: list) -> None:
    """Add (or take away) rows to running totals, so a sheet reads its totals in one lookup
    instead of summing a history that grows with the log. A row's last item is the amount;
    without one it counts 1."""
    width = len(keys.split(","))
    params = [(*row[:width], sign * (row[width] if len(row) > width else 1)) for row in rows]
    if params:
        marks = ", ".join("?" * (width + 1))
        db.conn.executemany(f"INSERT INTO {table} ({keys}, {column}) VALUES ({marks})"
                            f" ON CONFLICT DO UPDATE SET {column} = {table}.{column} + excluded.{column}", params)
        # A total back at zero is no row at all, exactly as a rebuild would leave it.
        db.conn.executemany(f"DELETE FROM {table} WHERE ({keys}) = ({marks[3:]}) AND {column} = 0",
                            [p[:width] for p in params])


def _count_from(db, table: str, keys: str, column: str, sign: int, source: str, params: list) -> None:
    """``_count`` of the rows ``source`` selects (the keys, then the amount), in the database itself:
    nothing is read back, so on PostgreSQL the statements wait for the commit's round trip instead
    of one of their own. Each key's amounts are summed first (PostgreSQL's upsert may not touch a
    row twice in one statement): the same totals as adding them one by one."""
    db.conn.execute(f"INSERT INTO {table} ({keys}, {column}) SELECT {keys}, {sign} * SUM(amount)"
                    f" FROM ({source}) AS counted WHERE true GROUP BY {keys}"
                    f" ON CONFLICT DO UPDATE SET {column} = {table}.{column} + excluded.{column}", params)
    # A total back at zero is no row at all, exactly as a rebuild would leave it.
    db.conn.execute(f"DELETE FROM {table} WHERE ({keys}) IN (SELECT {keys} FROM ({source}) AS counted)"
                    f" AND {column} = 0", params)


WRITERS = {"campaign": _write_campaign, "gm": _write_gm, "character": _write_character,
           "session": _write_session, "duel": _write_duel}
