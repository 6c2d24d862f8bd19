"""Dependencies point one way: the rules never reach for Flask, SQLite, the clock or randomness;
each layer imports only the layers below it; and no module of tracker/ imports itself back."""
import ast
import re
from pathlib import Path

TRACKER = Path(__file__).resolve().parents[2] / "tracker"
RULES = TRACKER / "rules"
FORBIDDEN = {"flask", "sqlite3", "sqlite_utils", "random", "time", "datetime", "secrets", "os",
             "tracker.eventstore.store", "tracker.application.services", "tracker.web", "tracker.projections", "tracker.db"}


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
    TYPE_CHECKING): ``from tracker import policy`` is an import of ``tracker.application.policy``."""
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


def test_each_layer_imports_only_the_layers_below_it():
    assert reaches("tracker.rules", ("tracker.projections", "tracker.eventstore.store", "tracker.application.services",
                                     "tracker.application.handlers", "tracker.bootstrap", "tracker.web", "tracker.db")) == {}
    assert reaches("tracker.projections", ("tracker.application.services", "tracker.application.handlers", "tracker.bootstrap",
                                           "tracker.web")) == {}
    assert reaches("tracker.application.services", ("tracker.application.handlers", "tracker.bootstrap", "tracker.web")) == {}
    assert reaches("tracker.application.commands", ("tracker.application.services", "tracker.application.handlers", "tracker.web")) == {}
    assert reaches("tracker.application.policy", ("tracker.application.services", "tracker.application.handlers", "tracker.web")) == {}
    assert reaches("tracker.application.handlers", ("tracker.bootstrap", "tracker.web")) == {}
    assert reaches("tracker.web", ("tracker.application.handlers", "tracker.bootstrap")) == {}


SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE)\b|\.execute(many)?\(|\.query\(")


def test_the_web_layer_only_asks_the_read_models_and_renders():
    """Every read lives in tracker/projections (cosmicpython's views.py): no SQL in tracker/web."""
    web = RULES.parent / "web"
    offenders = {f"{path.relative_to(web)}:{number}": line.strip()
                 for path in web.rglob("*.py")
                 for number, line in enumerate(path.read_text().splitlines(), start=1) if SQL.search(line)}
    assert not offenders
