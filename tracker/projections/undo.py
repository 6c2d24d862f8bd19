"""What "Undo last action" on a duel page would take back, and which undo can be restored.

Both read the log's lines of the one duel, newest first, and stop at the first that answers, so
the duel page pays a few rows, however long the duel. The last action is the last command still
standing (all the events it appended, its ending among them); the undo that can be restored is
the last retraction still in force when nothing standing was logged after it (the rule
``RestoreRetraction`` enforces: the duel returns exactly to a state it had).
"""
from __future__ import annotations

from tracker.projections.words import retracted_line, revived
from tracker.eventstore.store import loads

CORRECTIONS = ("EventRetracted", "RetractionRestored")
SCAN = 200  # lines read back at most: past that, the log page and the event pages still serve


def _lines(db, stream: str):
    """The duel's log lines, newest first, as they are read (their words still data: only the lines
    a page shows are read back as words, so a long duel's page costs what a short one's does)."""
    return db.query("SELECT position, version, type, summary, retracted_by FROM log_entries"
                    " WHERE stream = ? ORDER BY version DESC LIMIT ?", [stream, SCAN])


def last_action(db, duel_id: str) -> dict | None:
    """The duel's last command still standing: the position to retract, and its lines in order;
    None when only the start stands (a start is abandoned, not undone)."""
    stream = f"duel-{duel_id}"
    group, first = [], None
    for line in _lines(db, stream):
        if line["type"] in CORRECTIONS or line["retracted_by"]:
            continue
        if first is None:  # the last line standing: its command decided at this version
            row = db.execute("SELECT metadata FROM events WHERE stream = ? AND version = ?",
                             [stream, line["version"]]).fetchone()
            first = loads(row[0]).get("decision", line["version"])
        if line["version"] < first:
            break  # newest first: every line after this one is older than the command
        group.append(line)
    if not group or first <= 1 or any(line["type"] == "DuelStarted" for line in group):
        return None
    group.reverse()
    revived(group, "summary")
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
            return {"position": line["position"], "summary": retracted_line(revived([line], "summary")[0]["summary"])}
        return None
    return None
