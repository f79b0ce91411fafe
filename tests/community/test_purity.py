"""community/ is pure (community/__init__.py): no I/O, no storage, no clock; it imports the
standard library, the engine and the rating library, nothing else."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

COMMUNITY = Path(__file__).resolve().parents[2] / "community"
ALLOWED = set(sys.stdlib_module_names) | {"engine", "community", "openskill", "__future__"}
FORBIDDEN = {"socket", "subprocess", "urllib", "http", "sqlite3", "logging", "threading", "asyncio", "os",
             "pathlib", "io", "time", "datetime", "random", "secrets", "shutil", "tempfile"}


def _imports(path: Path) -> list[str]:
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append(node.module.split(".")[0])
    return out


def test_community_imports_only_the_standard_library_the_engine_and_openskill() -> None:
    modules = sorted(COMMUNITY.rglob("*.py"))
    assert modules
    bad = [f"{p.name} imports {m}" for p in modules for m in _imports(p) if m not in ALLOWED]
    assert bad == []


def test_community_does_no_io_and_reads_no_clock() -> None:
    modules = sorted(COMMUNITY.rglob("*.py"))
    bad = [f"{p.name} imports {m}" for p in modules for m in _imports(p) if m in FORBIDDEN]
    assert bad == []
