"""Dependencies point one way: the rules never reach for Flask, SQLite, the clock or randomness."""
import ast
import re
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "tracker" / "rules"
FORBIDDEN = {"flask", "sqlite3", "sqlite_utils", "random", "time", "datetime", "secrets", "os",
             "tracker.store", "tracker.services", "tracker.web", "tracker.projections", "tracker.db"}


def imported(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module


def test_rules_are_pure():
    offenders = {}
    for path in RULES.rglob("*.py"):
        bad = [name for name in imported(path)
               if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)]
        if bad:
            offenders[str(path.relative_to(RULES))] = bad
    assert not offenders


def test_read_models_never_reach_up_to_the_service_or_the_web():
    upward = ("flask", "tracker.services", "tracker.handlers", "tracker.web")
    offenders = {str(path.name): [name for name in imported(path) if name.startswith(upward)]
                 for path in (RULES.parent / "projections").glob("*.py")}
    assert not {name: bad for name, bad in offenders.items() if bad}


SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE)\b|\.execute(many)?\(|\.query\(")


def test_the_web_layer_only_asks_the_read_models_and_renders():
    """Every read lives in tracker/projections (cosmicpython's views.py): no SQL in tracker/web."""
    web = RULES.parent / "web"
    offenders = {f"{path.relative_to(web)}:{number}": line.strip()
                 for path in web.rglob("*.py")
                 for number, line in enumerate(path.read_text().splitlines(), start=1) if SQL.search(line)}
    assert not offenders
