"""The dialect seam's translation of SQLite's SQL for PostgreSQL (pure: no database needed; the
suites marked both_backends run the translated SQL on a real PostgreSQL)."""
from tracker.eventstore.dialect import _translate_plain

KEYS = {"duels": (("id",), True), "records": (("character_id", "ruleset", "result"), False),
        "only_key": (("a", "b"), False)}


def test_placeholders_become_psycopg_ones_and_a_percent_sign_stays_one():
    assert _translate_plain("SELECT * FROM t WHERE a = ? AND b LIKE 'x%'", KEYS) == \
        "SELECT * FROM t WHERE a = %s AND b LIKE 'x%%'"


def test_insert_or_ignore_does_nothing_on_a_conflict():
    assert _translate_plain("INSERT OR IGNORE INTO log_subjects (subject, position) VALUES (?, ?)", KEYS) == \
        "INSERT INTO log_subjects (subject, position) VALUES (%s, %s) ON CONFLICT DO NOTHING"


def test_insert_or_replace_upserts_on_the_key_and_moves_the_row_last():
    assert _translate_plain("INSERT OR REPLACE INTO duels (id, title) VALUES (?, ?)", KEYS) == (
        "INSERT INTO duels (id, title) VALUES (%s, %s) ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title,"
        " rowid = DEFAULT")
    assert _translate_plain("INSERT OR REPLACE INTO only_key (a, b) VALUES (?, ?)", KEYS).endswith(
        "ON CONFLICT (a, b) DO NOTHING")


def test_an_upsert_without_a_target_is_given_the_primary_key():
    sql = ("INSERT INTO records (character_id, ruleset, result, count) VALUES (?, ?, ?, ?)"
           " ON CONFLICT DO UPDATE SET count = records.count + excluded.count")
    assert "ON CONFLICT (character_id, ruleset, result) DO UPDATE" in _translate_plain(sql, KEYS)


def test_a_table_gets_bigints_and_the_rowid_sqlite_would_give_it():
    assert _translate_plain("CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, n INTEGER NOT NULL)", KEYS) == \
        "CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, n BIGINT NOT NULL, rowid BIGSERIAL)"
    assert _translate_plain("CREATE TABLE IF NOT EXISTS t (a TEXT, PRIMARY KEY (a)) WITHOUT ROWID", KEYS) == \
        "CREATE TABLE IF NOT EXISTS t (a TEXT, PRIMARY KEY (a))"
    assert "rowid" not in _translate_plain("CREATE TABLE IF NOT EXISTS t (position INTEGER PRIMARY KEY)", KEYS)
