"""Imports and exports stream (issue 10, finding 5): memory stays flat however big the file.
A quick version of bench/import_memory.py, each figure measured in a fresh process."""
import json
import subprocess
import sys
from pathlib import Path

from tracker.backup import FORMAT, chain, dumps

ROOT = Path(__file__).resolve().parents[2]
EVENTS = 12_000
NOTES = "n" * 5000  # 5 KB a line: a 60 MB file, which a reader holding it whole would show at once


def big_campaign_file(path: Path) -> None:
    digest = ""
    with path.open("w") as out:
        for position in range(1, EVENTS + 1):
            if position == 1:
                stream, kind, data = "campaign-c", "CampaignCreated", {"campaign_id": "c", "name": "Big",
                                                                        "ruleset": "coin"}
            elif position == 2:
                stream, kind, data = "character-x", "CharacterCreated", {"character_id": "x", "campaign_id": "c",
                                                                         "name": "X", "rank": "pj"}
            else:
                stream, kind, data = "character-x", "CharacterEdited", {"name": "X", "rank": "pj", "notes": NOTES}
            item = {"position": position, "stream": stream, "version": position - 1 if position > 1 else 1,
                    "type": kind, "schema": 2 if kind == "CharacterCreated" else 1, "data": data,
                    "metadata": {"campaign_id": "c"}}
            digest = chain(digest, item)
            out.write(dumps({**item, "hash": digest}) + "\n")
        out.write(dumps({"format": FORMAT, "events": EVENTS, "hash": digest}) + "\n")


def growth_mb(kind, database, file):
    output = subprocess.run([sys.executable, str(ROOT / "bench" / "import_memory.py"), "--measure", kind,
                             "--db", str(database), "--file", str(file), "--campaign", ""],
                            check=True, capture_output=True, text=True, cwd=ROOT,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}).stdout
    return json.loads(output.strip().splitlines()[-1])["growth_mb"]


def test_a_60_mb_import_and_its_export_grow_memory_by_little(tmp_path):
    file = tmp_path / "big.jsonl"
    big_campaign_file(file)
    assert file.stat().st_size > 60_000_000
    assert growth_mb("import-web", tmp_path / "web.db", file) < 40
    assert growth_mb("export", tmp_path / "web.db", file) < 40
    assert growth_mb("import-cli", tmp_path / "cli.db", file) < 40
