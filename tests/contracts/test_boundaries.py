"""Import direction and cold-start hygiene (shared/ARCHITECTURE.md §1, STYLE.md §8)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports(folder: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_use_cases_have_no_boto3_and_no_event_shapes() -> None:
    for path, names in _imports("functions/usecases").items():
        assert not names & {"boto3", "botocore", "aws_lambda_powertools", "pydantic"}, path


def test_infra_never_imports_functions() -> None:
    for path, names in _imports("infra").items():
        assert "functions" not in names or path.startswith("infra/local"), path


def test_importing_the_api_handler_builds_no_client() -> None:
    code = (
        "import sys, functions.api.handler as h, infra.aws_clients as c, functions.wiring as w;"
        "assert not c._clients and w._services is None; print('ok')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert result.stdout.strip() == "ok", result.stderr
