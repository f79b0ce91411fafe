"""Seats: take a power (or a side), give a seat up, open someone's seat, choose the dummies."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router

from functions.api.identity import user_for
from functions.api.plumbing import SECURITY, RequestHelpers, answers, services
from functions.schemas import api as schemas
from functions.usecases.game import iso
from functions.usecases.players import admission, counted_parties
from functions.usecases.seats import join_game, leave_game, open_seat, set_dummy_powers

if TYPE_CHECKING:
    from functions.usecases.seats.seats import SeatChanged

router = Router()
request = RequestHelpers(router)


@router.post("/games/<game_id>/join", tags=["games"], responses=answers(),
             summary="Take a power (or a random free one); returns the player's token, shown once")
def post_join(game_id: str, body: schemas.JoinRequest) -> Response[schemas.JoinResponse]:
    found, store = services()
    user = user_for(request.bearer())  # signed in: the seat is bound to the account (issue 15)

    def apply() -> schemas.JoinResponse:
        if user is not None:  # the index first; the META is the truth (usecases/accounts/accounts.py)
            found.account_store.remember_game(user.user_id, game_id, iso(found.clock.now()))
        joined = join_game(
            store, found.clock, game_id, body.side or body.power,
            body.password.get_secret_value() if body.password is not None else None,
            scheduler=found.scheduler, owner=user, attempts=found.attempts,
            parties=counted_parties(request.source_ip(), user.user_id if user else None),
            admit=admission(found.community_store, user.user_id if user else None),  # issue 34
        )
        return schemas.JoinResponse(power=joined.power, token=joined.token)

    return request.intent("join", game_id, body, apply)


def _seat(changed: SeatChanged) -> schemas.SeatChange:
    return schemas.SeatChange(power=changed.power, status=changed.status, open_seats=changed.open_seats)


@router.post("/games/<game_id>/leave", tags=["lifecycle"], security=SECURITY, responses=answers(),
             summary="Give up the caller's seat: the token stops working and the seat opens for join")
def post_leave(game_id: str) -> Response[schemas.SeatChange]:
    found, store = services()

    def apply() -> schemas.SeatChange:
        actor = request.actor(store, game_id, found.settings.operator_token)
        return _seat(leave_game(store, found.clock, game_id, actor, scheduler=found.scheduler))

    return request.intent("leave", game_id, {}, apply)


@router.post("/games/<game_id>/seats/<power>/open", tags=["lifecycle"], security=SECURITY,
             responses=answers(),
             summary="Open a seated power's seat (creator or operator): its player's token stops working")
def post_open_seat(game_id: str, power: str) -> Response[schemas.SeatChange]:
    found, store = services()

    def apply() -> schemas.SeatChange:
        actor = request.actor(store, game_id, found.settings.operator_token)
        return _seat(open_seat(store, found.clock, game_id, actor, power, scheduler=found.scheduler))

    return request.intent(f"open_seat:{power.upper()}", game_id, {}, apply)


@router.post("/games/<game_id>/dummy_powers", tags=["lifecycle"], security=SECURITY, responses=answers(),
             summary="Choose the dummy powers while the game is forming (creator or operator)")
def post_dummy_powers(game_id: str, body: schemas.DummyPowersRequest
                      ) -> Response[schemas.DummyPowersResponse]:
    found, store = services()

    def apply() -> schemas.DummyPowersResponse:
        actor = request.actor(store, game_id, found.settings.operator_token)
        done = set_dummy_powers(store, found.clock, game_id, actor, body.dummy_powers,
                                scheduler=found.scheduler)
        return schemas.DummyPowersResponse.model_validate(asdict(done))

    return request.intent("dummy_powers", game_id, body, apply)
