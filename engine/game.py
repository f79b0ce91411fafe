"""The phase sequence: ``Game.adjudicate`` is the only way a game moves on.

A phase is a pipeline of named steps (keep valid orders, resolve, next phase,
ownership update after Fall, skip empty retreat/adjustment phases, victory).
Each step returns new values; nothing is mutated. Missing orders get the
defaults of the rules: units hold, dislodged units disband, builds are waived,
removals follow the rulebook's civil-disorder rule.

No phase is opened in which nobody can order (docs/rules.md, "Phases nobody orders
in"): a dislodged unit with nowhere to retreat is disbanded at once (the rulebook's
retreat rules), so a retreat phase is opened only for units that can retreat; a
winter is opened only when some power must remove a unit or has a build it can
place (``engine.legal.powers_with_orders_to_give``, whose build check is
``engine.allowance.build_sites``). What was skipped is told in the resolution's
``notes``, so a server can show it to the players.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from engine.adjustments import resolve_adjustments
from engine.allowance import balances
from engine.legal import powers_with_orders_to_give
from engine.maps.loader import MapData
from engine.movement import resolve_movement
from engine.retreats import resolve_retreats
from engine.rulebook import Rulebook, get_rulebook
from engine.types import (
    ADJUSTMENT,
    COMPLETED,
    MOVEMENT,
    RETREAT,
    SEASON_LETTER,
    DislodgedUnit,
    GameState,
    NoteKind,
    Order,
    Ownership,
    PhaseNote,
    PhaseType,
    Resolution,
    Season,
    Unit,
)
from engine.validation import check_state


def initial_state(map: MapData) -> GameState:
    """The map's starting position (S1901M on Classical)."""
    return GameState(
        year=map.start_year,
        season=map.start_season,
        phase_type=map.start_phase,
        units=map.starting_units,
        ownership=map.starting_ownership,
    )


@dataclass(frozen=True, eq=False, slots=True)
class Game:
    """A state with its map and rulebook, plus the snapshots of phases already played."""

    map: MapData
    state: GameState | None = None
    rules: Rulebook | str = "2023"
    history: tuple[GameState, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", get_rulebook(self.rules))
        if self.state is None:
            object.__setattr__(self, "state", initial_state(self.map))
        else:
            check_state(self.state, self.map)

    @property
    def rulebook(self) -> Rulebook:
        return self.rules  # type: ignore[return-value]  # set in __post_init__

    @property
    def current(self) -> GameState:
        return self.state  # type: ignore[return-value]  # set in __post_init__

    def adjudicate(self, orders: Mapping[str, Iterable[Order]]) -> tuple[Game, Resolution]:
        """Resolve the current phase with ``orders`` (power -> orders) and move on.

        Orders of the wrong power key, of the wrong phase, or illegal, are reported
        VOID and ignored as the DATC prescribes; this never raises on an order.
        """
        state = self.current
        if state.status is COMPLETED:
            return self, Resolution()
        flat = [o for power, given in sorted(orders.items()) for o in given if o.power == power]
        notes: tuple[PhaseNote, ...] = ()
        if state.phase_type is MOVEMENT:
            outcome = resolve_movement(state, flat, self.map, self.rulebook)
            results = outcome.results
            notes = disbanded_notes(state, outcome.disbanded)
            if outcome.dislodged:
                nxt = replace(state, units=outcome.units, phase_type=RETREAT,
                              dislodged=outcome.dislodged, contested=outcome.contested)
            else:
                if outcome.disbanded:
                    notes += (no_retreat_phase(state, outcome.disbanded),)
                nxt, skipped = next_phase(state, self.map, outcome.units)
                notes += skipped
        elif state.phase_type is RETREAT:
            units, results = resolve_retreats(state, flat, self.map, self.rulebook)
            nxt, notes = next_phase(state, self.map, units)
        else:
            units, results = resolve_adjustments(state, flat, self.map, self.rulebook)
            nxt, notes = next_phase(state, self.map, units)
        following = Game(map=self.map, state=nxt, rules=self.rules, history=(*self.history, state))
        return following, Resolution(tuple(results), notes)


def next_phase(
    state: GameState, map: MapData, units: frozenset[Unit]
) -> tuple[GameState, tuple[PhaseNote, ...]]:
    """The phase after ``state``, whose resolution left ``units`` on the board (and
    dislodged nothing that can retreat: that movement phase goes to its retreat phase),
    with a note when a winter was skipped although a power was owed builds.

    S M -> (S R) -> F M -> (F R) -> ownership update, victory -> W A (only when someone
    must remove a unit or can place a build) -> S M of the next year (ARCHITECTURE §2).
    """
    if state.season is Season.SPRING:
        return _after(state, units, state.ownership, Season.FALL, MOVEMENT), ()
    if state.season is Season.WINTER:
        return _after(state, units, state.ownership, Season.SPRING, MOVEMENT, year=state.year + 1), ()
    centres = update_ownership(units, state.ownership, map)
    owned = _after(state, units, centres, state.season, state.phase_type)
    winner = solo_winner(owned, map)
    if winner is not None:
        return replace(owned, status=COMPLETED, winner=winner), ()
    due = {p: n for p, n in balances(owned, map).items() if n}
    if due:
        winter = replace(owned, season=Season.WINTER, phase_type=ADJUSTMENT)
        if powers_with_orders_to_give(winter, map):
            return winter, ()
        spring = replace(owned, year=state.year + 1, season=Season.SPRING, phase_type=MOVEMENT)
        return spring, (no_winter(winter, due),)
    return replace(owned, year=state.year + 1, season=Season.SPRING, phase_type=MOVEMENT), ()


# --- what was skipped, told ------------------------------------------------------------------


def disbanded_notes(state: GameState, gone: tuple[DislodgedUnit, ...]) -> tuple[PhaseNote, ...]:
    """One note per dislodged unit that had nowhere to retreat and was disbanded at once."""
    phase = f"{SEASON_LETTER[state.season]}{state.year}R"
    return tuple(
        PhaseNote(NoteKind.DISBANDED, phase, (d.unit.power,), (str(d.unit),),
                  f"{d.unit} ({d.unit.power.title()}) was dislodged with nowhere to retreat and was "
                  "disbanded at once.")
        for d in gone
    )


def no_retreat_phase(state: GameState, gone: tuple[DislodgedUnit, ...]) -> PhaseNote:
    phase = f"{SEASON_LETTER[state.season]}{state.year}R"
    units = tuple(str(d.unit) for d in gone)
    powers = tuple(sorted({d.unit.power for d in gone}))
    return PhaseNote(NoteKind.PHASE_SKIPPED, phase, powers, units,
                     f"No retreat phase {phase}: no dislodged unit had anywhere to retreat, so each was "
                     "disbanded at once.")


def no_winter(winter: GameState, due: dict[str, int]) -> PhaseNote:
    """A winter in which the only adjustments due were builds nobody could place."""
    owed = [f"{p.title()} ({n} build{'s' if n > 1 else ''})" for p, n in sorted(due.items())]
    who = owed[0] if len(owed) == 1 else ", ".join(owed[:-1]) + " and " + owed[-1]
    verb = "has" if len(owed) == 1 else "have"
    return PhaseNote(NoteKind.PHASE_SKIPPED, winter.phase_name, tuple(sorted(due)), (),
                     f"No adjustment phase {winter.phase_name}: nobody must remove a unit, and {who} "
                     f"{verb} nowhere a unit may be built; the builds are lost.")


def _after(
    state: GameState, units: frozenset[Unit], ownership: Ownership, season: Season,
    phase_type: PhaseType, year: int | None = None,
) -> GameState:
    """``state`` moved on to ``season``'s ``phase_type`` with ``units`` and ``ownership``,
    the retreat's leftovers cleared (one constructor call: ``replace`` is slow)."""
    return GameState(state.year if year is None else year, season, phase_type, units, ownership,
                     (), frozenset(), state.status, state.winner)


def update_ownership(units: Iterable[Unit], ownership: Ownership, map: MapData) -> Ownership:
    """After Fall (and its retreats) a supply centre belongs to the power occupying it."""
    owned = dict(ownership)
    centres = map.supply_centers
    for unit in units:
        if unit.province in centres:
            owned[unit.province] = unit.power
    return Ownership.normalized(owned)


def solo_winner(state: GameState, map: MapData) -> str | None:
    """The map's victory rule: enough centres and (if set) strictly more than anyone else."""
    counts = sorted(
        ((state.center_counts.get(p, 0), p) for p in map.power_ids), reverse=True
    )
    if not counts:
        return None
    best, power = counts[0]
    if best < map.victory.solo_supply_centers:
        return None
    strict = map.victory.strictly_more_than_any_other
    if strict and len(counts) > 1 and counts[1][0] == best:
        return None
    return power
