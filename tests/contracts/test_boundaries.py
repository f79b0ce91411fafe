"""Import direction and cold-start hygiene (shared/ARCHITECTURE.md §1, STYLE.md §8, issue 9).

The layers, lowest first: ``engine`` (pure rules) <- ``infra`` (adapters) <- ``functions``
(handlers, use cases, the composition root) <- ``local_stack`` (composes handlers into
the ``make run`` server). ``bench`` stands beside the top and may import anything.
An import may only point down; there is no exceptions list.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "infra", "functions", "local_stack", "bench")
# What each package may never import (anything above it).
FORBIDDEN = {
    "engine": {"infra", "functions", "local_stack", "bench"},
    "infra": {"functions", "local_stack", "bench"},
    "functions": {"local_stack", "bench"},
    "local_stack": {"bench"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imported(path: Path, module: str, *, top_level_only: bool) -> set[str]:
    """Modules named by the imports of one file (relative imports resolved).

    ``top_level_only`` keeps only imports run when the module is imported (not those
    inside functions), which is what can make an import cycle.
    """
    tree = ast.parse(path.read_text())
    nodes = _top_level_nodes(tree) if top_level_only else list(ast.walk(tree))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _top_level_nodes(tree: ast.Module) -> list[ast.AST]:
    """Statements executed at import: the module body, including if/try blocks, not defs."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            pending.extend(node.orelse)
            continue
        found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _sources() -> dict[str, Path]:
    return {
        _module_name(path): path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
    }


def _imports(folder: str) -> dict[str, set[str]]:
    """Top-level package names each file under ``folder`` imports (anywhere in the file)."""
    prefix = folder.replace("/", ".")
    return {
        str(path.relative_to(ROOT)): {
            name.split(".")[0] for name in _imported(path, module, top_level_only=False)
        }
        for module, path in _sources().items()
        if module == prefix or module.startswith(prefix + ".")
    }


def test_use_cases_have_no_boto3_and_no_event_shapes() -> None:
    for path, names in _imports("functions/usecases").items():
        assert not names & {"boto3", "botocore", "aws_lambda_powertools", "pydantic"}, path


def test_no_import_points_up_a_layer() -> None:
    """Every import, also the deferred ones inside functions; no exceptions (issue 9)."""
    upward = [
        (path, sorted(names & FORBIDDEN[package]))
        for package in FORBIDDEN
        for path, names in _imports(package).items()
        if names & FORBIDDEN[package]
    ]
    assert upward == []


def _graph() -> dict[str, set[str]]:
    """Module -> our modules it imports at import time (a package import also runs its __init__)."""
    sources = _sources()
    graph: dict[str, set[str]] = {}
    for module, path in sources.items():
        targets: set[str] = set()
        for name in _imported(path, module, top_level_only=True):
            while name and name not in sources:
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle as a path of module names, or [] (iterative depth-first search)."""
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        stack = [iter(sorted(graph[start]))]
        state[start] = 1
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt):], nxt]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return []


def test_no_import_cycle_among_our_modules() -> None:
    assert _cycle(_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The check above can fail: a planted cycle is reported."""
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_importing_the_api_handler_builds_no_client() -> None:
    code = (
        "import sys, functions.api.handler as h, infra.aws_clients as c, functions.wiring as w;"
        "assert not c._clients and w._services is None; print('ok')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.stdout.strip() == "ok", result.stderr
