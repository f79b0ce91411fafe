"""The bounds an imported export document is checked against (functions/usecases/turns/import_replay.py):
its settings within ``POST /games``' bounds, and the small readers that refuse a wrong type
or size with ``BAD_IMPORT`` (422) instead of any other error."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import engine
from functions.errors import BadImport
from functions.usecases.game import PHASE_TYPES, check_dummies, check_grid, iso, parse_iso
from functions.usecases.turns.export import EXPORTED_SETTINGS

MAX_YEAR = 3000  # max_year's bound in POST /games
MAX_SOURCE_ID = 64
# setting -> (least, most), as POST /games bounds them (functions/schemas/games.py)
SETTING_BOUNDS: dict[str, tuple[int, int]] = {
    "reminder_seconds": (0, 7 * 86400), "max_year": (1, MAX_YEAR), "nmr_extensions": (0, 10),
    "civil_disorder_after": (0, 20),
}
PHASE_SECONDS = (1, 30 * 86400)
_SOURCE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def checked_settings(given: Mapping[str, Any], the_map: engine.MapData) -> dict[str, Any]:
    """The export's allow-listed settings, each within ``POST /games``' bounds."""
    unknown = sorted(str(k)[:40] for k in set(given) - set(EXPORTED_SETTINGS))
    if unknown:
        raise BadImport(f"unknown settings: {', '.join(unknown)}")
    out: dict[str, Any] = {"private": False}  # an imported game comes back open
    seconds = as_mapping(given.get("phase_seconds") or {}, "phase_seconds")
    if set(seconds) - set(PHASE_TYPES) or not all(is_whole(v, *PHASE_SECONDS) for v in seconds.values()):
        raise BadImport(f"phase_seconds: {PHASE_SECONDS[0]} to {PHASE_SECONDS[1]} s per MOVEMENT, RETREAT, "
                        "ADJUSTMENT")
    if "phase_seconds" in given:
        out["phase_seconds"] = dict(sorted(seconds.items()))
    for name in ("auto_process", "demo"):
        if given.get(name) is not None and not isinstance(given[name], bool):
            raise BadImport(f"{name} is true or false")
    if "auto_process" in given:
        out["auto_process"] = bool(given["auto_process"])
    if given.get("demo"):
        out["demo"] = True
    if given.get("draw_votes") is not None:
        if given["draw_votes"] not in ("secret", "public"):
            raise BadImport('draw_votes is "secret" or "public"')
        out["draw_votes"] = given["draw_votes"]
    for name, (least, most) in SETTING_BOUNDS.items():
        if given.get(name) is not None:
            if not is_whole(given[name], least, most):
                raise BadImport(f"{name} is a whole number from {least} to {most}")
            out[name] = given[name]
    if given.get("dummy_powers"):
        dummies = given["dummy_powers"]
        if not isinstance(dummies, list) or len(dummies) > len(the_map.power_ids):
            raise BadImport("dummy_powers is a list of the map's powers")
        out["dummy_powers"] = check_dummies([as_text(p, "dummy_powers", 40) for p in dummies], the_map)
    if given.get("deadline_at"):
        out["deadline_at"] = check_grid(as_mapping(given["deadline_at"], "deadline_at"))
    return out


# --- small readers -----------------------------------------------------------------------------


def as_mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BadImport(f"{what} must be an object")
    return value


def as_text(value: Any, what: str, most: int) -> str:
    if not isinstance(value, str) or not value or len(value) > most:
        raise BadImport(f"{what} is a text of 1 to {most} characters")
    return value


def is_whole(value: Any, least: int, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def phase_time(value: Any, n: int) -> str:
    """An ISO time with its zone, in the store's canonical form; "" where the document does not
    know it (a game converted from a format without phase times, such as MILA's saved games)."""
    if value is None or value == "":
        return ""
    try:
        at = parse_iso(as_text(value, f"phases[{n}].processed_at", 40))
    except ValueError:
        raise BadImport(f"phases[{n}].processed_at is an ISO time") from None
    if at.tzinfo is None or not datetime(2000, 1, 2, tzinfo=at.tzinfo) <= at:
        raise BadImport(f"phases[{n}].processed_at is an ISO time with its zone, this century")
    return iso(at)


def source_id(document: Mapping[str, Any]) -> str | None:
    source = as_mapping(document.get("source") or {}, "source")
    game_id = source.get("game_id")
    if game_id is None:
        return None
    if not isinstance(game_id, str) or not _SOURCE_ID.match(game_id):
        raise BadImport(f"source.game_id is 1 to {MAX_SOURCE_ID} letters, digits, '-' or '_'")
    return game_id
