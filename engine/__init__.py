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
"""

from engine.allowance import adjustment_balance, build_sites, unit_allowance
from engine.conclusion import concluded
from engine.game import Game, initial_state
from engine.legal import legal_orders, powers_with_orders_to_give
from engine.maps import MapData, MapDataError, available_maps, build_map, load_map
from engine.notation.compact import (
    format_compact_order,
    format_compact_state,
    parse_compact_order,
    parse_compact_state,
)
from engine.notation.standard import OrderSyntaxError, format_order, parse_order
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
    Order,
    OrderResult,
    OrderType,
    Ownership,
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
    "format_order", "get_rulebook", "import_variant", "initial_state", "legal_orders", "load_map",
    "location_from_str",
    "location_to_str", "order_from_dict", "order_from_json", "order_to_dict",
    "parse_compact_order", "parse_compact_state", "parse_order", "powers_with_orders_to_give",
    "resolution_from_dict", "resolution_from_json", "resolution_to_dict", "simple_orders", "state_from_dict",
    "state_from_json", "state_to_dict", "to_json", "unit_allowance", "validate",
]
__all__ += ["concluded"]  # issue 10: a finished game's final phase (engine/conclusion.py)
