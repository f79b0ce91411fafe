"""House rule (COMMON brief): the drawing core of render/ is pure, like engine/.

Only render/png.py may import native libraries (resvg and Pillow, lazily); render/tools/ are authoring
scripts run by hand and are never imported by the package.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

RENDER = Path(__file__).resolve().parents[2] / "render"
ALLOWED = set(sys.stdlib_module_names) | {"engine", "render", "__future__"}
BRIDGES = {"png.py": {"resvg", "PIL"}}


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_render_core_imports_only_the_standard_library_engine_and_itself() -> None:
    bad = {
        path.name: sorted(_imports(path) - ALLOWED - BRIDGES.get(path.name, set()))
        for path in sorted(RENDER.glob("*.py"))
    }
    assert {name: found for name, found in bad.items() if found} == {}


def test_the_package_never_imports_its_authoring_tools() -> None:
    for path in sorted(RENDER.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "render.tools" not in text, path
