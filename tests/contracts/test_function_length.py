"""No function of ours is longer than 60 lines (issue 30, "Done when").

A long function is several steps that have no names: splitting it into helpers that read as
steps says what each part is for, and lets a reader stop at the step they need. The length is
the one ``ast`` gives, ``end_lineno - lineno + 1``: from the ``def`` line (decorators not
counted) to the body's last line, its docstring, comments and nested functions included. Every
function is counted, nested ones and methods too, in every package of ours, the tests among them.

The only exceptions are the ``EXCUSED`` ones, each with its reason; the list is meant to hold
nothing but true data tables (a function whose body is one literal). An excuse that no longer
applies fails the test as well, so the list cannot outlive its reason.
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "render", "backgammon", "daide_bridge", "deploy", "community", "functions", "infra",
            "composition", "bench", "testkit", "tests", "local_stack")
LIMIT = 60

# "path:qualified name" -> why it may be longer
EXCUSED: dict[str, str] = {}


def long_functions(source: str, limit: int = LIMIT) -> dict[str, int]:
    """{qualified name: lines} of every function in ``source`` longer than ``limit`` lines."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    assert child.end_lineno is not None  # always set by ast.parse
                    lines = child.end_lineno - child.lineno + 1
                    if lines > limit:
                        found[name] = lines
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(source), "")
    return found


def _too_long() -> dict[str, int]:
    """{"path:qualified name": lines} over every package of ours."""
    found: dict[str, int] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT).as_posix()
            found.update({f"{where}:{name}": n for name, n in long_functions(path.read_text()).items()})
    return found


def test_every_package_named_here_exists() -> None:
    """A package renamed or moved would otherwise drop out of the count without a word."""
    assert [p for p in PACKAGES if not (ROOT / p / "__init__.py").is_file()] == []


def test_no_function_is_longer_than_60_lines() -> None:
    too_long = _too_long()
    unexcused = [f"{name}: {n} lines" for name, n in sorted(too_long.items()) if name not in EXCUSED]
    assert unexcused == [], "split these into steps with names:\n" + "\n".join(unexcused)


def test_every_excuse_is_still_needed() -> None:
    too_long = _too_long()
    assert [name for name in EXCUSED if name not in too_long] == [], "remove these from EXCUSED"


def test_the_count_is_the_def_line_to_the_last_line_of_nested_functions_and_methods() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(59))
    source = (
        f"@decorator\ndef at_the_limit():\n{body}"  # 60 lines: the decorator is not counted
        f"def one_over():\n{body}    return x0\n"  # 61
        "class Holder:\n"
        f"    async def method(self):\n{textwrap.indent(body, '    ')}"
        "        def inner():\n            return 1\n"  # method: 62 lines, inner: 2
    )
    assert long_functions(source) == {"one_over": 61, "Holder.method": 62}
