"""Convoy's Diplomacy engine: pure rules, no I/O, standard library only.

The public API (shared/ARCHITECTURE.md §2) is everything imported here:

    import engine
    m = engine.load_map("classical")
    s = engine.initial_state(m)
    o = engine.parse_order("A PAR - BUR", power="FRANCE", state=s, map=m)
    game2, resolution = engine.Game(map=m, state=s).adjudicate({"FRANCE": [o]})

Non-goals: persistence, networking, logging set-up, strong play (``simple_orders`` is a
plausible, deterministic player for dummy powers, nothing more). Values are frozen; a
phase is advanced by returning a new state.

The names are bound lazily (PEP 562): ``engine.X`` imports X's module on first use, so a
caller pays only for the modules it uses — the API's view of a game never imports the
adjudicator, the compact notation or the dummy-power player (issue 9, cold start). The
names, their modules and ``__all__`` are the table below; ``from engine import X``,
``engine.X`` and ``from engine import *`` behave as with eager imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# module -> the public names it provides; __all__ and the imports for type checkers below list
# the same names (tests/engine/test_public_api.py checks the three agree)
EXPORTS: dict[str, tuple[str, ...]] = {
    "engine.allowance": ("adjustment_balance", "build_sites", "unit_allowance"),
    "engine.conclusion": ("concluded",),
    "engine.game": ("Game", "initial_state"),
    "engine.legal": ("legal_menus", "legal_orders", "powers_with_orders_to_give"),
    "engine.maps": ("MapData", "MapDataError", "available_maps", "build_map", "load_map"),
    "engine.notation.compact": (
        "format_compact_order", "format_compact_state", "parse_compact_order",
        "parse_compact_state"
    ),
    "engine.notation.standard": ("OrderSyntaxError", "format_order", "parse_order"),
    "engine.reasons": (
        "AdjustmentOutcome", "AttackOutcome", "ConvoyOutcome", "Decision", "Explanation", "HoldOutcome",
        "OrderOutcome", "RetreatOutcome", "Role", "Strength", "StrengthKind", "SupportOutcome"
    ),
    "engine.rulebook": ("RULEBOOKS", "Rulebook", "get_rulebook"),
    "engine.serialization": (
        "location_from_str", "location_to_str", "order_from_dict", "order_from_json",
        "order_to_dict", "resolution_from_dict", "resolution_from_json", "resolution_to_dict",
        "state_from_dict", "state_from_json", "state_to_dict", "to_json"
    ),
    "engine.simple_ai": ("simple_orders",),
    "engine.types": (
        "Build", "Convoy", "Disband", "DislodgedUnit", "GameState", "GameStatus", "Hold",
        "Location", "Move", "NoteKind", "Order", "OrderResult", "OrderType", "Ownership", "PhaseNote",
        "PhaseType", "Reason", "Resolution", "ResultCode", "Retreat", "Season", "SupportHold",
        "SupportMove", "Unit", "UnitKind", "Waive"
    ),
    "engine.validation": ("ErrorCode", "ValidationResult", "validate"),
    "engine.variants": ("export_variant", "import_variant"),
}
_MODULE_OF = {name: module for module, names in EXPORTS.items() for name in names}

if TYPE_CHECKING:
    from engine.allowance import adjustment_balance, build_sites, unit_allowance
    from engine.conclusion import concluded
    from engine.game import Game, initial_state
    from engine.legal import legal_menus, legal_orders, powers_with_orders_to_give
    from engine.maps import MapData, MapDataError, available_maps, build_map, load_map
    from engine.notation.compact import (
        format_compact_order,
        format_compact_state,
        parse_compact_order,
        parse_compact_state,
    )
    from engine.notation.standard import OrderSyntaxError, format_order, parse_order
    from engine.reasons import (
        AdjustmentOutcome,
        AttackOutcome,
        ConvoyOutcome,
        Decision,
        Explanation,
        HoldOutcome,
        OrderOutcome,
        RetreatOutcome,
        Role,
        Strength,
        StrengthKind,
        SupportOutcome,
    )
    from engine.rulebook import RULEBOOKS, Rulebook, get_rulebook
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
    from engine.simple_ai import simple_orders
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
        OrderType,
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
    )
    from engine.validation import ErrorCode, ValidationResult, validate
    from engine.variants import export_variant, import_variant

__all__ = [
    "RULEBOOKS", "Build", "Convoy", "Disband", "DislodgedUnit", "ErrorCode", "Game",
    "GameState", "GameStatus", "Hold", "Location", "MapData", "MapDataError", "Move", "Order",
    "OrderResult", "OrderSyntaxError", "OrderType", "Ownership", "PhaseType", "Reason",
    "Resolution", "ResultCode", "Retreat", "Rulebook", "Season", "SupportHold", "SupportMove",
    "Unit", "UnitKind", "ValidationResult", "Waive", "adjustment_balance", "available_maps",
    "build_map", "build_sites", "export_variant", "format_compact_order", "format_compact_state",
    "format_order", "get_rulebook", "import_variant", "initial_state", "legal_menus", "legal_orders",
    "load_map", "location_from_str",
    "location_to_str", "order_from_dict", "order_from_json", "order_to_dict",
    "parse_compact_order", "parse_compact_state", "parse_order", "powers_with_orders_to_give",
    "resolution_from_dict", "resolution_from_json", "resolution_to_dict", "simple_orders", "state_from_dict",
    "state_from_json", "state_to_dict", "to_json", "unit_allowance", "validate",
    "concluded",  # issue 10: a finished game's final phase (engine/conclusion.py)
    # issue 31: why each order ended as it did; what the phase sequence skipped
    "AdjustmentOutcome", "AttackOutcome", "ConvoyOutcome", "Decision", "Explanation", "HoldOutcome",
    "NoteKind", "OrderOutcome", "PhaseNote", "RetreatOutcome", "Role", "Strength", "StrengthKind",
    "SupportOutcome",
]


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'engine' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
