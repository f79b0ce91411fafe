"""JSON serialization: engine.serialization.

Source: shared/seeds/data-model.txt §2 (shapes, exact round trips,
Hypothesis-checked) and §4 (the resolution shape clients read).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import initial_state, load_map
from engine.reasons import AttackOutcome, Decision, Explanation, HoldOutcome, Role, Strength, StrengthKind
from engine.serialization import (
    location_from_str,
    location_to_str,
    order_from_dict,
    order_from_json,
    order_to_dict,
    resolution_from_dict,
    resolution_from_json,
    resolution_to_dict,
    state_from_dict,
    state_from_json,
    state_to_dict,
    to_json,
)
from engine.types import (
    Build,
    Convoy,
    Disband,
    DislodgedUnit,
    GameState,
    GameStatus,
    Hold,
    Location,
    Move,
    NoteKind,
    Order,
    OrderResult,
    Ownership,
    PhaseNote,
    PhaseType,
    Reason,
    Resolution,
    ResultCode,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
    Waive,
    unit_order,
)
from tests.engine.strategies import orders, resolutions, states

A, F = UnitKind.ARMY, UnitKind.FLEET
L = Location


def test_locations_are_their_canonical_strings() -> None:
    """data-model seed §2: a Location is "PAR" or "SPA/SC"."""
    assert location_to_str(L("PAR")) == "PAR"
    assert location_to_str(L("SPA", "SC")) == "SPA/SC"
    assert location_from_str("SPA/SC") == L("SPA", "SC")
    assert location_from_str("par") == L("PAR")
    with pytest.raises(ValueError):
        location_from_str("SPA/XX")


def test_move_shape_matches_the_seed() -> None:
    """data-model seed §4: the MOVE order shape, plus the unit letter (null when not written)."""
    d = order_to_dict(Move("FRANCE", L("PAR"), L("BUR")))
    assert d == {"type": "MOVE", "power": "FRANCE", "unit": "PAR", "dest": "BUR", "via_convoy": False,
                 "kind": None}


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (Hold("FRANCE", L("PAR"), A), {"type": "HOLD", "power": "FRANCE", "unit": "PAR", "kind": "A"}),
        (SupportHold("FRANCE", L("BRE"), L("PAR"), F, A),
         {"type": "SUPPORT_HOLD", "power": "FRANCE", "unit": "BRE", "target": "PAR", "kind": "F",
          "target_kind": "A"}),
        (SupportMove("FRANCE", L("BRE"), L("PIC"), L("BEL"), F, None),
         {"type": "SUPPORT_MOVE", "power": "FRANCE", "unit": "BRE", "origin": "PIC", "dest": "BEL",
          "kind": "F", "target_kind": None}),
        (Convoy("ENGLAND", L("NTH"), L("LON"), L("BEL"), F, A),
         {"type": "CONVOY", "power": "ENGLAND", "unit": "NTH", "origin": "LON", "dest": "BEL", "kind": "F",
          "target_kind": "A"}),
        (Retreat("FRANCE", L("SPA", "NC"), L("POR"), F),
         {"type": "RETREAT", "power": "FRANCE", "unit": "SPA/NC", "dest": "POR", "kind": "F"}),
        (Disband("FRANCE", L("PAR")), {"type": "DISBAND", "power": "FRANCE", "unit": "PAR", "kind": None}),
        (Build("RUSSIA", L("STP", "NC"), F),
         {"type": "BUILD", "power": "RUSSIA", "location": "STP/NC", "kind": "F"}),
        (Waive("RUSSIA"), {"type": "WAIVE", "power": "RUSSIA"}),
    ],
)
def test_each_order_class_writes_exactly_its_fields(order: Order, expected: dict[str, Any]) -> None:
    """data-model seed §2: each order type serializes exactly its own fields."""
    assert order_to_dict(order) == expected
    assert order_from_dict(expected) == order


def test_state_shape() -> None:
    """data-model seed §2: state_to_dict keys, sorted units and contested, enums as values."""
    state = GameState(
        1902, Season.FALL, PhaseType.RETREAT,
        units=frozenset({Unit(F, "ENGLAND", L("NTH")), Unit(A, "FRANCE", L("BUR"))}),
        ownership=Ownership({"PAR": "FRANCE"}),
        dislodged=(DislodgedUnit(Unit(A, "GERMANY", L("MUN")), "BUR", (L("RUH"), L("BOH"))),),
        contested=frozenset({"SIL", "KIE"}),
    )
    assert state_to_dict(state) == {
        "year": 1902,
        "season": "FALL",
        "phase_type": "RETREAT",
        "units": [
            {"kind": "A", "power": "FRANCE", "location": "BUR"},
            {"kind": "F", "power": "ENGLAND", "location": "NTH"},
        ],
        "ownership": {"PAR": "FRANCE"},
        "dislodged": [
            {"unit": {"kind": "A", "power": "GERMANY", "location": "MUN"}, "attacker_origin": "BUR",
             "retreats": ["BOH", "RUH"]},
        ],
        "contested": ["KIE", "SIL"],
        "status": "ACTIVE",
        "winner": None,
    }


@st.composite
def _any_units(draw: st.DrawFn) -> Unit:
    """A unit anywhere a value allows: province ids from a small alphabet, so that one id is
    often the start of another (``AB`` and ``ABA``) and coasts meet longer ids."""
    province = draw(st.text("AB1", min_size=1, max_size=3))
    coast = draw(st.sampled_from((None, "NC", "SC")))
    kind = F if coast is not None else draw(st.sampled_from((A, F)))
    return Unit(kind, draw(st.sampled_from(("FRANCE", "ITALY"))), Location(province, coast))


@given(st.lists(_any_units(), max_size=12))
def test_stored_units_are_in_unit_order(units: list[Unit]) -> None:
    """data-model seed §2 (units sorted): ``Unit.row``, the stored strings, sorts exactly as the
    units do (kind, power, province, the bare province before its coasts), so ``state_to_dict``
    sorts the rows themselves."""
    assert sorted(units, key=unit_order) == sorted(units)
    distinct = {u.province: u for u in units}.values()  # one unit a province, as a state has
    stored = state_to_dict(GameState(1901, Season.SPRING, PhaseType.MOVEMENT, units=frozenset(distinct)))
    assert [Unit(A if d["kind"] == "A" else F, d["power"], location_from_str(d["location"]))
            for d in stored["units"]] == sorted(distinct)


def test_resolution_shape() -> None:
    """data-model seed §4: {"results": [{"order", "result", "dislodged", "retreat_options", "reason"}]},
    plus (issue 31, ARCHITECTURE §8) each result's explanation and the resolution's notes."""
    attack = Strength(StrengthKind.ATTACK, "MUN", 1)
    prevent = Strength(StrengthKind.PREVENT, "PAR", 2, ("MAR",), (("BUR", ("RUH",)),))
    said = Explanation(Decision.MOVE, (attack, prevent), ((Role.OPPONENTS, ("PAR",)),), "A MUN ...")
    note = PhaseNote(NoteKind.DISBANDED, "S1901R", ("GERMANY",), ("A KIE",), "A KIE ...")
    res = Resolution((
        OrderResult(Move("GERMANY", L("MUN"), L("BUR"), False, A), ResultCode.BOUNCE, False, (),
                    Reason(AttackOutcome.PREVENTED, ("PAR",), ""), said),
        OrderResult(Hold("GERMANY", L("KIE"), A), ResultCode.DISLODGED, True, ()),
    ), (note,))
    d = resolution_to_dict(res)
    assert d["results"][0] == {
        "order": {"type": "MOVE", "power": "GERMANY", "unit": "MUN", "dest": "BUR", "via_convoy": False,
                  "kind": "A"},
        "result": "BOUNCE",
        "dislodged": False,
        "retreat_options": [],
        "reason": {"code": "PREVENTED", "units": ["PAR"], "detail": ""},
        "explanation": {
            "decision": "MOVE",
            "strengths": [
                {"kind": "ATTACK", "unit": "MUN", "value": 1, "supporters": [], "cut": [], "excluded": []},
                {"kind": "PREVENT", "unit": "PAR", "value": 2, "supporters": ["MAR"],
                 "cut": [{"unit": "BUR", "by": ["RUH"]}], "excluded": []},
            ],
            "units": {"opponents": ["PAR"]},
            "text": "A MUN ...",
        },
    }
    assert d["results"][1]["reason"] is None and d["results"][1]["explanation"] is None
    assert d["notes"] == [{"kind": "DISBANDED", "phase": "S1901R", "powers": ["GERMANY"], "units": ["A KIE"],
                           "text": "A KIE ..."}]
    assert resolution_from_dict(d) == res
    assert json.loads(to_json(res)) == d


def test_a_reason_code_outside_the_closed_set_is_refused() -> None:
    """ARCHITECTURE §8: reason codes are a closed set; reading back an unknown one fails."""
    d = resolution_to_dict(Resolution((OrderResult(Hold("GERMANY", L("KIE"), A), ResultCode.OK, False, (),
                                                   Reason(HoldOutcome.NO_ORDER)),)))
    d["results"][0]["reason"]["code"] = "STOOD_ASIDE"
    with pytest.raises(ValueError, match="STOOD_ASIDE"):
        resolution_from_dict(d)


def test_to_json_is_deterministic_and_sorted() -> None:
    """data-model seed §2: deterministic output; to_json sorts keys."""
    start = initial_state(load_map("classical"))
    shuffled = GameState(start.year, start.season, start.phase_type,
                         units=frozenset(sorted(start.units, reverse=True)),
                         ownership=Ownership(dict(reversed(list(start.ownership.items())))))
    assert to_json(shuffled) == to_json(start)
    assert list(json.loads(to_json(start))) == sorted(state_to_dict(start))
    assert state_from_json(to_json(start)) == start


def test_to_json_rejects_other_values() -> None:
    """to_json dispatches on GameState / Order / Resolution only."""
    location: Any = L("PAR")  # what an untyped caller could hand over
    with pytest.raises(TypeError):
        to_json(location)


@pytest.mark.parametrize(
    "text",
    [
        "not json", "[]", "{}", '{"type": "MOVE"}', '{"type": "JUMP", "power": "FRANCE"}',
        '{"type": "MOVE", "power": "FRANCE", "unit": "PAR", "dest": "SPA/QQ"}',
        '{"type": "BUILD", "power": "FRANCE", "location": "PAR", "kind": null}',
        '{"type": "HOLD", "power": "FRANCE", "unit": "PAR", "kind": "Z"}',
        '{"type": "MOVE", "power": "FRANCE", "unit": "PAR", "dest": "BUR", "via_convoy": "yes"}',
    ],
)
def test_malformed_orders_raise_value_error(text: str) -> None:
    """Module contract: malformed input raises ValueError, never KeyError or TypeError."""
    with pytest.raises(ValueError):
        order_from_json(text)


@pytest.mark.parametrize(
    "text",
    ["{}", '{"year": "1901", "season": "SPRING", "phase_type": "MOVEMENT"}',
     '{"year": 1901, "season": "SUMMER", "phase_type": "MOVEMENT"}', '{"results": [{}]}'],
)
def test_malformed_states_and_resolutions_raise_value_error(text: str) -> None:
    """Module contract: malformed input raises ValueError."""
    with pytest.raises(ValueError):
        state_from_json(text)
    with pytest.raises(ValueError):
        resolution_from_json(text)


# --- properties (data-model seed §2: "Round-trips exactly ... Hypothesis-checked") ----------


@settings(max_examples=200, deadline=None)
@given(states())
def test_state_round_trip(state: GameState) -> None:
    """data-model seed §2: state_from_dict(state_to_dict(s)) == s, also through JSON text."""
    assert state_from_dict(state_to_dict(state)) == state
    text = to_json(state)
    assert state_from_json(text) == state
    assert to_json(state_from_json(text)) == text


@settings(max_examples=200, deadline=None)
@given(orders)
def test_order_round_trip(order: Order) -> None:
    """data-model seed §2: every order class round-trips exactly, through dicts and JSON."""
    assert order_from_dict(order_to_dict(order)) == order
    assert order_from_json(to_json(order)) == order


@settings(max_examples=200, deadline=None)
@given(resolutions)
def test_resolution_round_trip(resolution: Resolution) -> None:
    """data-model seed §2: resolution_from_dict(resolution_to_dict(r)) == r, also through JSON."""
    assert resolution_from_dict(resolution_to_dict(resolution)) == resolution
    assert resolution_from_json(to_json(resolution)) == resolution


def test_status_and_winner_survive() -> None:
    """data-model seed §1: status and winner are part of the state and round-trip."""
    state = GameState(1910, Season.FALL, PhaseType.MOVEMENT, status=GameStatus.COMPLETED, winner="FRANCE")
    assert state_from_json(to_json(state)) == state


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=4), st.text(max_size=6), max_size=12))
def test_ownership_reads_any_mapping_as_its_upper_case_sorted_form(raw: dict[str, str]) -> None:
    """A stored ownership map that is upper case already is taken as it is (issue 17 speed-up);
    any other is normalised: either way the mapping is the upper-case, key-sorted form."""
    from engine.types import Ownership

    expected = {}
    for key, owner in raw.items():
        expected[key.upper()] = owner.upper()
    ownership = Ownership(raw)
    assert list(ownership.items()) == sorted(expected.items())
    assert Ownership(dict(sorted(expected.items()))) == ownership
