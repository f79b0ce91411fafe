"""House rule (COMMON brief, issue 18 item 1): backgammon/ imports only the standard library and
itself, and does no I/O, like engine/ (the same checks as tests/engine/test_purity.py)."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.engine.test_purity import FORBIDDEN, _imports

PACKAGE = Path(__file__).resolve().parents[2] / "backgammon"
ALLOWED = set(sys.stdlib_module_names) | {"backgammon", "__future__"}
# The terminal front end reads stdin and writes stdout through `sys` / TextIO only.
MODULES = sorted(PACKAGE.rglob("*.py"))


def test_the_package_is_where_the_check_looks() -> None:
    assert any(p.name == "step.py" for p in MODULES)


def test_backgammon_imports_only_the_standard_library() -> None:
    bad = [f"{p.name} imports {m}" for p in MODULES for m in _imports(p) if m.split(".")[0] not in ALLOWED]
    assert bad == []


def test_backgammon_does_no_io() -> None:
    bad = [f"{p.name} imports {m}" for p in MODULES for m in _imports(p) if m.split(".")[0] in FORBIDDEN]
    assert bad == []
