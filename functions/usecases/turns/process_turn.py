"""Process a turn: adjudicate the pending orders with the engine and commit atomically.

Allowed to the game's creator, the operator token and the deadline scheduler; the creator
only once the game is full and, in a timed game, after the deadline or once every power has
submitted (``GAME_NOT_FULL`` / ``DEADLINE_NOT_REACHED``; functions/usecases/turns/fairness.py).
The caller names the phase it means to close (``expected_phase``; the API answers 422 without
it): another phase is ``STALE_PHASE``, so a retry, a double click or a trigger racing the
deadline never closes the next phase too.
A paused game is processed only by hand (creator or operator): the scheduler actor
(deadline firing, sweeper, auto-process) gets ``GAME_PAUSED``, also when the pause
committed between its read and this one. A deadline firing (``due_by``) processes only a
phase whose deadline has passed (``NotDue`` otherwise).
Missing orders get the engine's defaults (units hold, dislodged units disband,
builds are waived, removals follow civil disorder). With ``require_all`` the call
is refused (409 ``ORDERS_MISSING``) while a power with a decision still owes orders.

A turn is a pipeline of steps that return values (issue 29/30): ``load`` (one read: META and
the powers' own items), ``adjudicate`` (the engine, pure), ``record`` (the next record as a
new value, the PHASE item, events; ``notify``: the notice), one commit (one
``TransactWriteItems``, conditional on the version read and on the next event numbers being
free), then ``schedule`` (the next phase's deadline, by name). The phase just closed keeps its
schedules (a fired one deleted itself; one left by an early processing fires as a no-op).

Two racing calls: one commits, the other reloads, sees the phase moved on and answers
``STALE_PHASE``: a phase is adjudicated exactly once. An order stored meanwhile took the next
event number, so the commit fails and the turn starts over with it.

A phase in which no seated power has a decision (only dummies retreat or build, say, in a
demo game) is processed at once, as the scheduler, instead of waiting for a deadline that
an untimed game never has: nobody is waited on, so nothing is gained by waiting. At most
``MAX_FOLLOWING`` such phases follow one call, each from the record the previous commit
left (no reload); a raised wait flag or a pause still holds.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

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
from functions.ports import Clock, DeadlineScheduler, GameRecord, GameStore, OutboxRecord, PhaseRecord
from functions.usecases.game import (
    DIPLOMACY,
    add_event,
    deadline_for,
    game_map,
    iso,
    kind_name,
    load_active,
    outbox_at,
    parse_iso,
    reserve_outbox,
    retrying,
    state_of,
)
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.turns.deadlines import sync_schedule
from functions.usecases.turns.fairness import check_creator_may_process
from functions.usecases.turns.lifecycle import (
    after_phase,
    dummy_orders,
    extend_for_missing,
    owing_powers,
    public_votes,
)
from functions.usecases.turns.outcomes import Adjudicated, LostRace, NotDue, Processed, Record
from functions.usecases.turns.phase_notes import note_events
from functions.usecases.turns.reminders import reminder_for
from functions.usecases.turns.resolutions import resolution_view, without_explanations
from functions.usecases.turns.views import missing_powers, powers_to_wait_on

MAX_FOLLOWING = 4  # a retreat and an adjustment phase, with room to spare
NOTICE_MAP_WIDTH = 800  # the width of the resolution picture a PHASE_PROCESSED notice links to


def process_turn(
    store: GameStore,
    clock: Clock,
    game_id: str,
    actor: Actor,
    *,
    expected_phase: str,
    require_all: bool = False,
    scheduler: DeadlineScheduler | None = None,
    due_by: datetime | None = None,
    game: GameRecord | None = None,
    follow: bool = True,
) -> Processed:
    """Close ``expected_phase``. ``game``: the record as just read or written by the caller
    (used for the first attempt instead of a read; a stale one fails the commit and is read
    again). ``due_by``: a deadline firing's time (the phase is processed only if due)."""
    _check_actor(actor)
    done, committed = _turn(store, clock, game_id, actor, expected_phase, require_all=require_all,
                            scheduler=scheduler, due_by=due_by, game=game)
    return _process_phases_nobody_decides(store, clock, committed, done, scheduler) if follow else done


def _turn(store: GameStore, clock: Clock, game_id: str, actor: Actor, expected_phase: str, *,
          require_all: bool = False, scheduler: DeadlineScheduler | None = None,
          due_by: datetime | None = None, game: GameRecord | None = None) -> tuple[Processed, GameRecord]:
    """load -> check -> adjudicate -> record -> commit -> schedule, retried while raced;
    (what was done, the game as committed)."""
    given = [game] if game is not None else []
    attempts = [0]

    def attempt() -> tuple[Processed, GameRecord]:
        attempts[0] += 1
        current = load(store, game_id, expected_phase, given.pop() if given else None, attempts[0] > 1)
        state = check(current, actor, clock.now(), require_all=require_all, due_by=due_by)
        if actor.kind == "scheduler":
            extended = _extend_instead(store, clock, current, scheduler)
            if extended is not None:
                return extended
        now = clock.now()
        adjudicated = adjudicate(current, state)
        written = record(current, adjudicated, now, actor.kind == "scheduler")
        committed = store.commit_turn(written.game, expected_version=current.version, phase=written.phase,
                                      events=written.events, outbox=written.outbox)
        schedule(scheduler, committed, now)
        processed = adjudicated.state.phase_name
        return Processed(committed.phase, processed, committed.status, adjudicated.resolution), committed

    return retrying(attempt)


# --- the steps -----------------------------------------------------------------------------


def _check_actor(actor: Actor) -> None:
    if actor.kind == "anonymous":
        raise NotAPlayer("an Authorization: Bearer <creator or operator token> header is required")
    if not actor.may_process:
        raise Forbidden("only the game's creator, the operator or the scheduler may process a turn")


def load(store: GameStore, game_id: str, phase: str, given: GameRecord | None, again: bool) -> GameRecord:
    """The game, at ``phase``, still active: one read (none when the caller holds the record)."""
    game = given if given is not None else load_active(store, game_id)
    if game.status != "ACTIVE":
        raise GameNotActive("the game is over")
    if game.phase != phase:
        refusal = LostRace if again else StalePhase
        raise refusal(f"process_turn for {phase}, but the game is at {game.phase}; nothing was processed",
                      phase=game.phase)
    return game


def check(game: GameRecord, actor: Actor, now: datetime, *, require_all: bool,
          due_by: datetime | None) -> engine.GameState:
    """Everything that may refuse the turn; the phase's state if nothing does."""
    if game.paused and actor.kind == "scheduler":
        raise GamePaused("the game is paused; only its creator or the operator may process it")
    if require_all:
        missing = missing_powers(game)
        if missing:
            raise OrdersMissing(f"waiting on {', '.join(missing)}", waiting_on=missing)
    state = state_of(game)  # first: another game kind is WRONG_GAME_KIND, not UNKNOWN_VARIANT
    check_creator_may_process(game, actor, now)  # issue 11: no cutting opponents off
    if due_by is not None:
        deadline = parse_iso(game.deadline) if game.deadline else None
        if deadline is None or deadline > due_by:
            raise NotDue(deadline)
    return state


def adjudicate(game: GameRecord, state: engine.GameState) -> Adjudicated:
    """The engine on the phase's orders (a demo game's dummies' included): pure."""
    the_map = game_map(game.variant)
    given = {**game.pending_orders, **dummy_orders(game, state)}  # demo games: the AI's, recorded
    orders: dict[str, list[engine.Order]] = {}
    for power, texts in sorted(given.items()):
        orders[power] = [_parsed(text, power, state, the_map) for text in texts]
    after, resolution = engine.Game(map=the_map, state=state, rules=game.rules).adjudicate(orders)
    assert after.state is not None
    resolved = resolution_view(resolution)
    resolved["nmr"] = owing_powers(game, state)
    votes = public_votes(game)
    if votes:
        resolved["votes"] = votes
    canonical = {p: list(t) for p, t in sorted(given.items())}
    # a finished game ends on W<year>A, not F<year>R
    return Adjudicated(state, engine.concluded(after.state), canonical, resolved)


def _parsed(text: str, power: str, state: engine.GameState, the_map: engine.MapData) -> engine.Order:
    try:
        return engine.parse_order(text, power=power, state=state, map=the_map)
    except engine.OrderSyntaxError as exc:
        # Accepted orders are stored in canonical text, which always parses;
        # if a parser change ever broke that, stop rather than drop the order.
        raise StoredOrderUnreadable(
            f"{power}'s accepted order {text!r} no longer parses ({exc.message}); the turn was not processed"
        ) from exc


def advance(game: GameRecord, done: Adjudicated, now: datetime) -> GameRecord:
    """The game at the next phase, as a new record: the one read stays as it was read (a retry
    reads again). Its seats and players are copies, which the phase's consequences may change."""
    new_state = done.next_state
    status = str(new_state.status)
    running = status == "ACTIVE" and not game.paused
    return replace(
        game, state=engine.state_to_dict(new_state), phase=new_state.phase_name,
        phase_index=game.phase_index + 1, phase_started_at=iso(now), status=status,
        pending_orders={},  # the new phase's decisions start empty: the powers' items are of the old one
        wait_flags={},  # wait flags hold one phase only
        paused_remaining=None,  # a resumed phase gets its full length
        deadline=deadline_for(game, str(new_state.phase_type), now) if running else None,
        seats={p: dict(s) for p, s in game.seats.items()},
        players={p: dict(v) for p, v in game.players.items()},
    )


def record(game: GameRecord, done: Adjudicated, now: datetime, by_deadline: bool) -> Record:
    """What the commit writes: the next record (``advance``), the PHASE item, the events, and
    the notices (``notify``'s first: numbered before those the phase's consequences add)."""
    processed = done.state.phase_name
    phase = PhaseRecord(n=game.phase_index, phase=processed, state_before=game.state, orders=done.orders,
                        resolution=done.resolution, processed_at=iso(now))
    after = advance(game, done, now)
    events = [add_event(after, "PHASE_PROCESSED", {"phase": processed, "next_phase": after.phase,
                                                   "orders": phase.orders,
                                                   "resolution": without_explanations(done.resolution)},
                        now, phase=processed),
              *note_events(after, done.resolution["notes"], now, processed)]
    slot = reserve_outbox(after)
    more_events, more_outbox = after_phase(
        after, processed=processed, processed_type=str(done.state.phase_type), nmr=done.resolution["nmr"],
        new_state=done.next_state, by_deadline=by_deadline, now=now,
    )
    return Record(after, phase, events + more_events, [notify(after, processed, slot), *more_outbox])


def notify(game: GameRecord, processed: str, seq: int) -> OutboxRecord:
    """PHASE_PROCESSED for the game's delivery targets, saying where the game stands once the
    phase's consequences (a game's end, say) are known; ``seq`` was reserved before them."""
    return outbox_at(
        game, seq, "PHASE_PROCESSED",
        {"phase": processed, "next_phase": game.phase, "game_status": game.status, "deadline": game.deadline,
         # the phase's resolution map (issue 14); notices put the API's base URL before it. 800 px
         # wide (issue 29): what a chat or a mail shows, at 128 KB where the 1200 px default was
         # 354 KB, and every receiver of every notice fetches it (docs/scaling.md)
         "map": (f"/games/{game.game_id}/map/resolution?phase={processed}&format=png"
                 f"&width={NOTICE_MAP_WIDTH}")},
        f"{processed}:processed",
    )


def schedule(scheduler: DeadlineScheduler | None, game: GameRecord, now: datetime) -> None:
    """The next phase's deadline and reminder, by name; nothing for a game without deadlines."""
    sync_schedule(scheduler, game.game_id, phase=game.phase, deadline=game.deadline,
                  reminder=reminder_for(game, now))


# --- after the commit ----------------------------------------------------------------------


def _process_phases_nobody_decides(store: GameStore, clock: Clock, game: GameRecord, done: Processed,
                                   scheduler: DeadlineScheduler | None) -> Processed:
    """Process the phases that follow ``done`` while no seated power has a decision in them,
    each from the record the last commit left (no read unless that record was stale)."""
    for _ in range(MAX_FOLLOWING):
        if not _nobody_decides(game):
            break
        try:
            later, game = _turn(store, clock, game.game_id, SCHEDULER, game.phase, scheduler=scheduler,
                                game=game)
        except (StalePhase, GamePaused, GameNotActive):
            break  # someone else moved the game on, paused or ended it meanwhile
        done = replace(done, phase=later.phase, game_status=later.game_status)
    return done


def _nobody_decides(game: GameRecord) -> bool:
    return (game.status == "ACTIVE" and not game.paused and kind_name(game) == DIPLOMACY
            and not powers_to_wait_on(game) and not any(game.wait_flags.values()))


def _extend_instead(
    store: GameStore, clock: Clock, game: GameRecord, scheduler: DeadlineScheduler | None
) -> tuple[Processed, GameRecord] | None:
    """A deadline firing while a late power has an NMR extension left moves the deadline."""
    version, now = game.version, clock.now()
    changes = extend_for_missing(game, now)
    if changes is None:
        return None
    saved = store.save(game, expected_version=version, events=changes[0], outbox=changes[1])
    sync_schedule(scheduler, game.game_id, phase=saved.phase, deadline=saved.deadline,
                  reminder=reminder_for(saved, now), was_timed=True)
    return Processed(saved.phase, saved.phase, saved.status, {"results": []}, extended=True), saved
