"""Fairness of a hand-processed turn (issue 11, item 6): the creator may not cut opponents off.

The creator token can process a turn, but only when doing so takes nobody's chance away:

- ``GAME_NOT_FULL`` (409) before the game has started (every seat filled once; dummies need no
  player, functions/usecases/players/roster.py): processing would adjudicate a board whose empty seats
  hold, and the creator could run the game before anyone joins. A seat left or in civil
  disorder after the start does not block it: the game goes on without that seat.
- ``DEADLINE_NOT_REACHED`` (409) in a timed game whose phase still has time left (a running
  deadline not yet passed, or a paused phase with time remaining), unless every power with a
  decision has submitted (``require_all`` semantics): then nobody is cut off.

The operator token and the scheduler actor (deadline firing, sweeper, auto-process) keep
their powers: the operator is trusted, and the scheduler acts only when the rules say so.
"""

from __future__ import annotations

from datetime import datetime

from functions.errors import DeadlineNotReached, GameNotFull
from functions.ports import GameRecord
from functions.usecases.game import parse_iso
from functions.usecases.players import Actor, has_started, open_seats


def check_creator_may_process(game: GameRecord, actor: Actor, now: datetime, missing: list[str]) -> None:
    """Refuse the creator's hand-processing while it would be unfair; others pass. ``missing``:
    the powers waited on that have not submitted (from the state the turn decoded)."""
    if not actor.is_creator:
        return
    if not has_started(game):
        empty = open_seats(game)
        raise GameNotFull(
            f"the game is not full ({', '.join(empty)} still open); only the operator may process it "
            "before every power has a player", open_seats=empty,
        )
    if _time_left(game, now) and missing:
        raise DeadlineNotReached(
            f"the deadline has not passed and {', '.join(missing)} may still order; the creator "
            "may process early only once every power has submitted", waiting_on=missing,
            deadline=game.deadline,
        )


def _time_left(game: GameRecord, now: datetime) -> bool:
    if game.deadline is not None:
        return now < parse_iso(game.deadline)
    return game.paused and bool(game.paused_remaining)
