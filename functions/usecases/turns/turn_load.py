"""The first step of a turn (process_turn.py): the game, read once, and every refusal, checked
before the engine runs. The phase's state is decoded here, once, into the ``Turn`` value the
later steps share.

Refusals, in this order: ``NOT_A_PLAYER`` / ``FORBIDDEN`` (who may process at all), the game
over or at another phase (``STALE_PHASE``; ``LostRace`` on a retry after a lost commit),
``GAME_PAUSED`` for the scheduler actor, another game kind (``WRONG_GAME_KIND``),
``ORDERS_MISSING`` with ``require_all``, the creator's fairness rules (fairness.py), and a
deadline firing for a phase not yet due (``NotDue``)."""

from __future__ import annotations

from datetime import datetime

from functions.errors import Forbidden, GameNotActive, GamePaused, NotAPlayer, OrdersMissing, StalePhase
from functions.ports import GameRecord, GameStore
from functions.usecases.game import game_map, load_active, parse_iso, state_of
from functions.usecases.players import Actor, waited_on
from functions.usecases.turns.fairness import check_creator_may_process
from functions.usecases.turns.outcomes import LostRace, NotDue, Turn, TurnRequest


def check_actor(actor: Actor) -> None:
    """Only the creator, the operator and the scheduler process turns (before any read)."""
    if actor.kind == "anonymous":
        raise NotAPlayer("an Authorization: Bearer <creator or operator token> header is required")
    if not actor.may_process:
        raise Forbidden("only the game's creator, the operator or the scheduler may process a turn")


def load_turn(store: GameStore, request: TurnRequest, now: datetime, given: GameRecord | None,
              again: bool) -> Turn:
    """The game at the requested phase, checked, its state decoded: one read (none when the
    caller holds the record, ``given``). ``again``: a retry after a lost commit."""
    game = given if given is not None else load_active(store, request.game_id)
    _check_phase(game, request.phase, again)
    if game.paused and request.actor.kind == "scheduler":
        raise GamePaused("the game is paused; only its creator or the operator may process it")
    state = state_of(game)  # first: another game kind is WRONG_GAME_KIND, not UNKNOWN_VARIANT
    the_map = game_map(game.variant)
    missing = [p for p in waited_on(game, state, the_map) if p not in game.pending_orders]
    if request.require_all and missing:
        raise OrdersMissing(f"waiting on {', '.join(missing)}", waiting_on=missing)
    _check_due(game, request.due_by)  # the scheduler's; the next check is the creator's
    check_creator_may_process(game, request.actor, now, missing)  # issue 11: no cutting opponents off
    return Turn(game, state, the_map)


def _check_phase(game: GameRecord, phase: str, again: bool) -> None:
    if game.status != "ACTIVE":
        raise GameNotActive("the game is over")
    if game.phase != phase:
        refusal = LostRace if again else StalePhase
        raise refusal(f"process_turn for {phase}, but the game is at {game.phase}; nothing was processed",
                      phase=game.phase)


def _check_due(game: GameRecord, due_by: datetime | None) -> None:
    """A deadline firing processes only a phase whose deadline has passed."""
    if due_by is None:
        return
    deadline = parse_iso(game.deadline) if game.deadline else None
    if deadline is None or deadline > due_by:
        raise NotDue(deadline)
