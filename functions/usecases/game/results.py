"""How a game ended: the ``result`` record, and its scores under two common systems.

A result is stored as plain JSON without floats (DynamoDB stores no floats here):
``{"kind", "winners", "centers", "final_phase", "ended_at"}``. Scores are derived from
it on every read (``with_scores``), so they can never disagree with the centre counts.

Kinds (docs/rules.md "How a game ends"):
- ``solo``: the map's victory rule (engine); the one winner.
- ``draw``: every active power voted for a draw (DIAS: the draw includes all survivors).
- ``concession``: every active power but one conceded; that one wins.
- ``year_limit``: ``max_year`` was reached; a draw among the survivors.
- ``abandoned``: no active power is left (every seat open or in civil disorder); unscored.

Scores (every power of the map gets a number, survivors or not; 100 points per game):
- ``sum_of_squares``: a winner alone scores 100; in a draw each survivor scores
  100 * centres² / Σ centres² of the survivors (the "Sum of Squares" system).
- ``draw_size``: a winner alone scores 100; in a draw the 100 points split equally
  among the draw's members (the classic "draw-based" system).
An abandoned game scores 0 for everyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import engine
from engine.scoring import score

KINDS = ("solo", "draw", "concession", "year_limit", "abandoned")
SOLE_WINNER = ("solo", "concession")


def center_counts(state: engine.GameState, the_map: engine.MapData) -> dict[str, int]:
    """Supply centres per power of the map (0 for a power that owns none)."""
    owned = state.center_counts
    return {p: int(owned.get(p, 0)) for p in sorted(the_map.power_ids)}


def survivors(state: engine.GameState, the_map: engine.MapData) -> list[str]:
    """Powers still in the game: owning a centre or having a unit on the board."""
    with_units = {u.power for u in state.units}
    counts = center_counts(state, the_map)
    return sorted(p for p in the_map.power_ids if counts[p] > 0 or p in with_units)


def make_result(
    kind: str, winners: Iterable[str], state: engine.GameState, the_map: engine.MapData,
    final_phase: str | None, ended_at: str,
) -> dict[str, Any]:
    """The stored result record (no floats)."""
    assert kind in KINDS, kind
    return {
        "kind": kind,
        "winners": sorted(winners),
        "centers": center_counts(state, the_map),
        "final_phase": final_phase,
        "ended_at": ended_at,
    }


def scores(result: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """``{"sum_of_squares": {power: points}, "draw_size": {power: points}}`` of a result."""
    centers: Mapping[str, int] = result.get("centers") or {}
    winners = list(result.get("winners") or [])
    zero = {p: 0.0 for p in sorted(centers)}
    if result.get("kind") == "abandoned" or not winners:
        return {"sum_of_squares": dict(zero), "draw_size": dict(zero)}
    if result.get("kind") in SOLE_WINNER:
        sole = {**zero, winners[0]: 100.0}
        return {"sum_of_squares": sole, "draw_size": dict(sole)}
    squares = sum(int(centers.get(p, 0)) ** 2 for p in winners)
    sos = dict(zero)
    size = dict(zero)
    for p in winners:
        share = int(centers.get(p, 0)) ** 2 / squares if squares else 1 / len(winners)
        sos[p] = round(100.0 * share, 3)
        size[p] = round(100.0 / len(winners), 3)
    return {"sum_of_squares": sos, "draw_size": size}


def with_scores(result: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The result as the API shows it: the stored record plus its ``scores``."""
    if result is None:
        return None
    found = scores(result)
    chosen = result.get("scoring")  # issue 34: the game's own system, beside the two shown always
    if chosen and chosen not in found:
        found[str(chosen)] = score(str(chosen), result)
    return {**result, "scores": found}


def describe(result: Mapping[str, Any]) -> str:
    """One line for notifications: "a draw between FRANCE, GERMANY"."""
    winners = ", ".join(result.get("winners") or [])
    kind = result.get("kind")
    if kind == "solo":
        return f"{winners} wins"
    if kind == "concession":
        return f"{winners} wins by concession"
    if kind == "draw":
        return f"a draw between {winners}"
    if kind == "year_limit":
        return f"the year limit was reached: a draw between {winners}"
    return "the game was abandoned"
