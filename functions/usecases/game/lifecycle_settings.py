"""The lifecycle settings a game is created with, checked once (docs/api.md "Create a game").

- ``draw_votes``: ``"secret"`` (default) or ``"public"``.
- ``max_year``: the game ends as a draw of the survivors after that year (none by default).
- ``nmr_extensions`` (default 0), ``civil_disorder_after`` (default 2, 0 = never).
- ``dummy_powers``: at most six (one power fewer than the map has), never joinable.
- ``demo``: one seat for the creator (``demo_power``, default a random power), every
  other power a dummy that plays ``engine.simple_ai`` orders.
- ``deadline_at``: deadlines at a wall-clock time (functions/usecases/game/deadline_grid.py).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import engine
from functions.errors import UnknownPower, ValidationFailed
from functions.usecases.game.deadline_grid import check_grid

MAX_DUMMIES = 6


@dataclass(frozen=True)
class LifecycleSettings:
    """How a game ends and treats missing players (draws, year limit, NMR, dummies, demo)."""

    draw_votes: str = "secret"
    max_year: int | None = None
    nmr_extensions: int = 0
    civil_disorder_after: int = 2
    dummy_powers: tuple[str, ...] = ()
    demo: bool = False
    demo_power: str | None = None
    deadline_at: dict[str, Any] | None = None


def check_dummies(powers: Sequence[str], the_map: engine.MapData) -> list[str]:
    """Upper-cased, sorted, known powers, at most six and never every power."""
    wanted = sorted({p.upper() for p in powers})
    known = set(the_map.power_ids)
    unknown = [p for p in wanted if p not in known]
    if unknown:
        raise UnknownPower(f"no power {', '.join(unknown)} in this variant")
    if len(wanted) > min(MAX_DUMMIES, len(known) - 1):
        raise ValidationFailed(f"at most {min(MAX_DUMMIES, len(known) - 1)} dummy powers")
    return wanted


def settings_for(request: LifecycleSettings, the_map: engine.MapData) -> tuple[dict[str, Any], str | None]:
    """(settings to store, the demo creator's power or None)."""
    if request.draw_votes not in ("secret", "public"):
        raise ValidationFailed('draw_votes is "secret" or "public"')
    if request.max_year is not None and request.max_year < the_map.start_year:
        raise ValidationFailed(f"max_year must be {the_map.start_year} or later")
    if request.nmr_extensions < 0 or request.civil_disorder_after < 0:
        raise ValidationFailed("nmr_extensions and civil_disorder_after must not be negative")
    out: dict[str, Any] = {
        "draw_votes": request.draw_votes,
        "nmr_extensions": request.nmr_extensions,
        "civil_disorder_after": request.civil_disorder_after,
    }
    if request.max_year is not None:
        out["max_year"] = request.max_year
    seat: str | None = None
    if request.demo:
        if request.dummy_powers:
            raise ValidationFailed("a demo game chooses its dummies: give demo_power, not dummy_powers")
        powers = sorted(the_map.power_ids)
        seat = (request.demo_power or secrets.choice(powers)).upper()
        if seat not in powers:
            raise UnknownPower(f"no power {request.demo_power!r} in this variant")
        out["demo"] = True
        out["dummy_powers"] = [p for p in powers if p != seat]
    elif request.demo_power:
        raise ValidationFailed("demo_power needs demo: true")
    elif request.dummy_powers:
        out["dummy_powers"] = check_dummies(request.dummy_powers, the_map)
    if request.deadline_at is not None:
        out["deadline_at"] = check_grid(request.deadline_at)
    return out, seat
