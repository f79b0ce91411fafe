"""Turns and the clock: adjudicate a phase, pause, resume or extend its deadline, vote to end the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from functions.api.plumbing import SECURITY, RequestHelpers, answers, services
from functions.schemas import api as schemas
from functions.usecases.game import load
from functions.usecases.players import is_fog_game, own_resolution, seer
from functions.usecases.seats import cast_vote, extend_deadline, pause_game, resume_game
from functions.usecases.turns import process_turn

if TYPE_CHECKING:
    from functions.usecases.seats import DeadlineState

router = Router()
request = RequestHelpers(router)


@router.post("/games/<game_id>/process_turn", tags=["turns"], security=SECURITY, responses=answers(),
             summary="Adjudicate the phase (creator, operator or scheduler)")
def post_process_turn(
    game_id: str,
    body: schemas.ProcessTurnRequest,  # "phase" is required (422 without it; ARCHITECTURE §8)
    require_all: Annotated[bool, Query()] = False,
) -> Response[schemas.ProcessTurnResponse]:
    found, store = services()
    phase = body.phase.upper()

    def apply() -> schemas.ProcessTurnResponse:
        actor = request.actor(store, game_id, found.settings.operator_token)
        current = load(store, game_id)  # the actor's read, served again: one read a turn (issue 29)
        fog_game = is_fog_game(current)
        done = process_turn(
            store, found.clock, game_id, actor, require_all=require_all, expected_phase=phase,
            scheduler=found.scheduler, game=current,
        )
        resolution = {"phase": done.processed_phase, **done.resolution}
        if fog_game and done.game_status == "ACTIVE":  # the caller's own results only (fog_of_war)
            resolution = own_resolution(resolution, seer(actor))
        return schemas.ProcessTurnResponse.model_validate(
            {"status": "ok", "phase": done.phase, "game_status": done.game_status, "resolution": resolution}
        )

    return request.intent("process_turn", game_id, {"require_all": require_all, "phase": phase}, apply)


def _deadline_state(state: DeadlineState) -> schemas.DeadlineState:
    return schemas.DeadlineState(phase=state.phase, deadline=state.deadline, paused=state.paused)


@router.post("/games/<game_id>/pause", tags=["deadlines"], security=SECURITY, responses=answers(),
             summary="Stop the deadline clock (creator or operator); the phase's schedule is removed")
def post_pause(game_id: str) -> Response[schemas.DeadlineState]:
    found, store = services()

    def apply() -> schemas.DeadlineState:
        actor = request.actor(store, game_id, found.settings.operator_token)
        return _deadline_state(pause_game(store, found.clock, game_id, actor, scheduler=found.scheduler))

    return request.intent("pause", game_id, {}, apply)


@router.post("/games/<game_id>/resume", tags=["deadlines"], security=SECURITY, responses=answers(),
             summary="Restart the deadline clock with the time that was left (creator or operator)")
def post_resume(game_id: str) -> Response[schemas.DeadlineState]:
    found, store = services()

    def apply() -> schemas.DeadlineState:
        actor = request.actor(store, game_id, found.settings.operator_token)
        return _deadline_state(resume_game(store, found.clock, game_id, actor, scheduler=found.scheduler))

    return request.intent("resume", game_id, {}, apply)


@router.post("/games/<game_id>/extend", tags=["deadlines"], security=SECURITY, responses=answers(),
             summary="Move the running deadline later by N seconds (creator or operator)")
def post_extend(game_id: str, body: schemas.ExtendRequest) -> Response[schemas.DeadlineState]:
    found, store = services()

    def apply() -> schemas.DeadlineState:
        actor = request.actor(store, game_id, found.settings.operator_token)
        return _deadline_state(
            extend_deadline(store, found.clock, game_id, actor, body.seconds, scheduler=found.scheduler)
        )

    return request.intent("extend", game_id, body, apply)


@router.post("/games/<game_id>/votes", tags=["lifecycle"], security=SECURITY, responses=answers(),
             summary="Vote for a draw (DIAS) and/or concede; the game ends when the votes carry")
def post_votes(game_id: str, body: schemas.VoteRequest) -> Response[schemas.VoteResponse]:
    found, store = services()

    def apply() -> schemas.VoteResponse:
        actor = request.actor(store, game_id, found.settings.operator_token)
        done = cast_vote(store, found.clock, game_id, actor, draw=body.draw, concede=body.concede,
                         scheduler=found.scheduler)
        return schemas.VoteResponse.model_validate(done._asdict())

    return request.intent("votes", game_id, body, apply)
