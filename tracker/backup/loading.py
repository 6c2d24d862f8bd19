"""Import: checked lines appended to an empty store, in batches."""

from __future__ import annotations

from typing import Callable, Iterable, Iterator

from tracker.eventstore import forked
from tracker.projections.rebuild import rebuild
from tracker.rules.text import t
from tracker.backup.sealed_fields import Sealer
from tracker.eventstore.store import EventStore, insert_rows, write_transaction
from tracker.backup.lines import BATCH, BadLog, Line, PARALLEL_AFTER, PIPED_BATCH, Progress, quietly
from tracker.backup.checking import Check, _unchained_line


def append_lines(db, source: Iterable[str], check: Check, advance: Callable[[int], None] | None = None) -> None:
    """Check each line and append it, a batch of lines to a statement, in the caller's write
    transaction (which a bad line must roll back). ``advance`` is told each batch's line count.

    A long file is checked and appended at once, on two cores: after ``PARALLEL_AFTER`` batches
    the check goes on in a forked child (``tracker.eventstore.forked``: it carries on with the very pass
    under way), which hands this process each batch's rows while it checks the next; this process
    chains them (``Check.follow``, a fifth of the check's work, which leaves the child, the
    slower side, less to do) and inserts them. The pass's own state (``check.events``...) comes
    back at the end, and a bad line is raised here as it would have been, after the batches
    before it. Where forking is unsafe (another thread runs), one process does it all, as a
    short file does: the same batches, taken in the same order."""
    lines = check.unchained(source)
    for count, batch in enumerate(_batches(lines, BATCH), start=1):
        _take(db, check, batch, advance)
        if count == PARALLEL_AFTER and forked.can_fork():
            break
    else:
        return
    def unchained() -> dict:  # the child's state to take back: this process kept the chain
        return {name: value for name, value in vars(check).items() if name not in Check.CHAIN + Check.KEYS}

    with forked.Ahead(_batches(lines, PIPED_BATCH), unchained) as ahead:
        for batch in ahead:
            _take(db, check, batch, advance)
    vars(check).update(ahead.outcome)


def _batches(lines: Iterator[Line | dict], size: int) -> Iterator[tuple[list[tuple], list[tuple]] | dict]:
    """The checked lines as batches of ``size``: their rows (``line[1:9]``) and, for the chain,
    each one's number and hash; the trailer as it came. Before a bad line is raised, the lines
    checked before it are handed on, so the chain may find a line at fault before it."""
    rows: list[tuple] = []
    hashes: list[tuple[int, str, tuple[str, str] | None]] = []
    try:
        for line in lines:
            if type(line) is dict:  # the trailer: after every line before it
                if rows:
                    yield rows, hashes
                    rows, hashes = [], []
                yield line
                continue
            rows.append(line[1:9])
            hashes.append((line[0], line[11], line[12]))  # its number, hash and the data the chain hashes
            if len(rows) == size:
                yield rows, hashes
                rows, hashes = [], []
    except Exception as bad:
        if (pending := _unchained_line(bad)) is not None:
            rows.append(pending[1:9])
            hashes.append((pending[0], pending[11], pending[12]))
        if rows:
            yield rows, hashes
        raise
    if rows:
        yield rows, hashes


def _take(db, check: Check, batch: tuple[list[tuple], list[tuple]] | dict,
          advance: Callable[[int], None] | None) -> None:
    """One batch chained and inserted, or the trailer held against the chain."""
    if type(batch) is dict:
        check.end(batch)
        return
    rows, hashes = batch
    check.follow(rows, hashes)
    insert_rows(db, rows)
    if advance is not None:
        advance(len(rows))


def import_lines(db, source: Iterable[str], key: bytes | None = None, accept_unsigned: bool = True,
                 progress: Progress = quietly, lines: int = 0, sealer: Sealer | None = None) -> Check:
    """Import a file into an empty log and rebuild the read models from it, in one transaction
    and one pass: every line checked and appended in batches, then the rebuild; a bad line, or an
    unsigned file when ``accept_unsigned`` is off, rolls it all back. ``lines``: how many the
    file holds, when known, for ``progress``; ``sealer`` opens its sealed fields (this
    install's: a file another install sealed is refused)."""
    check = Check(key, sealer=sealer)
    with write_transaction(db):
        if EventStore(db).last_position():
            raise BadLog(0, t("the database already holds events: import into an empty one"))
        with progress(t("Checking and appending"), lines) as advance:
            append_lines(db, source, check, advance)
        if not check.signed and not accept_unsigned:
            raise BadLog(check.events + 1, t("the file is not signed by this Touché (exported elsewhere, or "
                                             "changed since): if you trust where it came from, "
                                             "import it with --accept-unsigned"))
        with progress(t("Rebuilding the read models"), check.events) as advance:
            rebuild(db, EventStore(db), advance)
    return check
