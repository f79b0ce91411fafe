"""Deadlines at a time of day: ``deadline_at`` = ``{"time": "20:00", "zone": "Europe/Berlin",
"every_days": {"MOVEMENT": 1, "RETREAT": 1, "ADJUSTMENT": 1}, "min_gap_minutes": 60}``.

A phase that starts at ``start`` gets as its deadline the first ``time`` in ``zone``
that is at least ``(every_days[phase type] - 1)`` days plus ``min_gap_minutes``
(default 60) after ``start``. So with ``every_days`` 1 a phase processed at 20:00 is
due the next day at 20:00, and a phase processed early (at 15:00) is still due at
20:00: early processing keeps the grid instead of shifting it.

Wall-clock arithmetic is done per calendar day in the zone (standard-library
``zoneinfo``), so a deadline stays at 20:00 local time across DST changes (its UTC
time moves by an hour). A time that does not exist that day (inside a spring-forward
gap) is read with the offset before the change, i.e. it falls an hour later in
wall-clock terms; a time that happens twice (fall-back) is the first of the two.
Pure: no clock, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from engine import PhaseType
from functions.errors import ValidationFailed

# the phase types a grid or a phase length may name: the engine's, so a new one reaches every check
PHASE_TYPES: tuple[str, ...] = tuple(t.value for t in PhaseType)
DEFAULT_GAP_MINUTES = 60
_TIME = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")


def check_grid(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The stored, normalised form of a ``deadline_at`` request (``VALIDATION_ERROR`` if bad)."""
    text = str(spec.get("time", ""))
    if not _TIME.match(text):
        raise ValidationFailed('deadline_at.time is "HH:MM" (24-hour clock)')
    zone = str(spec.get("zone", ""))
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationFailed(f"deadline_at.zone {zone!r} is not an IANA time zone") from exc
    given = dict(spec.get("every_days") or {})
    unknown = sorted(set(given) - set(PHASE_TYPES))
    if unknown:
        raise ValidationFailed(f"deadline_at.every_days keys must be among {', '.join(PHASE_TYPES)}")
    every = {p: int(given.get(p, 1)) for p in PHASE_TYPES}
    if any(not 1 <= n <= 30 for n in every.values()):
        raise ValidationFailed("deadline_at.every_days values are whole days from 1 to 30")
    gap = int(spec.get("min_gap_minutes", DEFAULT_GAP_MINUTES))
    if not 0 <= gap <= 24 * 60:
        raise ValidationFailed("deadline_at.min_gap_minutes is from 0 to 1440")
    return {"time": text, "zone": zone, "every_days": every, "min_gap_minutes": gap}


def grid_deadline(spec: Mapping[str, Any], phase_type: str, start: datetime) -> datetime:
    """The deadline (UTC) of a ``phase_type`` phase starting at ``start`` (aware)."""
    zone = ZoneInfo(str(spec["zone"]))
    hours, minutes = (int(x) for x in str(spec["time"]).split(":"))
    days = int((spec.get("every_days") or {}).get(phase_type, 1))
    gap = int(spec.get("min_gap_minutes", DEFAULT_GAP_MINUTES))
    earliest = start + timedelta(days=days - 1, minutes=gap)
    day = earliest.astimezone(zone).date() - timedelta(days=1)
    while True:
        candidate = datetime.combine(day, time(hours, minutes), tzinfo=zone).astimezone(UTC)
        if candidate >= earliest:
            return candidate
        day += timedelta(days=1)
