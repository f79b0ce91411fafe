"""Seats that open: ``POST /games/{id}/leave`` (the player) and
``POST /games/{id}/seats/{power}/open`` (the creator or operator, e.g. to boot an absent player).

Either way the player's entry goes, and with it the only hash its token matched, so
the old token is refused from then on; the power's pending orders, vote and wait flag
go too. The seat shows open in the view and the lobby, and ``join`` takes it over
with a fresh token (functions/usecases/seats/join.py ``take_over``). While the seat is open
the power is played as in civil disorder: not waited on, no vote, units hold.
Each is a ``SEAT_OPENED`` event and notification. Leaving a game still forming
simply frees the seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from functions.errors import Forbidden, NotAPlayer, PowerTaken, UnknownPower
from functions.ports import Clock, DeadlineScheduler, GameRecord, GameStore, OutboxRecord
from functions.usecases.game import add_event, add_outbox, check_dummies, game_map, iso, load_active, retrying
from functions.usecases.kinds import kind_of
from functions.usecases.players import (
    OPEN,
    Actor,
    all_powers,
    dummy_powers,
    has_started,
    open_seats,
    require_player,
    seat_status,
)
from functions.usecases.seats.join import start_if_full
from functions.usecases.turns import maybe_auto_process, reminder_for, sync_schedule


@dataclass(frozen=True)
class SeatChanged:
    power: str
    status: str
    open_seats: list[str]


def _require_controller(actor: Actor, what: str) -> None:
    if actor.kind == "anonymous":
        raise NotAPlayer("an Authorization: Bearer <creator or operator token> header is required")
    if not actor.controls:
        raise Forbidden(f"only the game's creator or the operator may {what}")


def _open(game: GameRecord, power: str, reason: str, now: datetime) -> SeatChanged:
    if game.started_at is None and has_started(game):  # a game stored before started_at
        game.started_at = iso(now)
    game.players.pop(power, None)
    game.pending_orders.pop(power, None)
    game.votes.pop(power, None)
    game.wait_flags.pop(power, None)
    if game.started_at is None:  # still forming: the seat is simply free again
        game.seats.pop(power, None)
    else:
        game.seats[power] = {"status": OPEN, "reason": reason, "since": game.phase}
    return SeatChanged(power, seat_status(game, power), open_seats(game))


def _commit(store: GameStore, clock: Clock, game: GameRecord, power: str, reason: str,
            scheduler: DeadlineScheduler | None) -> SeatChanged:
    version, now = game.version, clock.now()
    changed = _open(game, power, reason, now)
    data = {"power": power, "reason": reason}
    event = add_event(game, "SEAT_OPENED", data, now)
    notice = add_outbox(game, "SEAT_OPENED", data, f"seat-opened:{power}:{game.event_seq}")
    saved = store.save(game, expected_version=version, events=[event], outbox=[notice])
    maybe_auto_process(store, clock, saved, scheduler)  # the table may now be complete
    return changed


def leave_game(store: GameStore, clock: Clock, game_id: str, actor: Actor, *,
               scheduler: DeadlineScheduler | None = None) -> SeatChanged:
    power = require_player(actor)
    return retrying(lambda: _commit(store, clock, load_active(store, game_id), power, "left", scheduler))


def open_seat(store: GameStore, clock: Clock, game_id: str, actor: Actor, power: str, *,
              scheduler: DeadlineScheduler | None = None) -> SeatChanged:
    """The creator (or operator) frees a seated power; an already open seat is answered as is."""
    _require_controller(actor, "open a seat")
    wanted = power.upper()

    def attempt() -> SeatChanged:
        game = load_active(store, game_id)
        if wanted not in all_powers(game):
            raise UnknownPower(f"no power {power!r} in {game.variant}")
        if wanted in dummy_powers(game):
            raise PowerTaken(f"{wanted} is a dummy power: it has no seat to open")
        if wanted not in game.players:  # open already: nothing to change
            return SeatChanged(wanted, seat_status(game, wanted), open_seats(game))
        return _commit(store, clock, game, wanted, "opened_by_creator", scheduler)

    return retrying(attempt)


@dataclass(frozen=True)
class DummiesSet:
    dummy_powers: list[str]
    open_seats: list[str]
    started: bool


def set_dummy_powers(store: GameStore, clock: Clock, game_id: str, actor: Actor, powers: list[str], *,
                     scheduler: DeadlineScheduler | None = None) -> DummiesSet:
    """The creator (or operator) names the dummy powers while the game is forming (seed W9).

    The new list replaces the old one; a seated power cannot become a dummy (409
    ``POWER_TAKEN``), and once every seat was filled the list is fixed (403
    ``FORBIDDEN``). If the dummies fill the last seats,
    the game starts as a join would have started it.
    """
    _require_controller(actor, "choose dummy powers")

    def attempt() -> DummiesSet:
        game = load_active(store, game_id)
        if game.started_at is not None or not open_seats(game):
            raise Forbidden("dummy powers are chosen while the game is forming, before it starts")
        wanted = check_dummies(powers, game_map(game.variant))
        seated = sorted(set(wanted) & set(game.players))
        if seated:
            raise PowerTaken(f"{', '.join(seated)} already has a player")
        version, now = game.version, clock.now()
        game.settings["dummy_powers"] = wanted
        events = [add_event(game, "DUMMY_POWERS_SET", {"dummy_powers": wanted}, now)]
        outbox: list[OutboxRecord] = []
        started = start_if_full(game, kind_of(game), now, events, outbox)
        saved = store.save(game, expected_version=version, events=events, outbox=outbox)
        if started:
            sync_schedule(scheduler, game_id, phase=saved.phase, deadline=saved.deadline,
                          reminder=reminder_for(saved, now))
        return DummiesSet(wanted, open_seats(saved), started)

    return retrying(attempt)
