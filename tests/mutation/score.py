"""Print the mutation score of each rules package from the results mutmut left in mutants/.

Score = killed (or timed out) / checked. A package is PARTIAL when some of its mutants were never
run, or when `make mutation` cut its run short (MUTATION_TIME; the target is then listed in
mutants/cut-short, and the results not re-run are an earlier run's): the score printed is for what
was checked, and the script exits 1 rather than pass a partial score off as complete. A package
under the target score (--min, 90 by default) also exits 1.

    python tests/mutation/score.py [--min 90] [--survivors] [mutants/tracker/rules]
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from mutmut.stats import status_by_exit_code

KILLED = {"killed", "timeout", "caught by type check"}
NOT_CHECKED = "not checked"
INTERRUPTED = "check was interrupted by user"  # cut off by the time limit: as good as never run


def package_of(meta: Path, root: Path) -> str:
    parts = meta.relative_to(root).parts
    return "/".join(parts[:-1]) if len(parts) > 1 else "(shared modules)"


def cut_short(root: Path) -> set[str]:
    """The packages whose last `make mutation` run hit its time limit (targets such as ``pf2e.*``
    name a ruleset package; any other names a shared module)."""
    listed = root.parents[1] / "cut-short"
    if not listed.exists():
        return set()
    targets = [line.strip().removesuffix(".*") for line in listed.read_text().splitlines() if line.strip()]
    return {t if (root / t).is_dir() else "(shared modules)" for t in targets}


def tally(root: Path) -> tuple[dict[str, Counter], dict[str, list[str]]]:
    """Statuses per package, and the names of the mutants that were checked and not killed."""
    counts: dict[str, Counter] = {}
    alive: dict[str, list[str]] = {}
    for meta in sorted(root.rglob("*.py.meta")):
        package = package_of(meta, root)
        results = json.loads(meta.read_text())["exit_code_by_key"]
        statuses = counts.setdefault(package, Counter())
        for name, exit_code in results.items():
            status = status_by_exit_code[exit_code]
            status = NOT_CHECKED if status == INTERRUPTED else status
            statuses[status] += 1
            if status not in KILLED | {NOT_CHECKED, "skipped"}:
                alive.setdefault(package, []).append(f"{name}  ({status})")
    return counts, alive


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", type=Path, default=Path("mutants/tracker/rules"))
    parser.add_argument("--min", type=float, default=90.0, help="target score per package, in percent")
    parser.add_argument("--survivors", action="store_true", help="list each package's surviving mutants")
    args = parser.parse_args(argv)
    counts, alive = tally(args.root)
    if not counts:
        print("no mutmut results under", args.root)
        return 1
    ok, stopped = True, cut_short(args.root)
    print(f"{'package':18} {'score':>7} {'killed':>7} {'survived':>9} {'no tests':>9} {'unchecked':>10}  verdict")
    for package, statuses in counts.items():
        killed = sum(statuses[s] for s in KILLED)
        unchecked = statuses[NOT_CHECKED]
        checked = sum(statuses.values()) - unchecked - statuses["skipped"]
        score = 100 * killed / checked if checked else 0.0
        if unchecked or package in stopped:
            verdict = (f"PARTIAL: {unchecked} of {checked + unchecked} mutants never run" if unchecked else
                       "PARTIAL") + ("; the run hit MUTATION_TIME" if package in stopped else "")
        elif score < args.min:
            verdict = f"below {args.min:g}%"
        else:
            verdict = "ok"
        ok = ok and verdict == "ok"
        shown = f"{score:.1f}%" if checked else "-"
        print(f"{package:18} {shown:>7} {killed:>7} {statuses['survived']:>9} {statuses['no tests']:>9} "
              f"{unchecked:>10}  {verdict}")
    if args.survivors:
        for package, names in alive.items():
            print(f"\n{package}:")
            print("\n".join(f"  {name}" for name in names))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
