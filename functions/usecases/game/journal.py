"""A change to a game, as it is written: the next events and outbox items of the record, and
the load-modify-save retry when another writer wins the race (``StaleVersion``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from functions.errors import Conflict
from functions.ports import EventRecord, GameRecord, OutboxRecord, StaleVersion
from functions.usecases.game.times import iso

T = TypeVar("T")
MAX_ATTEMPTS = 8


def add_event(
    game: GameRecord, type_: str, data: dict[str, Any], at: datetime, phase: str | None = None
) -> EventRecord:
    """Next event of ``game`` (bumps ``event_seq`` on the working copy)."""
    game.event_seq += 1
    return EventRecord(seq=game.event_seq, type=type_, phase=phase or game.phase, data=data, at=iso(at))


def add_outbox(game: GameRecord, kind: str, payload: dict[str, Any], dedupe: str) -> OutboxRecord:
    """Next outbox item of ``game`` (bumps ``outbox_seq`` on the working copy)."""
    return outbox_at(game, reserve_outbox(game), kind, payload, dedupe)


def reserve_outbox(game: GameRecord) -> int:
    """The next outbox number, taken now for an item written later (``outbox_at``)."""
    game.outbox_seq += 1
    return game.outbox_seq


def outbox_at(game: GameRecord, seq: int, kind: str, payload: dict[str, Any], dedupe: str) -> OutboxRecord:
    """The outbox item numbered ``seq`` (from ``reserve_outbox``)."""
    return OutboxRecord(seq=seq, kind=kind, game_id=game.game_id, dedupe_key=f"{game.game_id}:{dedupe}",
                        payload=payload)


def retrying(attempt: Callable[[], T], attempts: int = MAX_ATTEMPTS) -> T:
    """Run load-modify-save ``attempt`` again while another writer wins the race."""
    for _ in range(attempts):
        try:
            return attempt()
        except StaleVersion:
            continue
    raise Conflict("the game kept changing under this request; retry it")
