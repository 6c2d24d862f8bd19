"""What "Undo last action" on a duel page would take back, and which undo can be restored.

Both read the log's lines of the one duel, newest first, and stop at the first that answers, so
the duel page pays a few rows, however long the duel. The last action is the last command still
standing (all the events it appended, its ending among them); the undo that can be restored is
the last retraction still in force when nothing standing was logged after it (the rule
``RestoreRetraction`` enforces: the duel returns exactly to a state it had).
"""
from __future__ import annotations

from tracker.projections.words import retracted_line, revived
from tracker.store import loads

CORRECTIONS = ("EventRetracted", "RetractionRestored")
SCAN = 200  # lines read back at most: past that, the log page and the event pages still serve


def _lines(db, stream: str) -> list[dict]:
    return revived(list(db.query("SELECT position, version, type, summary, retracted_by FROM log_entries"
                                 " WHERE stream = ? ORDER BY version DESC LIMIT ?", [stream, SCAN])), "summary")


def last_action(db, duel_id: str) -> dict | None:
    """The duel's last command still standing: the position to retract, and its lines in order;
    None when only the start stands (a start is abandoned, not undone)."""
    stream = f"duel-{duel_id}"
    standing = [line for line in _lines(db, stream) if line["type"] not in CORRECTIONS and not line["retracted_by"]]
    if not standing:
        return None
    row = db.execute("SELECT metadata FROM events WHERE stream = ? AND version = ?",
                     [stream, standing[0]["version"]]).fetchone()
    first = loads(row[0]).get("decision", standing[0]["version"])
    group = [line for line in standing if line["version"] >= first]
    if first <= 1 or any(line["type"] == "DuelStarted" for line in group):
        return None
    group.reverse()
    return {"position": group[0]["position"], "lines": [line["summary"] for line in group],
            "versions": [line["version"] for line in group],
            "ends": any(line["type"] in ("DuelWon", "DuelDrawn", "DuelYielded", "DuelDisqualified", "DuelAbandoned")
                        for line in group)}


def last_undo(db, duel_id: str) -> dict | None:
    """The retraction that can be restored now, newest first past restored ones; None when an
    action was logged since (restoring would mix two pasts)."""
    for line in _lines(db, f"duel-{duel_id}"):
        if line["type"] == "RetractionRestored" or (line["type"] == "EventRetracted" and line["retracted_by"]):
            continue
        if line["type"] == "EventRetracted":
            return {"position": line["position"], "summary": retracted_line(line["summary"])}
        return None
    return None
