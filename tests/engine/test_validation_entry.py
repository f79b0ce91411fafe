"""One way into validation (issue 30 item 5): ``engine.validation.check`` is the only check;
order entry (``validate``), the menus and the adjudicator all go through it.

In the movement phase ``check`` asks which province is unknown only of an order the rules
refused: that is right only if the movement rules refuse every order naming a province the
map lacks, whatever the rest of the order says, without failing on the unknown name. These
tests hold it to that, field by field, for every unit of the starting position.
"""

from __future__ import annotations

import pytest

import engine
from engine import ErrorCode, Location, validate
from engine.types import ARMY, Convoy, Hold, Move, Order, SupportHold, SupportMove

CLASSICAL = engine.load_map("classical")
START = engine.Game(map=CLASSICAL).current
NOWHERE = Location("XYZ")


def orders_naming_nowhere() -> list[Order]:
    """For each starting unit, every movement order shape with one field set to a province
    the map lacks (and the others pointing at real places next to it)."""
    out: list[Order] = []
    for unit in sorted(START.units):
        here, power = unit.location, unit.power
        near = Location(sorted(CLASSICAL.support_reach(unit))[0])
        out += [
            Hold(power, NOWHERE),
            Move(power, here, NOWHERE),
            Move(power, here, NOWHERE, via_convoy=True),
            Move(power, NOWHERE, near),
            SupportHold(power, here, NOWHERE),
            SupportMove(power, here, NOWHERE, near),
            SupportMove(power, here, near, NOWHERE),
            Convoy(power, here, NOWHERE, near),
            Convoy(power, here, near, NOWHERE),
        ]
    return out


@pytest.mark.parametrize("order", orders_naming_nowhere(), ids=str)
def test_an_order_naming_an_unknown_province_is_refused_as_such(order: Order) -> None:
    result = validate(order, START, CLASSICAL)
    assert not result.ok
    assert result.code is ErrorCode.UNKNOWN_PROVINCE, result


def test_a_wrong_power_is_said_before_an_unknown_province() -> None:
    """The request-level tests keep their order: game, phase, power, then provinces."""
    result = validate(Move("ATLANTIS", Location("PAR"), NOWHERE, kind=ARMY), START, CLASSICAL)
    assert result.code is ErrorCode.UNKNOWN_POWER


def test_the_engine_has_one_check_and_no_shortcut_into_its_movement_part() -> None:
    """``validate`` is ``check`` in a position of its own; the movement part is private."""
    from engine import validation

    assert not hasattr(validation, "check_movement")
    order = Move("FRANCE", Location("PAR"), Location("BUR"), kind=ARMY)
    assert validate(order, START, CLASSICAL).order == validation.check(
        order, engine.position.Position(START, CLASSICAL))


def test_quick_init_is_kept_only_where_it_pays() -> None:
    """Issue 30 item 5: the generated ``__init__`` stays on the five movement order classes
    (the menus make them by the hundred; docs/performance.md) and nowhere else, and the
    values it makes stay frozen."""
    import dataclasses

    from engine import types

    generated = {name for name, cls in vars(types).items()
                 if isinstance(cls, type) and dataclasses.is_dataclass(cls)
                 and any(n.startswith("_set_") for n in cls.__init__.__code__.co_names)}
    assert generated == {"Hold", "Move", "SupportHold", "SupportMove", "Convoy"}
    move = Move("FRANCE", Location("PAR"), Location("BUR"))
    assert move == Move("FRANCE", Location("PAR"), Location("BUR"), False, None)
    field = "via_convoy"  # by name: the type checker knows the attribute is read-only
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(move, field, True)
