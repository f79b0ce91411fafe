"""The community's routes (issue 34): profiles, leaderboards, the archive, MILA and Cicero files.

Reads are public (a finished game's record is public history); imports need a signed-in account
or the operator and count against the account's hourly imports, like ``POST /games/import``.
"""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query

from functions.api.identity import is_operator, signed_in
from functions.api.plumbing import SECURITY, RequestHelpers, answers, services
from functions.ports.community import ArchiveQuery
from functions.schemas import api as schemas
from functions.schemas import community as models
from functions.usecases.community import community_views, open_formats
from functions.usecases.game import iso
from functions.usecases.games import Created, take_import_slot

router = Router()
request = RequestHelpers(router)
CREATED = answers(status=201, description="Created")
VARIANT = r"^[A-Za-z0-9_-]{1,40}$"
DATE = r"^\d{4}-\d{2}-\d{2}([T ][0-9:.]{2,12}Z?)?$"


@router.get(
    "/players/<user_id>",
    tags=["community"],
    responses=answers(),
    summary="A player's public record: games, results, centres, reliability, ratings, recent games",
)
def get_player(user_id: str) -> models.PlayerProfile:
    found, _ = services()
    return models.PlayerProfile.model_validate(community_views.profile(found.community_store, user_id))


@router.get(
    "/leaderboard",
    tags=["community"],
    responses=answers(),
    summary="A variant's ratings, best first (OpenSkill ordinal)",
)
def get_leaderboard(
    variant: Annotated[str, Query(pattern=VARIANT)] = "classical",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> models.Leaderboard:
    found, _ = services()
    return models.Leaderboard.model_validate(
        community_views.leaderboard(found.community_store, variant, limit)
    )


@router.get(
    "/archive",
    tags=["community"],
    responses=answers(),
    summary="Finished games, newest first, by variant or player; filter by result and dates",
)
def get_archive(
    variant: Annotated[str | None, Query(pattern=VARIANT)] = None,
    player: Annotated[str | None, Query(min_length=1, max_length=128)] = None,
    result: Annotated[str | None, Query(pattern=r"^(solo|draw|concession|year_limit|abandoned)$")] = None,
    since: Annotated[str | None, Query(pattern=DATE)] = None,
    until: Annotated[str | None, Query(pattern=DATE)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
) -> models.Archive:
    found, _ = services()
    query = ArchiveQuery(variant=variant, player=player, kind=result, since=since, until=until, limit=limit)
    return models.Archive.model_validate(community_views.search_archive(found.community_store, query))


@router.get(
    "/games/<game_id>/export/mila",
    tags=["community"],
    responses=answers(),
    summary="The game as MILA's saved-game JSON, with a convoy extension for status and outcome",
)
def get_mila(game_id: str) -> dict[str, Any]:
    _, store = services()
    return open_formats.export_mila(store, game_id)


def _imported(kind: str, body: Any, convert: Any) -> Response[schemas.CreateGameResponse]:
    found, store = services()
    token = request.bearer()
    user = None if is_operator(token, found.settings.operator_token) else signed_in(token)

    def apply() -> schemas.CreateGameResponse:
        now = found.clock.now()
        take_import_slot(found.rate_counter, user.user_id if user else None, now.timestamp())
        created: Created = convert(
            store, found.clock, body.model_dump(mode="json"), creator_user_id=user.user_id if user else None
        )
        if user is not None:
            found.account_store.remember_game(user.user_id, created.game_id, iso(now))
        return schemas.CreateGameResponse(game_id=created.game_id, token=created.token)

    return request.intent(kind, None, body, apply, status=201)


@router.post(
    "/games/import/mila",
    status_code=201,
    responses=CREATED,
    tags=["community"],
    security=SECURITY,
    summary="A new game from MILA's saved-game JSON, replayed by Convoy's engine; never rated",
)
def post_import_mila(body: models.MilaGame) -> Response[schemas.CreateGameResponse]:
    return _imported("import_mila", body, open_formats.import_mila)


@router.post(
    "/games/import/cicero",
    status_code=201,
    responses=CREATED,
    tags=["community"],
    security=SECURITY,
    summary="A new game from a webDiplomacy game in Cicero's published layout, replayed; never rated",
)
def post_import_cicero(body: models.CiceroGame) -> Response[schemas.CreateGameResponse]:
    return _imported("import_cicero", body, open_formats.import_cicero)
