"""House rule (ARCHITECTURE §1): engine/ imports only the standard library and itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
ALLOWED = set(sys.stdlib_module_names) | {"engine", "__future__"}
# I/O the engine must never do: its only file read is its own packaged map data.
FORBIDDEN = {"socket", "subprocess", "urllib", "http", "sqlite3", "logging", "threading", "asyncio"}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append(node.module)
    return out


def test_engine_imports_only_the_standard_library() -> None:
    bad = [
        f"{p.relative_to(ENGINE.parent)} imports {m}"
        for p in sorted(ENGINE.rglob("*.py"))
        for m in _imports(p)
        if m.split(".")[0] not in ALLOWED
    ]
    assert bad == []


def test_engine_does_no_io() -> None:
    bad = [
        f"{p.relative_to(ENGINE.parent)} imports {m}"
        for p in sorted(ENGINE.rglob("*.py"))
        for m in _imports(p)
        if m.split(".")[0] in FORBIDDEN
    ]
    assert bad == []


def test_the_check_itself_catches_a_third_party_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import boto3\nfrom pydantic import BaseModel\nimport json\n")
    assert [m for m in _imports(sample) if m.split(".")[0] not in ALLOWED] == ["boto3", "pydantic"]
