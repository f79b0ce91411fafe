"""Tournaments (issue 34 item 7): create an event, seed its rounds into boards, standings."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router

from functions.api.identity import is_operator, signed_in
from functions.api.plumbing import SECURITY, RequestHelpers, answers, services
from functions.schemas import community as models
from functions.usecases.community import tournament_standings, tournaments

router = Router()
request = RequestHelpers(router)


@router.post(
    "/tournaments",
    status_code=201,
    responses=answers(status=201, description="Created"),
    tags=["community"],
    security=SECURITY,
    summary="Create a tournament (signed in: the caller directs it): entrants, rounds, scoring",
)
def post_tournament(body: models.TournamentRequest) -> Response[models.Tournament]:
    found, store = services()
    director = signed_in(request.bearer())

    def apply() -> models.Tournament:
        created = tournaments.create_tournament(
            found.community_store,
            found.account_store,
            found.clock,
            director.user_id,
            body.name,
            body.players,
            body.rounds,
            body.scoring,
            body.variant,
            body.max_year,
            body.phase_seconds,
        )
        return models.Tournament.model_validate(tournament_standings.tournament_view(store, created))

    return request.intent("tournament", None, body, apply, status=201)


@router.get(
    "/tournaments/<tournament_id>",
    tags=["community"],
    responses=answers(),
    summary="A tournament: its rounds' boards, each board's game, status, result and points",
)
def get_tournament(tournament_id: str) -> models.Tournament:
    found, store = services()
    found_event = tournaments.load_tournament(found.community_store, tournament_id)
    return models.Tournament.model_validate(tournament_standings.tournament_view(store, found_event))


@router.post(
    "/tournaments/<tournament_id>/rounds",
    tags=["community"],
    security=SECURITY,
    responses=answers(),
    summary="Seed the next round (director or operator): boards by rating, fewest repeat pairings; "
    "each board's game created with its players seated",
)
def post_round(tournament_id: str) -> Response[models.Tournament]:
    found, store = services()
    token = request.bearer()
    operator = is_operator(token, found.settings.operator_token)
    caller = None if operator else signed_in(token).user_id

    def apply() -> models.Tournament:
        seeded = tournaments.seed_next_round(
            store, found.community_store, found.account_store, found.clock, tournament_id, caller, operator
        )
        return models.Tournament.model_validate(tournament_standings.tournament_view(store, seeded))

    return request.intent("tournament_round", tournament_id, {}, apply)


@router.get(
    "/tournaments/<tournament_id>/standings",
    tags=["community"],
    responses=answers(),
    summary="Standings: each player's points over the finished boards, ranked",
)
def get_standings(tournament_id: str) -> models.Standings:
    found, store = services()
    event = tournaments.load_tournament(found.community_store, tournament_id)
    return models.Standings.model_validate(tournament_standings.tournament_standings(store, event))
