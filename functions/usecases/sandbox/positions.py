"""The sandbox's position (issue 19): a position as sent (the engine's JSON state, or the
compact notation of shared/seeds/compact-notation.txt plus a phase name) read into the
engine's state, or refused with ``BAD_POSITION`` / ``UNKNOWN_VARIANT``
(functions/usecases/sandbox/sandbox.py says which and why)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import engine
from functions.errors import BadPosition, UnknownVariant
from functions.usecases.game import game_map

_PHASE = re.compile(r"([SFW])(\d{1,4})([MRA])")


@dataclass(frozen=True)
class PositionRequest:
    """A position as sent: exactly one of ``state`` (engine JSON) and ``compact`` (text)."""

    variant: str = "classical"
    rules: str = "2023"
    state: Mapping[str, Any] | None = None
    compact: str | None = None
    phase: str | None = None  # compact only: "S1901M"; default the variant's first phase


@dataclass(frozen=True)
class Position:
    map: engine.MapData
    rules: engine.Rulebook
    state: engine.GameState


def _rulebook(name: str) -> engine.Rulebook:
    try:
        return engine.get_rulebook(name)
    except KeyError as exc:
        raise UnknownVariant(
            f"unknown rulebook {name!r}; known: {', '.join(sorted(engine.RULEBOOKS))}"
        ) from exc


def _phase(text: str | None, the_map: engine.MapData) -> tuple[int, engine.Season, engine.PhaseType | None]:
    if text is None:
        return the_map.start_year, the_map.start_season, None
    found = _PHASE.fullmatch(text.strip().upper())
    if found is None:
        raise BadPosition(f"phase {text!r} is not a phase name like S1901M, F1901R or W1901A")
    # looked up here, not in module tables: reading engine names at import would load the
    # engine in every API cold start (the lazy facade, engine/__init__.py)
    seasons = {"S": engine.Season.SPRING, "F": engine.Season.FALL, "W": engine.Season.WINTER}
    kinds = {"M": engine.PhaseType.MOVEMENT, "R": engine.PhaseType.RETREAT, "A": engine.PhaseType.ADJUSTMENT}
    return int(found[2]), seasons[found[1]], kinds[found[3]]


def _state(request: PositionRequest, the_map: engine.MapData) -> engine.GameState:
    if (request.state is None) == (request.compact is None):
        raise BadPosition("send exactly one of state (the JSON state) and compact (the compact notation)")
    if request.state is not None:
        if request.phase is not None:
            raise BadPosition("phase goes with compact only: a JSON state names its own phase")
        try:
            return engine.state_from_dict(request.state)
        except ValueError as exc:
            raise BadPosition(f"state: {exc}") from exc
    year, season, kind = _phase(request.phase, the_map)
    try:
        return engine.parse_compact_state(
            request.compact or "", the_map, year=year, season=season, phase_type=kind
        )
    except engine.OrderSyntaxError as exc:
        raise BadPosition(f"compact: {exc}") from exc


def _check(state: engine.GameState, the_map: engine.MapData) -> None:
    """What a value type alone cannot know: the map (engine ``check_state``) and the phase."""
    try:
        engine.Game(map=the_map, state=state)  # runs check_state: known provinces, kinds, coasts
    except ValueError as exc:
        raise BadPosition(str(exc)) from exc
    strangers = sorted(set(state.ownership.values()) - set(the_map.power_ids))
    if strangers:
        raise BadPosition(f"owners that are not powers of {the_map.map_id}: {', '.join(strangers)}")
    if state.dislodged and state.phase_type is not engine.PhaseType.RETREAT:
        raise BadPosition(f"dislodged units in {state.phase_name}: only a retreat phase has them")
    if state.winner is not None and state.winner not in the_map.power_ids:
        raise BadPosition(f"winner {state.winner!r} is not a power of {the_map.map_id}")
    on_board = {u.province for u in state.units}
    clashing = sorted(d.unit.province for d in state.dislodged if d.unit.province not in on_board)
    if clashing:
        raise BadPosition(f"a dislodged unit's province must hold its dislodger: {', '.join(clashing)}")


def read_position(request: PositionRequest) -> Position:
    """The request's map, rulebook and state, each checked; ``BAD_POSITION`` otherwise."""
    the_map = game_map(request.variant)
    rules = _rulebook(request.rules)
    state = _state(request, the_map)
    _check(state, the_map)
    return Position(the_map, rules, state)
