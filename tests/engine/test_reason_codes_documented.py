"""The closed sets of docs/rules.md "Why an order ended as it did" are the engine's.

The API's schemas may not import the engine (tests/contracts/test_boundaries.py), so the
codes a client may meet — reason codes, decisions, strength kinds, unit roles, note kinds —
are documented in docs/rules.md; this test holds that page to engine/reasons.py, both ways.
"""

from __future__ import annotations

import re
from pathlib import Path

from engine.reasons import REASON_CODES, Decision, Role, StrengthKind
from engine.types import NoteKind

RULES = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")
SECTION = RULES.split("## Why an order ended as it did", 1)[1].split("\n## ", 1)[0]


def _table_codes() -> set[str]:
    """The third column of the reason table: one code per row."""
    codes = set()
    for row in SECTION.splitlines():
        cells = [c.strip() for c in row.split("|")]
        if len(cells) > 4 and re.fullmatch(r"`[A-Z_]+`", cells[3]):
            codes.add(cells[3].strip("`"))
    return codes


def test_every_reason_code_is_documented_and_nothing_else() -> None:
    assert _table_codes() == set(REASON_CODES)


def test_decisions_strengths_roles_and_notes_are_documented() -> None:
    for word in [*Decision, *StrengthKind, *Role, *NoteKind]:
        assert f"`{word}`" in SECTION or f"`{word}`" in RULES, word
