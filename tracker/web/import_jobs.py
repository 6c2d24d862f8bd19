"""A large campaign import runs beside the request, so the page can show how far it got.

The upload is copied to a file of its own (the request's spool goes when the request ends); a
thread imports it on its own connection (``tracker.backup.campaign_import``: checked whole, then
appended in one transaction, all or nothing), counting the lines it went through. The page asks
for the count every second: htmx swaps the fragment, and without JavaScript the page refreshes
itself. A job lives in this process only, as long as the import and an hour after. How it ended is
kept as facts (the refusal, or a crash), put into words by the page in its reader's language.
"""
from __future__ import annotations

import logging
import os
import secrets
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import IO, Callable

from tracker.rules.text import Text, t

from tracker.backup import BadLog, TextLines
from tracker.backup.campaign_import import import_campaign
from tracker.bootstrap.db import open_db
from tracker.backup.sealed_fields import Sealer

KEPT_SECONDS = 3600
log = logging.getLogger(__name__)


@dataclass
class Job:
    """One import under way, or finished: how far it got and how it ended."""

    id: str
    gm_id: str
    lines: int  # in the file; each is gone through twice (checked, then imported)
    done: int = 0
    campaign_id: str | None = None
    refused: BadLog | None = None  # the file's first fault: nothing was imported
    crashed: bool = False  # the server failed: nothing was imported
    ended_at: float | None = None

    @property
    def phase(self) -> Text:
        return t("Checking") if self.done < self.lines else t("Importing")

    @property
    def in_phase(self) -> int:
        return min(self.done if self.done < self.lines else self.done - self.lines, self.lines)

    @property
    def percent(self) -> int:
        return min(100, 100 * self.done // max(2 * self.lines, 1))

    def advance(self, lines: int) -> None:
        self.done += lines


_jobs: dict[str, Job] = {}
_lock = threading.Lock()


def start(database: str, upload: IO[bytes], gm_id: str, new_id: Callable[[], str], key: bytes,
          sealer: Sealer | None = None) -> Job:
    """Copy the upload aside and import it in a thread; the job to poll."""
    spool = tempfile.NamedTemporaryFile(prefix="touche-import-", suffix=".jsonl", delete=False)
    with spool:
        shutil.copyfileobj(upload, spool, 1 << 20)
    with open(spool.name, "rb") as f:
        lines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
    job = Job(secrets.token_urlsafe(12), gm_id, max(lines - 1, 1))  # the trailer is no event
    with _lock:
        now = time.time()
        for old in [j for j in _jobs.values() if j.ended_at and now - j.ended_at > KEPT_SECONDS]:
            del _jobs[old.id]
        _jobs[job.id] = job
    threading.Thread(target=_run, args=(job, database, spool.name, new_id, key, sealer),
                     name=f"import-{job.id}", daemon=True).start()
    return job


def find(job_id: str, gm_id: str) -> Job | None:
    """The GM's own job, or None (another GM's job is none of theirs)."""
    job = _jobs.get(job_id)
    return job if job is not None and job.gm_id == gm_id else None


def _run(job: Job, database: str, file: str, new_id: Callable[[], str], key: bytes,
         sealer: Sealer | None = None) -> None:
    db = None
    try:
        db = open_db(database)
        with open(file, "rb") as f:
            job.campaign_id, _ = import_campaign(db, TextLines(f), owner=job.gm_id, new_id=new_id, key=key,
                                                 advance=job.advance, sealer=sealer)
    except BadLog as bad:
        job.refused = bad
    except Exception:  # whatever else: the page must end, and say so
        log.exception("campaign import %s failed", job.id)
        job.crashed = True
    finally:
        if db is not None:
            db.close()
        os.remove(file)
        job.ended_at = time.time()
