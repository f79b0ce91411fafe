"""Games as a whole: create, list, view, export and import; the variants one may create.

A player's view (``GET /games/<game_id>``) is the one view builder's dict as it is; the
route's return annotation holds it to its kind's model (``VIEW_MODELS``), which
tests/contracts/test_view_schema.py checks is exactly what the builder makes.
"""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from functions.api.identity import actor_for, is_operator, signed_in, user_for
from functions.api.plumbing import OPTIONAL_SECURITY, SECURITY, RequestHelpers, answers, services
from functions.schemas import api as schemas
from functions.usecases.game import LifecycleSettings, iso, load_with_press
from functions.usecases.games import CreateGame, import_game, take_import_slot
from functions.usecases.kinds import kind_named, lobby, view_for
from functions.usecases.notifications import claim_webhook_hosts
from functions.usecases.players import community_settings
from functions.usecases.turns import export_game, views

router = Router()
request = RequestHelpers(router)

# The model each game kind's view (functions/usecases/games/game_kinds.py) answers to, by name: the
# OpenAPI document's response, and the schema tests hold every view to.
VIEW_MODELS: dict[str, str] = {"diplomacy": "GameView", "backgammon": "BackgammonView"}
CREATED = answers(status=201, description="Created")


def _create_request(body: schemas.CreateGameRequest, allow_loopback: bool, creator: str | None) -> CreateGame:
    """The use case's request from the validated body (issue 15: a signed-in creator owns the game)."""
    return CreateGame(
        variant=body.variant,
        rules=body.rules,
        phase_seconds={k: v for k, v in (body.phase_seconds or schemas.PhaseSeconds()).model_dump().items()
                       if v is not None},
        private=body.private,
        join_password=body.join_password.get_secret_value() if body.join_password else None,
        auto_process=body.auto_process,
        reminder_seconds=body.reminder_seconds,
        notify=tuple(t.model_dump(exclude_none=True) for t in body.notify or []),
        allow_loopback_webhooks=allow_loopback,
        press=body.press,
        anonymous=body.anonymous,
        fog=body.fog,
        lifecycle=LifecycleSettings(
            draw_votes=body.draw_votes, max_year=body.max_year, nmr_extensions=body.nmr_extensions,
            civil_disorder_after=body.civil_disorder_after, dummy_powers=tuple(body.dummy_powers or ()),
            demo=body.demo, demo_power=body.demo_power,
            deadline_at=body.deadline_at.model_dump(exclude_none=True) if body.deadline_at else None,
        ),
        game=body.game,
        seed=body.backgammon.seed if body.backgammon else None,
        move_by_turn_rolls=bool(body.backgammon and body.backgammon.move_by_turn_rolls),
        creator_user_id=creator,
        name=body.name,
        community=community_settings(body.scoring, body.min_reliability, body.min_rating),  # issue 34
    )


@router.post("/games", status_code=201, responses=CREATED, tags=["games"],
             summary="Create a game; returns the creator's token")
def post_game(body: schemas.CreateGameRequest) -> Response[schemas.CreateGameResponse]:
    found, store = services()
    user = user_for(request.bearer())  # signed in: the account is the creator (issue 15)
    create = _create_request(body, found.settings.allow_loopback_webhooks, user.user_id if user else None)

    def apply() -> schemas.CreateGameResponse:
        if found.attempts is not None and create.notify:  # issue 11: per host, across games
            claim_webhook_hosts(found.attempts, create.notify, found.clock.now().timestamp())
        created = kind_named(body.game).create(store, found.clock, create)
        if user is not None:
            found.account_store.remember_game(user.user_id, created.game_id, iso(found.clock.now()))
        return schemas.CreateGameResponse(
            game_id=created.game_id, token=created.token, webhook_secret=created.webhook_secret,
            webhook_secrets=[schemas.WebhookSecret(target=i, secret=s)
                             for i, s in getattr(created, "webhook_secrets", ())],
            power=created.power, player_token=created.player_token,
        )

    return request.intent("create", None, body, apply, status=201)


@router.get("/games", tags=["games"], summary="List games (newest first)")
def get_games(limit: Annotated[int, Query(ge=1, le=100)] = 50) -> schemas.GameList:
    _, store = services()
    return schemas.GameList.model_validate({"games": lobby.list_games(store, limit)})


@router.get("/games/<game_id>", tags=["games"], security=OPTIONAL_SECURITY, responses=answers(),
            summary="The game as the caller may see it (redacted per power; observers see no orders)")
def get_game(game_id: str) -> schemas.GameView | schemas.BackgammonView:
    found, store = services()
    game, ledgers = load_with_press(store, game_id)  # one query: the game, its powers, their press
    actor = actor_for(game, request.bearer(), found.settings.operator_token)
    # the view builder's dict (the same one every live frame carries: functions/usecases/
    # player_view.py), validated against its kind's model on the way out
    return view_for(game, actor, found.press_store, ledgers)


@router.get("/variants", tags=["games"], summary="Variants and rulebooks")
def get_variants() -> schemas.VariantList:
    return schemas.VariantList.model_validate({"variants": views.list_variants()})


@router.get("/games/<game_id>/export", tags=["lifecycle"], responses=answers(),
            summary="The whole game as one document: settings, every phase, the result; never a secret")
def get_export(game_id: str) -> schemas.ExportDocument:
    _, store = services()
    return schemas.ExportDocument.model_validate(export_game(store, game_id))


@router.post("/games/import", status_code=201, responses=CREATED, tags=["lifecycle"], security=SECURITY,
             summary="A new game from an export, at its last phase, every seat open; signed-in accounts "
             "and the operator only; returns the creator token")
def post_import(body: schemas.ImportDocument) -> Response[schemas.CreateGameResponse]:
    found, store = services()
    token = request.bearer()
    user = None if is_operator(token, found.settings.operator_token) else signed_in(token)

    def apply() -> schemas.CreateGameResponse:
        now = found.clock.now()
        take_import_slot(found.rate_counter, user.user_id if user else None, now.timestamp())
        created = import_game(store, found.clock, body.model_dump(mode="json", exclude_unset=True),
                              creator_user_id=user.user_id if user else None)
        if user is not None:
            found.account_store.remember_game(user.user_id, created.game_id, iso(now))
        return schemas.CreateGameResponse(game_id=created.game_id, token=created.token)

    return request.intent("import", None, body, apply, status=201)

