"""Submit or retract orders: each order text is parsed and validated by the engine.

Modes (the full rules are in functions/usecases/turns/order_entry.py and docs/api.md):
- ``replace``: when every given order is accepted they become the power's whole order
  set for the phase; when any is rejected, the accepted ones replace the previous
  order for their units and every other previous order stays.
- ``add``: the accepted orders replace any earlier order for the same unit.
Accepted orders are stored in canonical text; rejected ones come back with a
stable code (``UNPARSEABLE_ORDER``, ``ILLEGAL_ORDER`` + the engine's code,
``DUPLICATE_ORDER``, ``TOO_MANY_BUILDS``, ``TOO_MANY_DISBANDS``) and a reason.
A request that changes nothing (every order rejected, a retraction that matches
nothing) stores nothing and writes no event.

Concurrency: an order set, a retraction or a wait flag writes only the power's own item and
its event (``GameStore.save_turn``), conditional on that item's version and on the event's
number being free: if another writer won (the turn was processed, another order stored),
the game is reloaded; if its phase moved on the request is refused with ``STALE_PHASE`` —
an order is never silently dropped, nor adjudicated into a later phase.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import engine
from functions.errors import GameNotActive, GamePaused, StalePhase
from functions.ports import Clock, DeadlineScheduler, GameRecord, GameStore
from functions.usecases.game import add_event, game_map, load, load_active, parse_iso, retrying, state_of
from functions.usecases.players import SCHEDULER, Actor, require_player, seen_by
from functions.usecases.turns.deadlines import ready_to_auto_process
from functions.usecases.turns.order_entry import (
    Rejection,
    enforce_allowance,
    merge,
    read_orders,
    stored_orders,
)
from functions.usecases.turns.process_turn import process_turn
from functions.usecases.turns.views import powers_to_wait_on

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Submitted:
    phase: str
    accepted: list[str]
    rejected: list[Rejection] = field(default_factory=list)
    orders: list[str] = field(default_factory=list)  # the power's whole pending set now
    auto_processed: bool = False


@dataclass(frozen=True)
class WaitSet:
    phase: str
    wait_flags: list[str]  # powers with a wait flag up
    auto_processed: bool = False


def _check_phase(game: GameRecord, phase: str | None, client_timestamp: str | None) -> None:
    if phase is not None and phase.upper() != game.phase:
        raise StalePhase(f"orders for {phase} but the game is at {game.phase}", phase=game.phase)
    if client_timestamp is not None:
        try:
            sent = parse_iso(client_timestamp)
        except ValueError:
            return
        started = parse_iso(game.phase_started_at)
        if sent.tzinfo is None:
            sent = sent.replace(tzinfo=started.tzinfo)
        if sent < started:
            raise StalePhase(
                f"sent before the current phase {game.phase} began", phase=game.phase
            )


def submit_orders(
    store: GameStore,
    clock: Clock,
    game_id: str,
    actor: Actor,
    orders: list[str],
    *,
    phase: str | None = None,
    client_timestamp: str | None = None,
    mode: str = "replace",
    scheduler: DeadlineScheduler | None = None,
) -> Submitted:
    power = require_player(actor)
    seen_phase: list[str] = []

    def attempt() -> Submitted:
        game = load_active(store, game_id)
        if seen_phase and seen_phase[0] != game.phase:
            raise StalePhase(
                f"the turn was processed while these orders were being stored; now {game.phase}",
                phase=game.phase,
            )
        seen_phase.append(game.phase)
        _check_phase(game, phase, client_timestamp)
        # a fog game checks orders against what the power sees: a refusal tells nothing of the fog
        state = seen_by(game, actor, state_of(game))
        the_map = game_map(game.variant)
        entry = read_orders(orders, power, state, the_map)
        previous = stored_orders(game.pending_orders.get(power, []), power, state, the_map)
        merged, entry = enforce_allowance(merge(previous, entry, mode), entry, power, state, the_map)
        pending = [engine.format_order(o) for o in merged.values()]
        accepted, rejected = entry.accepted, entry.rejected
        explicit_empty = mode == "replace" and not orders
        if not accepted and not explicit_empty:
            # nothing accepted: nothing changes, no event (issue 10)
            return Submitted(game.phase, [], rejected, list(game.pending_orders.get(power, [])))
        stored = game.pending_orders.get(power)
        if stored is not None and sorted(stored) == sorted(pending):
            # the same set again (a retry, a resent message): nothing changes, no event
            return Submitted(game.phase, accepted, rejected, list(stored))
        now = clock.now()
        game.pending_orders[power] = pending
        # no order text in the event: the log is public before adjudication
        event = add_event(game, "ORDERS_SUBMITTED", {"power": power, "count": len(pending)}, now)
        saved = store.save_turn(game, power, events=[event])
        auto = maybe_auto_process(store, clock, saved, scheduler)
        return Submitted(saved.phase, accepted, rejected, pending, auto)

    return retrying(attempt)


def retract_orders(
    store: GameStore, clock: Clock, game_id: str, actor: Actor, units: list[str] | None = None
) -> Submitted:
    """Withdraw all the power's orders (it no longer counts as submitted), or those for ``units``."""
    power = require_player(actor)

    def attempt() -> Submitted:
        game = load_active(store, game_id)
        state_of(game)  # Diplomacy only: another game kind is refused before anything is written
        now = clock.now()
        if units is None:
            if power not in game.pending_orders:
                return Submitted(game.phase, [], [], [])  # nothing to retract: no event
            game.pending_orders.pop(power, None)
            remaining: list[str] = []
        else:
            state, the_map = state_of(game), game_map(game.variant)
            keyed = _keyed(game.pending_orders.get(power, []), power, state, the_map)
            # "A PAR", "PAR", "F SPA/SC" -> the province; a blank entry names no unit
            drop = {u.upper().split("/")[0].split()[-1] for u in units if u.strip()}
            remaining = [text for key, text in keyed.items() if key not in drop]
            if len(remaining) == len(keyed):
                # nothing of the caller's matched (another power's units, say): no change, no event
                return Submitted(game.phase, [], [], remaining)
            game.pending_orders[power] = remaining
        event = add_event(game, "ORDERS_RETRACTED", {"power": power, "count": len(remaining)}, now)
        saved = store.save_turn(game, power, events=[event])
        return Submitted(saved.phase, [], [], remaining)

    return retrying(attempt)


def _keyed(texts: list[str], power: str, state: engine.GameState, the_map: engine.MapData) -> dict[str, str]:
    return read_orders(texts, power, state, the_map).keyed


def set_wait_flag(
    store: GameStore,
    clock: Clock,
    game_id: str,
    actor: Actor,
    wait: bool,
    *,
    scheduler: DeadlineScheduler | None = None,
) -> WaitSet:
    """Raise or lower the caller's wait flag for this phase (W10); lowering the last one may process."""
    power = require_player(actor)

    def attempt() -> WaitSet:
        game = load_active(store, game_id)
        state_of(game)  # Diplomacy only: another game kind is refused before anything is written
        if bool(game.wait_flags.get(power)) == wait:
            return WaitSet(game.phase, _raised(game))
        if wait:
            game.wait_flags[power] = True
        else:
            game.wait_flags.pop(power, None)
        event = add_event(game, "WAIT_FLAG", {"power": power, "wait": wait}, clock.now())
        saved = store.save_turn(game, power, events=[event])
        if maybe_auto_process(store, clock, saved, scheduler):
            now_at = load(store, game_id)  # the phase moved on
            return WaitSet(now_at.phase, _raised(now_at), True)
        return WaitSet(saved.phase, _raised(saved))

    return retrying(attempt)


def _raised(game: GameRecord) -> list[str]:
    return sorted(p for p, up in game.wait_flags.items() if up)


def maybe_auto_process(
    store: GameStore, clock: Clock, game: GameRecord, scheduler: DeadlineScheduler | None
) -> bool:
    """Process at once when W10 says the table is ready.

    Never while the game is paused (resume re-checks). The expected race outcomes
    (someone else processed the phase first, the game ended or was paused meanwhile)
    are quiet. Any other failure is logged and not raised: the caller's change is
    already saved, so answering with an error would invite a retry that could store
    the same orders again for the next phase; the deadline, the sweeper or the next
    submission will process the turn.
    """
    if game.paused:
        return False
    ready = ready_to_auto_process(
        auto_process=bool(game.settings.get("auto_process")),
        powers_with_decisions=powers_to_wait_on(game),
        submitted=set(game.pending_orders),
        wait_flags=game.wait_flags,
    )
    if not ready:
        return False
    try:  # from the record just written: no second read (a stale one fails the commit and is read)
        process_turn(store, clock, game.game_id, SCHEDULER, expected_phase=game.phase, scheduler=scheduler,
                     game=game.copy())
    except (StalePhase, GameNotActive, GamePaused):
        return False  # someone else processed it first, or it was paused meanwhile
    except Exception:
        _log.exception("auto-process of %s %s failed; the saved change stands", game.game_id, game.phase)
        return False
    return True
