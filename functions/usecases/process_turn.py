"""Process a turn: adjudicate the pending orders with the engine and commit atomically.

Allowed to the game's creator, the operator token and the deadline scheduler; the creator
only once the game is full and, in a timed game, after the deadline or once every power has
submitted (``GAME_NOT_FULL`` / ``DEADLINE_NOT_REACHED``; functions/usecases/fairness.py).
A paused game is processed only by hand (creator or operator): the scheduler actor
(deadline firing, sweeper, auto-process) gets ``GAME_PAUSED``, also when the pause
committed between its read and this one.
Missing orders get the engine's defaults (units hold, dislodged units disband,
builds are waived, removals follow civil disorder). With ``require_all`` the call
is refused (409 ``ORDERS_MISSING``) while a power with a decision still owes orders.

META + PHASE + EVENTs + OUTBOX commit in one transaction conditional on the
version read. Two racing calls: one commits, the other reloads, sees the phase
moved on and answers ``STALE_PHASE`` — a phase is adjudicated exactly once.
Orders submitted meanwhile win the race (and are adjudicated) or lose it (409).

After the commit the next phase's deadline schedule replaces this phase's one
(``scheduler``; see functions/usecases/deadlines.py). Wait flags are cleared.

A phase in which no seated power has a decision (only dummies retreat or build, say, in a
demo game) is processed at once, as the scheduler, instead of waiting for a deadline that
an untimed game never has: nobody is waited on, so nothing is gained by waiting. At most
``MAX_FOLLOWING`` such phases follow one call; a raised wait flag or a pause still holds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import engine
from functions.errors import (
    Forbidden,
    GameNotActive,
    GamePaused,
    NotAPlayer,
    OrdersMissing,
    StalePhase,
    StoredOrderUnreadable,
)
from functions.ports import Clock, DeadlineScheduler, GameRecord, GameStore, PhaseRecord
from functions.usecases.common import (
    DIPLOMACY,
    SCHEDULER,
    Actor,
    add_event,
    add_outbox,
    deadline_for,
    game_map,
    iso,
    kind_name,
    load_active,
    retrying,
    state_of,
)
from functions.usecases.deadlines import sync_schedule
from functions.usecases.fairness import check_creator_may_process
from functions.usecases.lifecycle import (
    after_phase,
    dummy_orders,
    extend_for_missing,
    owing_powers,
    public_votes,
)
from functions.usecases.phase_notes import note_events
from functions.usecases.reminders import reminder_for
from functions.usecases.views import missing_powers, powers_to_wait_on

MAX_FOLLOWING = 4  # a retreat and an adjustment phase, with room to spare


@dataclass(frozen=True)
class Processed:
    phase: str  # the new current phase
    processed_phase: str
    game_status: str
    resolution: dict[str, Any]
    extended: bool = False  # the deadline moved on for a missing power (nmr_extensions)


def resolution_view(resolution: engine.Resolution) -> dict[str, Any]:
    """``resolution_to_dict`` plus, per result, ``power`` and ``order_str`` (seed §4); each
    result's ``reason`` and ``explanation`` and the resolution's ``notes`` as the engine
    wrote them (issue 31)."""
    data = engine.resolution_to_dict(resolution)
    results = data.get("results", [])
    for entry, result in zip(results, resolution.results, strict=False):
        entry["power"] = result.order.power
        entry["order_str"] = engine.format_order(result.order)
    return {"results": results, "notes": data.get("notes", [])}


def process_turn(
    store: GameStore,
    clock: Clock,
    game_id: str,
    actor: Actor,
    *,
    require_all: bool = False,
    expected_phase: str | None = None,
    scheduler: DeadlineScheduler | None = None,
    follow: bool = True,
) -> Processed:
    if actor.kind == "anonymous":
        raise NotAPlayer("an Authorization: Bearer <creator or operator token> header is required")
    if not actor.may_process:
        raise Forbidden("only the game's creator, the operator or the scheduler may process a turn")
    seen_phase: list[str] = []

    def attempt() -> Processed:
        game = load_active(store, game_id)
        wanted = expected_phase or (seen_phase[0] if seen_phase else None)
        if wanted is not None and wanted != game.phase:
            raise StalePhase(f"process_turn for {wanted}, but the game is at {game.phase}; nothing was "
                             "processed", phase=game.phase)
        seen_phase.append(game.phase)
        if game.paused and actor.kind == "scheduler":
            raise GamePaused("the game is paused; only its creator or the operator may process it")
        if require_all:
            missing = missing_powers(game)
            if missing:
                raise OrdersMissing(f"waiting on {', '.join(missing)}", waiting_on=missing)
        state = state_of(game)  # first: another game kind is WRONG_GAME_KIND, not UNKNOWN_VARIANT
        check_creator_may_process(game, actor, clock.now())  # issue 11: no cutting opponents off
        if actor.kind == "scheduler":
            extended = _extend_instead(store, clock, game, scheduler)
            if extended is not None:
                return extended
        the_map = game_map(game.variant)
        game.pending_orders.update(dummy_orders(game, state))  # demo games: the AI's, recorded as anyone's
        orders: dict[str, list[engine.Order]] = {}
        for power, texts in sorted(game.pending_orders.items()):
            parsed = []
            for text in texts:
                try:
                    parsed.append(engine.parse_order(text, power=power, state=state, map=the_map))
                except engine.OrderSyntaxError as exc:
                    # Accepted orders are stored in canonical text, which always parses;
                    # if a parser change ever broke that, stop rather than drop the order.
                    raise StoredOrderUnreadable(
                        f"{power}'s accepted order {text!r} no longer parses ({exc.message}); "
                        "the turn was not processed"
                    ) from exc
            orders[power] = parsed
        after, resolution = engine.Game(map=the_map, state=state, rules=game.rules).adjudicate(orders)
        assert after.state is not None
        new_state = engine.concluded(after.state)  # a finished game ends on W<year>A, not F<year>R
        resolved = resolution_view(resolution)
        resolved["nmr"] = owing_powers(game, state)
        votes = public_votes(game)
        if votes:
            resolved["votes"] = votes
        now = clock.now()
        version = game.version
        phase = PhaseRecord(
            n=game.phase_index,
            phase=game.phase,
            state_before=game.state,
            orders={p: list(t) for p, t in sorted(game.pending_orders.items())},
            resolution=resolved,
            processed_at=iso(now),
        )
        processed = game.phase
        game.state = engine.state_to_dict(new_state)
        game.phase = new_state.phase_name
        game.phase_index += 1
        game.pending_orders = {}
        game.phase_started_at = iso(now)
        game.status = str(new_state.status)
        game.deadline = None
        game.wait_flags = {}  # wait flags hold one phase only
        game.paused_remaining = None  # a resumed phase gets its full length
        if game.status == "ACTIVE" and not game.paused:
            game.deadline = deadline_for(game, str(new_state.phase_type), now)
        events = [
            add_event(
                game,
                "PHASE_PROCESSED",
                {
                    "phase": processed,
                    "next_phase": game.phase,
                    "orders": phase.orders,
                    "resolution": resolved,
                },
                now,
                phase=processed,
            ),
            *note_events(game, resolved["notes"], now, processed),
        ]
        outbox = [
            add_outbox(
                game,
                "PHASE_PROCESSED",
                {"phase": processed, "next_phase": game.phase, "game_status": game.status,
                 "deadline": game.deadline,
                 # the phase's resolution map (issue 14); notices put the API's base URL before it
                 "map": f"/games/{game.game_id}/map/resolution?phase={processed}&format=png"},
                f"{processed}:processed",
            )
        ]
        more_events, more_outbox = after_phase(
            game, processed=processed, processed_type=str(state.phase_type), nmr=resolved["nmr"],
            new_state=new_state, by_deadline=actor.kind == "scheduler", now=now,
        )
        events += more_events
        outbox[0] = outbox[0]._replace(payload={**outbox[0].payload, "game_status": game.status,
                                                "deadline": game.deadline})
        outbox += more_outbox
        store.commit_turn(game, expected_version=version, phase=phase, events=events, outbox=outbox)
        sync_schedule(
            scheduler, game.game_id, previous_phase=processed, phase=game.phase, deadline=game.deadline,
            reminder=reminder_for(game, now),
        )
        return Processed(game.phase, processed, game.status, resolved)

    done = retrying(attempt)
    return _process_phases_nobody_decides(store, clock, game_id, done, scheduler) if follow else done


def _process_phases_nobody_decides(store: GameStore, clock: Clock, game_id: str, done: Processed,
                                   scheduler: DeadlineScheduler | None) -> Processed:
    """Process the phases that follow ``done`` while no seated power has a decision in them."""
    for _ in range(MAX_FOLLOWING):
        game = store.load(game_id)
        if game is None or not _nobody_decides(game):
            break
        try:
            later = process_turn(store, clock, game_id, SCHEDULER, expected_phase=game.phase,
                                 scheduler=scheduler, follow=False)
        except (StalePhase, GamePaused, GameNotActive):
            break  # someone else moved the game on, paused or ended it meanwhile
        done = replace(done, phase=later.phase, game_status=later.game_status)
    return done


def _nobody_decides(game: GameRecord) -> bool:
    return (game.status == "ACTIVE" and not game.paused and kind_name(game) == DIPLOMACY
            and not powers_to_wait_on(game) and not any(game.wait_flags.values()))


def _extend_instead(
    store: GameStore, clock: Clock, game: GameRecord, scheduler: DeadlineScheduler | None
) -> Processed | None:
    """A deadline firing while a late power has an NMR extension left moves the deadline."""
    version, now = game.version, clock.now()
    changes = extend_for_missing(game, now)
    if changes is None:
        return None
    store.save(game, expected_version=version, events=changes[0], outbox=changes[1])
    sync_schedule(
        scheduler, game.game_id, previous_phase=None, phase=game.phase, deadline=game.deadline,
        reminder=reminder_for(game, now),
    )
    return Processed(game.phase, game.phase, game.status, {"results": []}, extended=True)
