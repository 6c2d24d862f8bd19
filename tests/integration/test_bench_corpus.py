"""The benchmarks' large logs: copies of a played campaign's duels, fought by stand-ins, that fold
like the original (every ruleset's duels, pf2e's too, whose events name duelists by id) and
leave every other character's page as it was, so a small store and a large one compare alike."""
from bench.common import write_log
from bench.corpus import template
from tracker.bootstrap.db import open_db
from tracker.projections import queries
from tracker.projections.rebuild import rebuild
from tracker.eventstore.store import EventStore


def test_copied_duels_fold_and_leave_other_characters_as_they_were(tmp_path):
    lines = template(duels=10)  # every shipped ruleset, pf2e last
    stores = {}
    for name, events in (("small", len(lines) - 1), ("large", 3 * len(lines))):
        path = str(tmp_path / f"{name}.db")
        write_log(path, lines, events)
        db = open_db(path)
        rebuild(db, EventStore(db))  # a copy naming a duelist its duel lacks would be refused here
        stores[name] = db
    small, large = stores["small"], stores["large"]
    assert large.execute("SELECT COUNT(*) FROM duels").fetchone()[0] > 2 * small.execute(
        "SELECT COUNT(*) FROM duels").fetchone()[0]
    assert large.execute("SELECT COUNT(*) FROM duels WHERE ruleset = 'pf2e' AND status = 'over'").fetchone()[0] > \
        small.execute("SELECT COUNT(*) FROM duels WHERE ruleset = 'pf2e' AND status = 'over'").fetchone()[0]
    characters = {row[0] for row in large.execute("SELECT id FROM characters")}
    for record in EventStore(large).read_all():
        if record.stream.startswith("duel-"):  # a duel's events name its own duelists only
            fought = {row[0] for row in large.execute("SELECT character_id FROM duelists WHERE duel_id = ?",
                                                      [record.stream.removeprefix("duel-")])}
            assert named(record.data) & characters <= fought, record
    # The first duel's duelists never stand in: their sheets and their lines in the log are the same.
    first = small.execute("SELECT character_id FROM duelists ORDER BY rowid LIMIT 2").fetchall()
    campaign = small.execute("SELECT id FROM campaigns ORDER BY rowid LIMIT 1").fetchone()[0]
    for (character,) in first:
        assert queries.character_sheet(large, character) == queries.character_sheet(small, character)
        page = {name: queries.log_page(db, campaign, subject=f"character-{character}")
                for name, db in stores.items()}
        assert page["large"] == page["small"] and page["small"]["entries"]


def named(value) -> set[str]:
    """Every string in the value, keys too."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*map(named, value.values()))
    if isinstance(value, list):
        return set().union(*map(named, value))
    return set()
