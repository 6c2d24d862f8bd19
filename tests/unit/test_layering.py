"""Dependencies point one way: the rules never reach for Flask, SQLite, the clock or randomness;
each layer imports only the layers below it; and no module of tracker/ imports itself back."""
import ast
import re
from pathlib import Path

TRACKER = Path(__file__).resolve().parents[2] / "tracker"
RULES = TRACKER / "rules"
FORBIDDEN = {"flask", "sqlite3", "sqlite_utils", "random", "time", "datetime", "secrets", "os",
             "tracker.eventstore.store", "tracker.application.services", "tracker.web", "tracker.projections", "tracker.bootstrap", "tracker.i18n"}


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
    upward = ("flask", "tracker.application.services", "tracker.application.handlers", "tracker.web")
    offenders = {str(path.name): [name for name in imported(path) if name.startswith(upward)]
                 for path in (RULES.parent / "projections").glob("*.py")}
    assert not {name: bad for name, bad in offenders.items() if bad}


# --- the whole import graph ---------------------------------------------------------------

def module_name(path: Path) -> str:
    parts = path.relative_to(TRACKER.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in TRACKER.rglob("*.py")}


def imports_of(name: str) -> set[str]:
    """The tracker modules ``name`` imports, anywhere in it (at the top, in a function, under
    TYPE_CHECKING): ``from tracker.application import policy`` is an import of ``tracker.application.policy``."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # a relative import, from the module's own package up
                anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                         for alias in node.names)
    return {target for target in found if target in MODULES and target != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import one another in a ring (Tarjan's strongly connected
    components of more than one module)."""
    order, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
                on_stack.discard(group[-1])
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_ring():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back():
    assert "tracker.application.services" in GRAPH["tracker.application.handlers.workspace"]  # the graph sees real imports
    assert cycles(GRAPH) == []


def reaches(source: str, layers: tuple[str, ...]) -> dict[str, list[str]]:
    """The modules under ``source`` that import a module of ``layers``, and which."""
    inside = [name for name in GRAPH if name == source or name.startswith(source + ".")]
    found = {name: sorted(target for target in GRAPH[name]
                          if any(target == layer or target.startswith(layer + ".") for layer in layers))
             for name in inside}
    return {name: targets for name, targets in found.items() if targets}


# The layers, lowest first (docs/architecture.md, "The map of tracker/"). A module imports only
# the layers below its own; two packages named in one row are siblings and import each other not
# at all. tracker.rules and tracker.domain are together the one pure layer. ``tracker`` itself
# (create_app) is the composition root that imports them all; only the server's entry point
# (tracker.web.serve) imports it back.
LAYERS = (
    ("tracker.rules", "tracker.domain"),
    ("tracker.eventstore",),
    ("tracker.projections",),
    ("tracker.application", "tracker.backup"),
    ("tracker.bootstrap",),
    ("tracker.i18n",),
    ("tracker.recap",),
    ("tracker.web", "tracker.cli"),
)
ROOT_IMPORTERS = {"tracker.web.serve"}


def layer_of(name: str) -> tuple[int, str] | None:
    for number, row in enumerate(LAYERS):
        for package in row:
            if name == package or name.startswith(package + "."):
                return number, package
    return None


def test_every_module_of_tracker_has_a_layer():
    assert [name for name in MODULES if name != "tracker" and layer_of(name) is None] == []


def test_each_layer_imports_only_the_layers_below_it():
    against = {}
    for name, targets in GRAPH.items():
        if name == "tracker":
            continue
        mine = layer_of(name)
        for target in targets:
            if target == "tracker":
                if name not in ROOT_IMPORTERS:
                    against.setdefault(name, []).append(target)
                continue
            theirs = layer_of(target)
            if theirs[0] > mine[0] or (theirs[0] == mine[0] and mine[0] > 0 and theirs[1] != mine[1]):
                against.setdefault(name, []).append(target)
    assert against == {}


def test_the_layer_check_sees_an_upward_import():
    assert layer_of("tracker.eventstore.store") == (1, "tracker.eventstore")
    assert layer_of("tracker.web.serve")[0] > layer_of("tracker.i18n")[0] > layer_of("tracker.bootstrap")[0]
    assert "tracker.bootstrap.db" in GRAPH["tracker.i18n"]  # the graph holds real imports


def test_the_handlers_are_wired_in_one_place():
    """The web hands each command to the service; only tracker.bootstrap (and the app factory,
    the CLI's commands) knows the handlers' table."""
    assert reaches("tracker.web", ("tracker.application.handlers",)) == {}
    assert {name for name, targets in GRAPH.items() if "tracker.bootstrap" in targets} <= {
        "tracker", "tracker.cli", "tracker.cli.demo"} | {n for n in GRAPH if n.startswith("tracker.bootstrap.")}


SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE)\b|\.execute(many)?\(|\.query\(")


def test_the_web_layer_only_asks_the_read_models_and_renders():
    """Every read lives in tracker/projections (cosmicpython's views.py): no SQL in tracker/web."""
    web = RULES.parent / "web"
    offenders = {f"{path.relative_to(web)}:{number}": line.strip()
                 for path in web.rglob("*.py")
                 for number, line in enumerate(path.read_text().splitlines(), start=1) if SQL.search(line)}
    assert not offenders
