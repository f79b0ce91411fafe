"""``check_state``: what a value type alone cannot know, the map decides (ARCHITECTURE §2:
units stand where their kind may; only supply centres are owned). A good position checked
first must not make a later bad one pass, and a unit is checked against the map asked."""

from __future__ import annotations

import pytest

from engine.game import Game, initial_state
from engine.maps.loader import load_map
from engine.types import GameState, Location, Ownership, PhaseType, Season, Unit, UnitKind
from engine.validation import check_state

CLASSICAL = load_map("classical")
A, F = UnitKind.ARMY, UnitKind.FLEET


def position(*units: Unit, ownership: dict[str, str] | None = None) -> GameState:
    return GameState(1901, Season.SPRING, PhaseType.MOVEMENT, frozenset(units), Ownership(ownership or {}))


@pytest.mark.parametrize(("unit", "why"), [
    (Unit(A, "FRANCE", Location("NTH")), "cannot stand there"),  # an army at sea
    (Unit(F, "FRANCE", Location("PAR")), "cannot stand there"),  # a fleet inland
    (Unit(F, "FRANCE", Location("SPA")), "cannot stand there"),  # a split coast, no coast named
    (Unit(A, "NARNIA", Location("PAR")), "unknown power"),
])
def test_a_unit_that_cannot_stand_is_refused_after_good_positions(unit: Unit, why: str) -> None:
    Game(map=CLASSICAL, state=initial_state(CLASSICAL))  # fills the memo with the start
    check_state(position(Unit(A, "FRANCE", Location("BUR"))), CLASSICAL)
    with pytest.raises(ValueError, match=why):
        check_state(position(Unit(A, "FRANCE", Location("BUR")), unit), CLASSICAL)
    check_state(position(Unit(A, "FRANCE", Location("BUR"))), CLASSICAL)  # still accepted


def test_owning_what_is_not_a_supply_centre_is_refused_with_known_units() -> None:
    start = initial_state(CLASSICAL)
    check_state(start, CLASSICAL)
    with pytest.raises(ValueError, match="BUR is not a supply centre"):
        check_state(GameState(1901, Season.SPRING, PhaseType.MOVEMENT, start.units,
                              Ownership({"BUR": "FRANCE"})), CLASSICAL)


def test_a_unit_is_checked_against_the_map_asked() -> None:
    """A unit standing on one map is checked afresh on another: the 1900 variant's British
    power is not Classical's England, so England's army in London is refused there."""
    variant = load_map("1900")
    assert "ENGLAND" not in variant.powers
    ok_on_classical = position(Unit(A, "ENGLAND", Location("LON")))
    check_state(ok_on_classical, CLASSICAL)
    with pytest.raises(ValueError, match="unknown power ENGLAND"):
        check_state(ok_on_classical, variant)
