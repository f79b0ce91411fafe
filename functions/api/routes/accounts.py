"""The account routes (issue 15): ``/auth/*``, ``/me``, ``/me/games``, ``/me/seats``.

Thin: parse, call one use case of functions/usecases/accounts/accounts.py, shape the answer.
``/auth/signup``, ``/auth/confirm``, ``/auth/signin``, ``/auth/refresh``, ``/auth/forgot`` and
``/auth/reset`` are conveniences over the user pool for clients without the hosted UI; on AWS
a client may talk to Cognito directly and only send the API its ID token (docs/accounts.md).
None of them tells whether an address has an account (issue 28 item 11). No password, code or token
is ever logged: ``SecretStr`` (or ``repr=False``) hides them from the route arguments
Powertools logs at DEBUG, and the pool's tokens go only to the caller who signed in.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router

from functions.api import services as api_services
from functions.api.identity import signed_in
from functions.api.plumbing import SECURITY, RequestHelpers, answers
from functions.schemas import accounts as schemas
from functions.usecases.accounts import accounts
from functions.usecases.players import hash_token

TAGS = ["accounts"]
router = Router()
request = RequestHelpers(router)


def _user(user: accounts.User) -> schemas.UserView:
    return schemas.UserView(user_id=user.user_id, display_name=user.display_name)


def _tokens(tokens: Any, user: accounts.User) -> dict[str, Any]:
    return {"id_token": tokens.id_token, "access_token": tokens.access_token,
            "expires_in": tokens.expires_in, "user": _user(user)}


@router.post("/auth/signup", status_code=201, tags=TAGS, responses=answers(status=201, description="Created"),
             summary="Create an account; a code is mailed unless the pool confirms at once")
def signup(body: schemas.SignUpRequest) -> Response[schemas.SignUpResponse]:
    services = api_services.current()
    user_id, confirmed = accounts.sign_up(
        services.identity_provider, services.account_store, services.clock,
        body.email.lower(), body.password.get_secret_value(), body.display_name.strip(),
    )
    answer = schemas.SignUpResponse(user_id=user_id, confirmation="none" if confirmed else "required")
    return Response(status_code=201, content_type="application/json", body=answer)


@router.post("/auth/confirm", tags=TAGS, responses=answers(),
             summary="Confirm an account with the mailed code (locally: docs/accounts.md)")
def confirm(body: schemas.ConfirmRequest) -> schemas.ConfirmResponse:
    accounts.confirm(api_services.current().identity_provider, body.email.lower(), body.code.strip())
    return schemas.ConfirmResponse()


@router.post("/auth/forgot", tags=TAGS, responses=answers(),
             summary="Mail a password reset code; the same answer whether or not the address has an account")
def forgot(body: schemas.ForgotPasswordRequest) -> schemas.ForgotPasswordResponse:
    accounts.forgot_password(api_services.current().identity_provider, body.email.lower())
    return schemas.ForgotPasswordResponse()


@router.post("/auth/reset", tags=TAGS, responses=answers(),
             summary="Set a new password with the mailed reset code")
def reset(body: schemas.ResetPasswordRequest) -> schemas.ResetPasswordResponse:
    accounts.reset_password(api_services.current().identity_provider, body.email.lower(), body.code.strip(),
                            body.password.get_secret_value())
    return schemas.ResetPasswordResponse()


@router.post("/auth/signin", tags=TAGS, responses=answers(),
             summary="Sign in: ID, access and refresh tokens; send the ID token as Bearer")
def signin(body: schemas.SignInRequest) -> schemas.SignInResponse:
    services = api_services.current()
    tokens, user = accounts.sign_in(
        services.identity_provider, services.token_verifier, services.account_store, services.clock,
        body.email.lower(), body.password.get_secret_value(),
    )
    return schemas.SignInResponse(**_tokens(tokens, user), refresh_token=tokens.refresh_token or "")


@router.post("/auth/refresh", tags=TAGS, responses=answers(),
             summary="New ID and access tokens from a refresh token")
def refresh(body: schemas.RefreshRequest) -> schemas.RefreshResponse:
    services = api_services.current()
    tokens, user = accounts.refresh(
        services.identity_provider, services.token_verifier, services.account_store, services.clock,
        body.refresh_token.get_secret_value(),
    )
    return schemas.RefreshResponse(**_tokens(tokens, user))


@router.get("/me", tags=TAGS, security=SECURITY, responses=answers(), summary="The signed-in account")
def get_me() -> schemas.UserView:
    return _user(signed_in(request.bearer()))


@router.get("/me/games", tags=TAGS, security=SECURITY, responses=answers(),
            summary="The account's games: seat, phase, deadline, orders due, unread press, creator")
def get_my_games() -> schemas.MyGames:
    services = api_services.current()
    user = signed_in(request.bearer())
    found = accounts.my_games(services.store, services.press_store, services.account_store, user)
    return schemas.MyGames.model_validate({"games": found})


@router.post("/me/seats", tags=TAGS, security=SECURITY, responses=answers(),
             summary="Bind an existing seat token to the account (once per seat)")
def post_my_seat(body: schemas.BindSeatRequest) -> Response[schemas.BoundSeat]:
    services = api_services.current()
    user = signed_in(request.bearer())
    token = body.token.get_secret_value()

    def apply() -> schemas.BoundSeat:
        power = accounts.bind_seat(services.store, services.account_store, services.clock, user,
                                   body.game_id, token)
        return schemas.BoundSeat(game_id=body.game_id, power=power)

    scope = {"game_id": body.game_id, "token_hash": hash_token(token)}
    return request.intent("bind_seat", body.game_id, scope, apply)
