"""The game record: reading and decoding it once (record), its events and outbox (journal), times and
deadline grids, scores, phases of its history, its expiry and lifecycle settings.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.game.deadline_grid import PHASE_TYPES, check_grid
from functions.usecases.game.expiry import forget_game
from functions.usecases.game.history_cursor import decode_cursor, encode_cursor
from functions.usecases.game.journal import add_event, add_outbox, outbox_at, reserve_outbox, retrying
from functions.usecases.game.lifecycle_settings import LifecycleSettings, check_dummies, settings_for
from functions.usecases.game.phase_lookup import find_phase, phase_key
from functions.usecases.game.record import (
    DIPLOMACY,
    game_map,
    kind_name,
    load,
    load_active,
    load_with_press,
    order_key,
    state_of,
)
from functions.usecases.game.results import describe, make_result, survivors, with_scores
from functions.usecases.game.times import deadline_for, iso, parse_iso

__all__ = [
    "DIPLOMACY",
    "PHASE_TYPES",
    "LifecycleSettings",
    "add_event",
    "add_outbox",
    "check_dummies",
    "check_grid",
    "deadline_for",
    "decode_cursor",
    "describe",
    "encode_cursor",
    "find_phase",
    "forget_game",
    "game_map",
    "iso",
    "kind_name",
    "load",
    "load_active",
    "load_with_press",
    "make_result",
    "order_key",
    "outbox_at",
    "parse_iso",
    "phase_key",
    "reserve_outbox",
    "retrying",
    "settings_for",
    "state_of",
    "survivors",
    "with_scores",
]
