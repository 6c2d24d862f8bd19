"""Memory of a big import and export (issue 10, finding 5): the peak memory growth of exporting
a campaign of 1,000,000 events and of importing that file, through the web's import and the
command line's, each measured in a fresh process, beside the 150 MB target. Not a timed test.

    .venv/bin/python bench/import_memory.py [--events 1000000]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.common import report, write_log  # noqa: E402
from bench.corpus import copies, template  # noqa: E402
from tracker import backup  # noqa: E402
from tracker.bootstrap.db import open_db  # noqa: E402
from tracker.eventstore.store import loads  # noqa: E402

TARGET_MB = 150
KINDS = ("export", "import-web", "import-cli")


def write_file(path: str, lines: list[str], events: int) -> str:
    """A campaign's log of ``events`` events as an export file, written as it is made; its campaign."""
    digest, count, campaign = "", 0, None
    with open(path, "w", encoding="utf-8") as out:
        for position, stream, version, kind, schema, data, metadata, _ in copies(lines, events):
            item = {"position": position, "stream": stream, "version": version, "type": kind,
                    "schema": schema, "data": loads(data), "metadata": loads(metadata)}
            campaign = campaign or item["metadata"]["campaign_id"]
            digest = backup.chain(digest, item, data, metadata)
            out.write(backup.dumps({**item, "hash": digest}) + "\n")
            count += 1
        out.write(backup.dumps({"format": backup.FORMAT, "events": count, "hash": digest}) + "\n")
    return campaign


def _kib(field: str) -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(field)


def measure(kind: str, database: str, file: str, campaign: str) -> dict:
    """Run one operation in this process; its peak memory growth (MB) and its time."""
    import secrets

    from tracker.backup.campaign_import import import_campaign

    db = open_db(database)
    baseline = _kib("VmRSS")
    started = time.perf_counter()
    if kind == "export":
        with open(os.devnull, "w") as sink:
            backup.export_lines(db, sink, campaign_id=campaign, key=b"bench")
    else:
        with open(file, "rb") as f:
            if kind == "import-web":
                import_campaign(db, backup.TextLines(f), owner="", new_id=lambda: secrets.token_hex(6))
            else:
                backup.import_lines(db, backup.TextLines(f))
    seconds = time.perf_counter() - started
    return {"growth_mb": (_kib("VmHWM") - baseline) / 1024, "seconds": seconds}


def measured(kind: str, database: str, file: str, campaign: str) -> dict:
    """``measure`` in a fresh process, so its peak is this operation's alone."""
    output = subprocess.run([sys.executable, __file__, "--measure", kind, "--db", database, "--file", file,
                             "--campaign", campaign], check=True, capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--measure", choices=KINDS)
    parser.add_argument("--db")
    parser.add_argument("--file")
    parser.add_argument("--campaign")
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.db, args.file, args.campaign)))
        return
    with tempfile.TemporaryDirectory() as workdir:
        lines = template()
        file = os.path.join(workdir, "campaign.jsonl")
        campaign = write_file(file, lines, args.events)
        full = os.path.join(workdir, "full.db")
        write_log(full, lines, args.events)
        size = os.path.getsize(file) / 1024 / 1024
        print(f"{args.events:,} events, a {size:,.0f} MB file", flush=True)
        for kind, database in (("export", full), ("import-web", os.path.join(workdir, "web.db")),
                               ("import-cli", os.path.join(workdir, "cli.db"))):
            result = measured(kind, database, file, campaign)
            report(f"{kind}: peak memory growth ({result['seconds']:.0f} s)", f"{result['growth_mb']:,.0f} MB",
                   f"< {TARGET_MB} MB", result["growth_mb"] < TARGET_MB)


if __name__ == "__main__":
    main()
