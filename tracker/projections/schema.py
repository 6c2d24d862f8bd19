"""The read models: tables projected from the log, dropped and rebuilt at will."""
from tracker.projections import history

READ_MODELS = """
CREATE TABLE IF NOT EXISTS stream_states (
    stream TEXT PRIMARY KEY, category TEXT NOT NULL, campaign_id TEXT NOT NULL,
    version INTEGER NOT NULL, state TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS campaigns (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, ruleset TEXT NOT NULL, notes TEXT NOT NULL,
    owner TEXT NOT NULL, rules TEXT NOT NULL DEFAULT '{}', version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS campaign_access (
    campaign_id TEXT NOT NULL, gm_id TEXT NOT NULL, role TEXT NOT NULL,
    PRIMARY KEY (gm_id, campaign_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS player_links (
    link_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL,
    revoked INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    link_id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, session_id TEXT NOT NULL, character_id TEXT NOT NULL,
    revoked INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS seats_session ON seats(session_id);
CREATE TABLE IF NOT EXISTS gms (
    id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS session_generations (gm_id TEXT PRIMARY KEY, generation INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ended_sessions (
    gm_id TEXT NOT NULL, session_id TEXT NOT NULL, expires_at TEXT NOT NULL,
    PRIMARY KEY (gm_id, session_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS api_tokens (
    token_id TEXT PRIMARY KEY, gm_id TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE, label TEXT NOT NULL,
    revoked INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS api_token_scopes (
    token_id TEXT PRIMARY KEY, read_only INTEGER NOT NULL, campaign_id TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS characters (
    id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, name TEXT NOT NULL, rank TEXT NOT NULL,
    player TEXT NOT NULL, notes TEXT NOT NULL, stats TEXT NOT NULL, version INTEGER NOT NULL);
DROP INDEX IF EXISTS characters_campaign;
CREATE INDEX IF NOT EXISTS characters_of_campaign ON characters(campaign_id);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, number INTEGER NOT NULL, date TEXT NOT NULL,
    title TEXT NOT NULL, notes TEXT NOT NULL, version INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS sessions_campaign ON sessions(campaign_id, number);
CREATE TABLE IF NOT EXISTS duels (
    id TEXT PRIMARY KEY, campaign_id TEXT NOT NULL, session_id TEXT NOT NULL,
    ruleset TEXT NOT NULL, kind TEXT NOT NULL, title TEXT NOT NULL, status TEXT NOT NULL,
    winner TEXT, ending TEXT, summary TEXT NOT NULL, progress TEXT NOT NULL,
    version INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS duels_campaign ON duels(campaign_id, session_id);
CREATE INDEX IF NOT EXISTS duels_session ON duels(session_id);
CREATE TABLE IF NOT EXISTS duelists (
    duel_id TEXT NOT NULL, character_id TEXT NOT NULL, campaign_id TEXT NOT NULL,
    side TEXT NOT NULL, name TEXT NOT NULL, ruleset TEXT NOT NULL, result TEXT,
    PRIMARY KEY (duel_id, character_id));
CREATE INDEX IF NOT EXISTS duelists_character ON duelists(character_id);
CREATE TABLE IF NOT EXISTS records (
    character_id TEXT NOT NULL, ruleset TEXT NOT NULL, result TEXT NOT NULL, count INTEGER NOT NULL,
    PRIMARY KEY (character_id, ruleset, result)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS track_totals (
    character_id TEXT NOT NULL, track TEXT NOT NULL, lost INTEGER NOT NULL,
    PRIMARY KEY (character_id, track)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS wounds (
    duel_id TEXT NOT NULL, character_id TEXT NOT NULL, campaign_id TEXT NOT NULL,
    track TEXT NOT NULL, amount INTEGER NOT NULL, at INTEGER NOT NULL, note TEXT NOT NULL,
    persists INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (duel_id, seq));
CREATE INDEX IF NOT EXISTS wounds_character ON wounds(character_id);
CREATE TABLE IF NOT EXISTS track_changes (
    character_id TEXT NOT NULL, campaign_id TEXT NOT NULL, ruleset TEXT NOT NULL, track TEXT NOT NULL,
    amount INTEGER NOT NULL, at INTEGER NOT NULL, kind TEXT NOT NULL, note TEXT NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (character_id, seq));
CREATE TABLE IF NOT EXISTS log_entries (
    position INTEGER PRIMARY KEY, campaign_id TEXT NOT NULL, stream TEXT NOT NULL,
    version INTEGER NOT NULL, type TEXT NOT NULL, category TEXT NOT NULL,
    summary TEXT NOT NULL, recorded_at TEXT NOT NULL, actor TEXT NOT NULL,
    retracted_by INTEGER);
CREATE INDEX IF NOT EXISTS log_campaign ON log_entries(campaign_id, position);
CREATE INDEX IF NOT EXISTS log_campaign_category ON log_entries(campaign_id, category, position);
CREATE INDEX IF NOT EXISTS log_campaign_type ON log_entries(campaign_id, type, position);
DROP INDEX IF EXISTS log_stream;
CREATE TABLE IF NOT EXISTS log_subjects (
    subject TEXT NOT NULL, position INTEGER NOT NULL, PRIMARY KEY (subject, position)) WITHOUT ROWID;
"""

# A stream's log lines, through the events' (stream, version) index: a line sits at its event's
# position, so an index of the lines' own (``log_stream``, dropped above) cost every command a page.
LINES_OF_STREAM = "events e JOIN log_entries l ON l.position = e.position WHERE e.stream = ?"

TABLES = ("stream_states", "campaigns", "campaign_access", "player_links", "seats", "gms", "session_generations", "ended_sessions", "api_tokens", "api_token_scopes", "characters", "sessions", "duels",
          "duelists", "records", "wounds", "track_totals", "track_changes", "log_entries", "log_subjects") + history.TABLES


# Indexes only reads use, never a fold: a rebuild drops them and builds each once, at the end.
LATE_INDEXES = ("characters_of_campaign", "sessions_campaign", "duels_campaign", "duels_session", "duelists_character",
                "wounds_character", "log_campaign", "log_campaign_category", "log_campaign_type") + history.LATE_INDEXES


def drop_late_indexes(db) -> None:
    for index in LATE_INDEXES:
        db.execute(f"DROP INDEX IF EXISTS {index}")


def create(db) -> None:
    # Statement by statement (not executescript, which commits): rebuild runs this in its transaction.
    for statement in READ_MODELS.split(";"):
        if statement.strip():
            db.execute(statement)
    history.create(db)


# Read models an older Touché kept, dropped by a rebuild: ``checkpoints`` said where each projection
# stood, always the log's last position, since they are written in the append's transaction.
FORMER_TABLES = ("checkpoints",)


def drop(db) -> None:
    for table in TABLES + FORMER_TABLES:
        db.execute(f"DROP TABLE IF EXISTS {table}")
