"""Print the mutation score of each rules package from the results mutmut left in mutants/.

Score = killed (or timed out) / checked; mutants never run yet are counted apart, so a run cut
short by its time limit still reports an honest score for what it did check.
"""
import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

KILLED = {"killed", "timeout", "caught by type check"}


def package_of(meta: Path, root: Path) -> str:
    parts = meta.relative_to(root).parts
    return "/".join(parts[:-1]) if len(parts) > 1 else "(shared modules)"


def main(root: Path = Path("mutants/tracker/rules")) -> int:
    counts: dict[str, Counter] = {}
    for meta in sorted(root.rglob("*.py.meta")):
        results = json.loads(meta.read_text())["exit_code_by_key"]
        tally = counts.setdefault(package_of(meta, root), Counter())
        for exit_code in results.values():
            tally[status_by_exit_code[exit_code]] += 1
    if not counts:
        print("no mutmut results under", root)
        return 1
    print(f"{'package':20} {'score':>7} {'killed':>7} {'survived':>9} {'no tests':>9} {'unchecked':>10}")
    for package, tally in counts.items():
        killed = sum(tally[s] for s in KILLED)
        checked = killed + tally["survived"] + tally["no tests"] + tally["suspicious"]
        score = f"{100 * killed / checked:.1f}%" if checked else "-"
        print(f"{package:20} {score:>7} {killed:>7} {tally['survived']:>9} {tally['no tests']:>9} {tally['not checked']:>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*(Path(a) for a in sys.argv[1:])))
