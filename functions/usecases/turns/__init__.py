"""Orders and turns: entering orders, the views of a phase, deadlines and reminders, processing a turn,
endings, exports and replays.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.turns.deadlines import (
    SCHEDULE_GRACE,
    fire_deadline,
    fire_reminder,
    reminder_for,
    sweep,
    sync_schedule,
)
from functions.usecases.turns.export import export_game
from functions.usecases.turns.import_replay import replay_document
from functions.usecases.turns.lifecycle import end_game, vote_outcome
from functions.usecases.turns.order_entry import Rejection, check_order
from functions.usecases.turns.outcomes import LostRace, NotDue
from functions.usecases.turns.process_turn import process_turn
from functions.usecases.turns.reminders import send_reminder
from functions.usecases.turns.resolutions import resolution_view
from functions.usecases.turns.submit_orders import (
    maybe_auto_process,
    retract_orders,
    set_wait_flag,
    submit_orders,
)
from functions.usecases.turns.views import (
    game_view,
    last_resolution,
    missing_powers,
    orders_status,
    powers_to_wait_on,
)

__all__ = [
    "LostRace",
    "NotDue",
    "Rejection",
    "SCHEDULE_GRACE",
    "check_order",
    "end_game",
    "export_game",
    "fire_deadline",
    "fire_reminder",
    "game_view",
    "last_resolution",
    "maybe_auto_process",
    "missing_powers",
    "orders_status",
    "powers_to_wait_on",
    "process_turn",
    "reminder_for",
    "replay_document",
    "resolution_view",
    "retract_orders",
    "send_reminder",
    "set_wait_flag",
    "submit_orders",
    "sweep",
    "sync_schedule",
    "vote_outcome",
]
