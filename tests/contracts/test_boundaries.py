"""Import direction, no import cycles, and cold-start hygiene (ARCHITECTURE §1, STYLE.md §8, issue 9).

The layers, lowest first (functions/ports.py explains why the ports sit below infra):

    engine, backgammon, render (pure) -> functions.ports -> infra -> functions.usecases
           -> functions.adapters -> handlers -> composition -> local_stack, bench

The composition root (composition/: the wiring and the Lambda entry points) is a package of
its own above everything it composes (issue 30 item 2): no module of functions/ imports it.

Every module of ours is in exactly one layer, and each layer lists what it may import.
There is no exceptions list: a new module either fits a layer or the table changes here,
in review. Imports are read from the source (``ast``), including deferred imports inside
functions and ``TYPE_CHECKING`` blocks, so a cycle cannot hide behind a lazy import.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "backgammon", "render", "functions", "composition", "infra", "bench", "local_stack",
            "daide_bridge", "deploy", "community", "testkit", "tests")
HANDLERS = ("functions.api", "functions.deadline", "functions.relay", "functions.notifier",
            "functions.telegram", "functions.live")
# rules, drawing and the community's records: no I/O (their own purity tests)
PURE = ("engine", "backgammon", "render", "community")

# layer -> (module prefixes in it, module prefixes it may import besides itself)
LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "engine": (("engine",), ()),
    "backgammon": (("backgammon",), ()),
    "render": (("render",), ("engine",)),
    # ratings, reliability, open formats, tournaments (issue 34): pure, over the engine
    "community": (("community",), ("engine",)),
    "ports": (("functions.ports",), ()),
    "errors": (("functions.errors",), ()),
    "schemas": (("functions.schemas",), ()),
    "settings": (("functions.settings",), ()),
    "observability": (("functions.observability",), ()),
    # SnapStart's hooks (issue 27): registered by the handlers, logging a failed warm-up
    "snapstart": (("functions.snapstart",), (*PURE, "functions.observability")),
    "infra": (("infra",), (*PURE, "functions.ports")),
    "usecases": (("functions.usecases",), (*PURE, "functions.ports", "functions.errors")),
    "adapters": (("functions.adapters",),
                 (*PURE, "functions.ports", "functions.errors", "functions.usecases")),
    "handlers": (HANDLERS, (*PURE, "functions.ports", "functions.errors", "functions.usecases",
                            "functions.schemas", "functions.observability", "functions.snapstart",
                            "functions.settings")),
    "composition": (("composition",), (*PURE, "functions", "infra")),
    "local_stack": (("local_stack",), (*PURE, "functions", "composition", "infra")),
    # the build and the deploy rehearsal (issue 27): they read the product's source and run it
    # against the local stack's emulator
    "deploy": (("deploy",), (*PURE, "functions", "composition", "infra", "local_stack")),
    # what the tests and the benchmarks share (fakes, the in-process API, openings, DATC cases)
    "testkit": (("testkit",), (*PURE, "functions", "composition", "infra", "local_stack")),
    "bench": (("bench",), (*PURE, "functions", "composition", "infra", "local_stack", "deploy", "testkit")),
    # the tests may read anything of ours; nothing of ours imports them
    "tests": (("tests",), (*PURE, "functions", "composition", "infra", "local_stack", "deploy", "bench",
                           "testkit", "daide_bridge")),
    # the DAIDE bridge (issue 19) talks to Convoy over HTTP only: it may read the engine's map
    # data and nothing else of ours; its protocol modules import only the standard library
    "daide_bridge": (("daide_bridge",), ("engine",)),
    "daide protocol": (("daide_bridge.tokens", "daide_bridge.messages", "daide_bridge.wire",
                        "daide_bridge.grammar", "daide_bridge.syntax", "daide_bridge.seats"), ()),
    "package roots": (("functions",), ()),  # functions/__init__.py: a docstring, nothing else
}


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")) if (ROOT / package).is_dir() else []:
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _exports(package: str, known: set[str]) -> set[str]:
    """The names a package's ``__init__`` binds by importing them: ``from package import name``
    reads that binding (a function the area exports under its module's name, say), not the module."""
    path = ROOT.joinpath(*package.split("."), "__init__.py")
    if package not in known or not path.is_file():
        return set()
    tree = ast.parse(path.read_text())
    return {a.asname or a.name for node in tree.body if isinstance(node, ast.ImportFrom) for a in node.names}


def _imported(module: str, path: Path, known: set[str]) -> set[str]:
    """Our modules that ``module`` imports anywhere in its source, resolved to module names."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            exported = _exports(base, known)
            names.update(base if a.name in exported or f"{base}.{a.name}" not in known else f"{base}.{a.name}"
                         for a in node.names)
    resolved = set()
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            resolved.add(name)
    return resolved


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {module: _imported(module, path, known) for module, path in modules.items()}


def layer_of(module: str) -> str:
    """The layer holding ``module``: the one whose prefixes match it most specifically."""
    best, length = "", -1
    for layer, (members, _) in LAYERS.items():
        for prefix in members:
            if _within(module, (prefix,)) and len(prefix) > length:
                best, length = layer, len(prefix)
    return best


def test_every_module_of_ours_is_in_a_layer() -> None:
    assert [m for m in import_graph() if not layer_of(m)] == []


def test_imports_point_only_down_the_layers() -> None:
    wrong = []
    for module, targets in sorted(import_graph().items()):
        layer = layer_of(module)
        members, allowed = LAYERS[layer]
        for target in sorted(targets):
            if not (_within(target, members) or _within(target, allowed)):
                wrong.append(f"{module} ({layer}) imports {target} ({layer_of(target)})")
    assert wrong == []


# The use cases' areas (issue 30 item 1), lowest first: an area imports only the areas before it,
# and only through their package (``functions.usecases.<area>``: what its __init__ exports).
AREAS = ("game", "players", "press", "notifications", "turns", "maps", "games", "backgammon", "kinds",
         "accounts", "reach", "seats", "community", "sandbox")


def _area(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["functions", "usecases"] and len(parts) > 2 else None


def test_every_use_case_module_is_in_an_area() -> None:
    loose = [m for m in import_graph() if m.startswith("functions.usecases") and m != "functions.usecases"
             and _area(m) not in AREAS]
    assert loose == []


def test_use_case_areas_import_only_lower_areas_through_their_surface() -> None:
    wrong = []
    for module, targets in sorted(import_graph().items()):
        area = _area(module)
        if area is None:
            continue
        for target in sorted(targets):
            other = _area(target)
            if other is None or other == area:
                continue
            if AREAS.index(other) > AREAS.index(area):
                wrong.append(f"{module} imports {target}: the {other} area is above the {area} area")
            elif target != f"functions.usecases.{other}":
                wrong.append(f"{module} imports {target}: past the {other} area's surface")
    assert wrong == []


def test_a_handler_reaches_another_handler_only_through_nothing() -> None:
    """Handlers are siblings: none imports another (the API's helpers stay in functions.api)."""
    wrong = [
        f"{module} imports {target}"
        for module, targets in import_graph().items() if layer_of(module) == "handlers"
        for target in targets
        if layer_of(target) == "handlers" and target.split(".")[:2] != module.split(".")[:2]
    ]
    assert wrong == []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative order)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_anywhere() -> None:
    assert cycles(import_graph()) == []


def test_the_checks_themselves_catch_a_cycle_and_an_upward_import() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    members, allowed = LAYERS[layer_of("infra.dynamodb.game_store")]
    assert not _within("functions.usecases.turns.views", members + allowed)
    assert _within("functions.ports", allowed)


def test_importing_the_api_handler_builds_no_client() -> None:
    code = (
        "import sys, composition.api as h, infra.aws_clients as c, composition.wiring as w;"
        "assert not c._clients and not w._built; print('ok')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.stdout.strip() == "ok", result.stderr
