"""Join a game: take a named free power, or a random free one; returns a token shown once.

Only the SHA-256 of the token is stored. When the last power is seated the game
starts: the first deadline (if the game has phase lengths) runs from then, and its
schedule is created after the commit. Every join writes a PLAYER_JOINED event, which is
also its notice (the relay sends it from the stream: notifications.EVENT_NOTICES; no
OUTBOX item, issue 29).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from functions.errors import BadPassword, GameFull, PowerTaken, UnknownPower
from functions.ports import (
    PLAYER_JOINED,
    AttemptCounter,
    Clock,
    DeadlineScheduler,
    EventRecord,
    GameRecord,
    GameStore,
    OutboxRecord,
)
from functions.usecases.accounts import User, seat_fields
from functions.usecases.game import add_event, add_outbox, deadline_for, iso, load_active, retrying
from functions.usecases.games import GameKind
from functions.usecases.kinds import kind_of
from functions.usecases.players import (
    check_join_allowed,
    check_password,
    dummy_powers,
    hash_token,
    new_token,
    open_seats,
    record_failed_join,
    remember_holder,
)
from functions.usecases.turns import reminder_for, sync_schedule


@dataclass(frozen=True)
class Joined:
    power: str
    token: str


def join_game(
    store: GameStore,
    clock: Clock,
    game_id: str,
    power: str | None = None,
    password: str | None = None,
    *,
    scheduler: DeadlineScheduler | None = None,
    owner: User | None = None,
    attempts: AttemptCounter | None = None,
    parties: Sequence[str] = (),
    admit: Callable[[GameRecord], None] | None = None,
) -> Joined:
    """``owner``: the signed-in account taking the seat (issue 15): the seat is bound to it,
    and an account that already holds a seat in this game is refused (``ALREADY_SEATED``).
    ``attempts`` and ``parties`` (``join_limits.counted_parties``: the source address and the
    account) limit wrong passwords per game and party (join_limits.py). ``admit`` refuses a
    player the game does not admit, before anything is written (issue 34: join_rules.py)."""
    token = new_token()
    rng = secrets.SystemRandom()

    def attempt() -> Joined:
        game = load_active(store, game_id)
        if admit is not None:
            admit(game)
        stored_password = game.settings.get("join_password")
        if stored_password:
            _check_password(game_id, stored_password, password, attempts, parties, clock)
        bound = seat_fields(game, owner) if owner is not None else {}
        kind = kind_of(game)
        powers = kind.seats(game)
        free = open_seats(game, powers)
        if power is not None:
            wanted = power.upper()
            if wanted not in powers:
                raise UnknownPower(f"no power {power!r} in {game.variant}; powers: {', '.join(powers)}")
            if wanted in dummy_powers(game):
                raise PowerTaken(f"{wanted} is a dummy power: nobody may join it")
            if wanted not in free:
                raise PowerTaken(f"{wanted} is already taken")
            chosen = wanted
        elif not free:
            raise GameFull("every power is taken")
        else:
            chosen = rng.choice(free)
        now = clock.now()
        version = game.version
        game.players[chosen] = {"token_hash": hash_token(token), "joined_at": iso(now), **bound}
        events, outbox = take_over(game, chosen, now)
        if bound:  # issue 34: the players' records map this tenure to the account
            remember_holder(game, events[0].seq, str(bound["user_id"]))
        started = start_if_full(game, kind, now, events, outbox)
        store.save(game, expected_version=version, events=events, outbox=outbox)
        if started:
            sync_schedule(scheduler, game.game_id, phase=game.phase, deadline=game.deadline,
                          reminder=reminder_for(game, now))
        return Joined(power=chosen, token=token)

    return retrying(attempt)


def _check_password(
    game_id: str, stored: Any, password: str | None,
    attempts: AttemptCounter | None, parties: Sequence[str], clock: Clock,
) -> None:
    """A private game's password, with the parties' wrong tries counted when a counter is given."""
    now = clock.now().timestamp()
    if attempts is not None and parties:
        check_join_allowed(attempts, game_id, parties, now)
    if password and check_password(password, stored):
        return
    if attempts is not None and parties:
        record_failed_join(attempts, game_id, parties, now)
    raise BadPassword("this game is private: a correct password is required")


def start_if_full(
    game: GameRecord, kind: GameKind, now: datetime, events: list[EventRecord], outbox: list[OutboxRecord]
) -> bool:
    """The first time no seat is open (dummies fill theirs) the game starts: GAME_STARTED,
    PHASE_STARTED and the first deadline, from now. True if it started (working copy)."""
    if game.started_at is not None or open_seats(game, kind.seats(game)):
        return False
    game.started_at = iso(now)
    game.phase_started_at = iso(now)
    phase_type = str(game.state.get("phase_type", ""))
    game.deadline = None if game.paused else deadline_for(game, phase_type, now)
    events.append(add_event(game, "GAME_STARTED", {"deadline": game.deadline}, now))
    started = {"phase": game.phase, "deadline": game.deadline}
    outbox.append(add_outbox(game, "PHASE_STARTED", started, f"{game.phase}:started"))
    events += kind.on_start(game, now)
    return True


def take_over(game: GameRecord, power: str, now: datetime) -> tuple[list[EventRecord], list[OutboxRecord]]:
    """PLAYER_JOINED, and PLAYER_REPLACED when the seat was left, opened or in civil disorder
    (issue 12): the seat's NMR counts start afresh; the old token is gone with the old entry."""
    previous = game.seats.pop(power, None)
    events = [add_event(game, PLAYER_JOINED, {"power": power}, now)]  # also the notice (EVENT_NOTICES)
    outbox: list[OutboxRecord] = []
    if previous is not None and previous.get("status"):
        taken = {"power": power, "was": str(previous.get("status"))}
        events.append(add_event(game, "PLAYER_REPLACED", taken, now))
        outbox.append(add_outbox(game, "PLAYER_REPLACED", taken, f"replaced:{power}:{game.event_seq}"))
    return events, outbox
