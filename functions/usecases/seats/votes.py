"""Draw (DIAS) and concession votes: ``POST /games/{id}/votes``.

A seated, active power casts or withdraws ``draw`` and/or ``concede``. The votes are
counted at once (and again after each processed phase, functions/usecases/turns/lifecycle.py):
- every active power votes draw -> the game ends in a draw of all survivors (DIAS);
- every active power but one concedes -> that one wins (``concession``).
A vote stands until withdrawn or until the phase is processed.

Secret ballot (``draw_votes: "secret"``, the default): the answer and the view show
the caller only its own vote and, once it happened, that the game ended; nothing is
written to the (public) event log when a vote is cast. Public ballot: the answer
and the view show every vote, and a ``VOTE_CAST`` event names power and vote.

A vote that does not end the game writes only the power's own item (issue 29). A secret vote
writes no event, so unlike an order it does not make a turn being committed meanwhile start
over: a vote that lands while its phase is being adjudicated counts as cast after it, and
the processing clears it like every vote of that phase (it is stored with its phase and never
read in the next one). A vote that ends the game writes META, and races as any META write.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from functions.errors import Forbidden, GameNotStarted, ValidationFailed
from functions.ports import Clock, DeadlineScheduler, EventRecord, GameStore, OutboxRecord
from functions.usecases.game import add_event, load_active, retrying, state_of, with_scores
from functions.usecases.players import (
    Actor,
    active_powers,
    ballot,
    has_started,
    require_player,
    votes_seen_by,
)
from functions.usecases.turns import end_game, sync_schedule, vote_outcome


class VoteState(NamedTuple):
    """A power's votes after casting, and where the game stands."""

    phase: str
    power: str
    draw: bool
    concede: bool
    game_status: str
    result: dict[str, Any] | None
    votes: dict[str, dict[str, bool]] | None  # every vote: public ballots only


def cast_vote(
    store: GameStore, clock: Clock, game_id: str, actor: Actor, *,
    draw: bool | None = None, concede: bool | None = None,
    scheduler: DeadlineScheduler | None = None,
) -> VoteState:
    power = require_player(actor)
    if draw is None and concede is None:
        raise ValidationFailed('give "draw": true|false and/or "concede": true|false')

    def attempt() -> VoteState:
        game = load_active(store, game_id)
        if not has_started(game):
            raise GameNotStarted("votes open once every seat has been taken")
        state = state_of(game)
        if power not in active_powers(game, state):
            raise Forbidden(f"{power} is not an active power (eliminated), so it has no vote")
        version, now, timed = game.version, clock.now(), bool(game.deadline)
        vote = dict(game.votes.get(power) or {})
        if draw is not None:
            vote["draw"] = draw
        if concede is not None:
            vote["concede"] = concede
        game.votes[power] = vote
        events: list[EventRecord] = []
        outbox: list[OutboxRecord] = []
        if ballot(game) == "public":
            events.append(add_event(game, "VOTE_CAST", {"power": power, **vote}, now))
        ended = vote_outcome(game, state)
        if ended is not None:
            last = store.last_phase(game_id)
            more = end_game(game, ended[0], ended[1], state, last.phase if last else None, now)
            events += more[0]
            outbox += more[1]
        if ended is None:  # the power's own item (and, on a public ballot, its event): not META
            saved = store.save_turn(game, power, events=events)
        else:
            saved = store.save(game, expected_version=version, events=events, outbox=outbox)
            sync_schedule(scheduler, game_id, phase=saved.phase, deadline=None, was_timed=timed)
        return VoteState(
            phase=saved.phase, power=power, draw=bool(vote.get("draw")), concede=bool(vote.get("concede")),
            game_status=saved.status, result=with_scores(saved.result),
            votes=votes_seen_by(game, power) if ballot(game) == "public" else None,
        )

    return retrying(attempt)
