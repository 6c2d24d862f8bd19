"""The evening bench (bench/evening.py) works: one table for a few seconds against the production
server on SQLite, its GM logging turns, its seats choosing in a sealed duel, its display and its
API follower following, ends with no error and no acknowledged command missing from the log.
Nothing here is timed: the bench prints the latencies beside their targets; this only keeps it
from breaking silently."""
from bench.evening import evening


def test_one_table_for_a_few_seconds_has_no_error_and_loses_nothing(tmp_path):
    result = evening(str(tmp_path / "evening.db"), servers=1, tables=1, seconds=5, pace=1.0, seat_counts=[2],
                     processes=1, warm_up=0)
    assert result["errors"] == [] and result["tracebacks"] == 0
    assert result["lost"] == 0
    assert result["acked_gm"] and result["acked_seat"]  # the GM logged turns and the seats chose
    statuses = result["statuses"]
    assert statuses.get("seat page 200") == 2 and statuses.get("display page 200", 0) >= 1
    assert statuses.get("follower 200", 0) >= 1
