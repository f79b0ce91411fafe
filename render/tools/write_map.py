"""Compile an adjacency sheet and write it as a packaged map. Run by hand:

    python -m render.tools.write_map sheet.json          # writes engine/maps/<map_id>.json

Every problem ``engine.maps.draft.compile_draft`` finds is printed and nothing is written
until there are none. The file is laid out as the packaged maps are (one record a line), so a
review reads one changed adjacency as one changed line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.maps.draft import compile_draft

ROOT = Path(__file__).resolve().parents[2]


def dump_map(data: dict[str, Any]) -> str:
    """Top-level keys one a line; each record of a list of records on its own line."""
    lines = []
    for key, value in data.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            records = ",\n".join(f"    {_one(v)}" for v in value)
            lines.append(f'  "{key}": [\n{records}\n  ]')
        elif isinstance(value, dict) and key == "rules":
            inner = ",\n".join(f'    "{k}": {_one(v)}' for k, v in value.items())
            lines.append(f'  "{key}": {{\n{inner}\n  }}' if inner else f'  "{key}": {{}}')
        else:
            lines.append(f'  "{key}": {_one(value)}')
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _one(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def write(sheet: dict[str, Any]) -> bool:
    data, problems = compile_draft(sheet)
    for problem in problems:
        print(f"{problem.code:28} {problem.culprit:16} {problem.message}")
    if problems:
        return False
    path = ROOT / "engine" / "maps" / f"{data['map_id']}.json"
    path.write_text(dump_map(data), encoding="utf-8")
    print(f"wrote {path}")
    return True


def main(argv: list[str]) -> None:
    with open(argv[0], encoding="utf-8") as handle:
        ok = write(json.load(handle))
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
