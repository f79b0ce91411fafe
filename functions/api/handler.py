"""The REST API Lambda: HTTP API (payload v2) routes -> one use case each -> response models.

Handlers only parse, authenticate (bearer token -> Actor), call a use case and shape
the answer. Domain errors become ``{"code", "message"}`` with their HTTP status here,
in one place; anything else is a 500 ``INTERNAL`` with no stack trace in the body.
Every POST honours ``Idempotency-Key`` (functions/api/idempotency.py).

Cold start (issue 9, docs/performance.md): a use case that only some routes call is imported
in those routes (``# deferred``), and the account and sandbox routes are mounted
(``app.mount``), so a cold Lambda serving a player's view loads neither.

How to add a route: docs/api.md, "How to add a route" (decorator on ``app``, typed path and
query parameters, a pydantic body model; ``Response``/``Query`` come from functions/api/router.py).
"""

from __future__ import annotations

import gc

# Cold start (issue 9, docs/performance.md rule 12): what the imports below build (modules,
# classes, functions, pydantic's field infos) lives as long as the process, so the cyclic
# collector's passes while they load scan a growing heap and free next to nothing. Paused
# here; at the end of this module what was built is frozen out of every later collection.
_COLLECTOR_WAS_ON = gc.isenabled()
gc.disable()

import base64
from collections.abc import Callable
from dataclasses import asdict
from typing import TYPE_CHECKING, Annotated, Any, Literal
from urllib.parse import unquote

from functions import wiring
from functions.api import body_guard
from functions.api.idempotency import run_once
from functions.api.identity import actor_for, caller_key, user_for
from functions.api.lazy_module import LazyModule
from functions.api.request_store import RequestStore
from functions.api.router import Query, RequestValidationError, Response, Router, is_model_instance
from functions.errors import DomainError
from functions.observability import API_GATEWAY_HTTP, get_logger
from functions.ports import StorageUnavailable
from functions.usecases import press, views
from functions.usecases.common import Actor, hash_token, iso, load
from functions.usecases.kind_registry import kind_named, kind_of
from functions.usecases.results import with_scores

if TYPE_CHECKING:
    from pydantic import BaseModel

    from functions.schemas import api as schemas
    from functions.usecases.game_control import DeadlineState
    from functions.usecases.seats import SeatChanged

else:
    # Read on first use (functions/api/lazy_module.py): a player's view validates no body and
    # no query, so a cold Lambda serving views never imports pydantic (issue 9 item 6).
    schemas = LazyModule("functions.schemas.api")

logger = get_logger()
app = Router()
# pydantic's error class, named rather than imported (functions/api/router.py exception_handler)
PYDANTIC_VALIDATION_ERROR = "pydantic_core._pydantic_core.ValidationError"

TITLE = "Convoy"
VERSION = "1.0.0"
JSON = "application/json"
SECURITY: list[dict[str, list[str]]] = [{"bearer": []}]
OPTIONAL_SECURITY: list[dict[str, list[str]]] = [{"bearer": []}, {}]  # observers need no token
ERROR_BODY = {JSON: {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
ERRORS: dict[int, Any] = {
    code: {"description": text, "content": ERROR_BODY}
    for code, text in [
        (400, "Bad request"), (401, "No valid token"), (403, "Forbidden"), (404, "Not found"),
        (409, "Conflict (STALE_PHASE, POWER_TAKEN, ...)"), (422, "Validation error"),
    ]
}
# answers any route can give (functions/api/body_guard.py, storage): documented on every operation
COMMON_ERRORS: dict[str, str] = {
    "400": "Bad request (INVALID_ENCODING, JSON_TOO_DEEP)", "413": "PAYLOAD_TOO_LARGE",
    "415": "UNSUPPORTED_MEDIA_TYPE", "422": "Validation error (VALIDATION_ERROR)",
    "503": "STORAGE_UNAVAILABLE: retry",
}


# The model each game kind's view (functions/usecases/game_kinds.py) answers to, by name: the
# OpenAPI document's response, and the schema tests hold every view to.
VIEW_MODELS: dict[str, str] = {"diplomacy": "GameView", "backgammon": "BackgammonView"}


# --- plumbing ------------------------------------------------------------------------------


def _services() -> tuple[wiring.Services, RequestStore]:
    services = wiring.services()
    return services, RequestStore(services.store)


def _bearer() -> str | None:
    header = app.current_event.headers.get("authorization") or ""
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _caller() -> str:
    """Who is asking, for per-caller limits (issue 11): the bearer token, else the source address."""
    token = _bearer()
    if token:
        return "token:" + hash_token(token)
    http = (app.current_event.raw_event.get("requestContext") or {}).get("http") or {}
    return "ip:" + str(http.get("sourceIp") or "unknown")


def _actor(store: RequestStore, game_id: str, operator_token: str | None) -> Actor:
    """The caller in this game: a seat/creator/operator token, or a signed-in user's ID token."""
    return actor_for(load(store, game_id), _bearer(), operator_token)


def _json(status: int, body: Any) -> Response[Any]:
    return Response(status_code=status, content_type=JSON, body=body)


def _intent(route: str, game_id: str | None, body: BaseModel | dict[str, Any] | None,
            apply: Callable[[], Any], status: int = 200) -> Response[Any]:
    """Run a state-changing intent once per Idempotency-Key; answer with its JSON."""
    services = wiring.services()
    key = app.current_event.headers.get("idempotency-key")
    token = _bearer()
    scope = {"route": route, "game_id": game_id, "caller": caller_key(token)}
    payload = body.model_dump(mode="json") if is_model_instance(body) else body

    def once() -> dict[str, Any]:
        result = apply()
        data = result.model_dump(mode="json") if is_model_instance(result) else result
        return {"status": status, "body": data}

    outcome = run_once(
        services.idempotency, key, scope, payload, once, services.settings.idempotency_ttl_seconds,
        app.lambda_context,
    )
    return _json(int(outcome["status"]), outcome["body"])


# --- errors --------------------------------------------------------------------------------


@app.exception_handler(DomainError)
def _domain_error(error: DomainError) -> Response[Any]:
    logger.info("rejected", extra={"code": error.code, "status": error.status})
    if "retry_after" in error.extra:  # 429 RATE_LIMITED (press)
        return Response(status_code=error.status, content_type=JSON, body=error.body(),
                        headers={"Retry-After": str(error.extra["retry_after"])})
    return _json(error.status, error.body())


@app.exception_handler(RequestValidationError)
def _validation_error(error: RequestValidationError) -> Response[Any]:
    details = [
        {"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", ""))} for e in error.errors()
    ]
    message = "; ".join(f"{'.'.join(d['loc'])}: {d['msg']}" for d in details) or "invalid request"
    return _json(422, {"code": "VALIDATION_ERROR", "message": message, "errors": details})


@app.exception_handler(PYDANTIC_VALIDATION_ERROR)
def _model_error(error: Any) -> Response[Any]:
    return _json(422, {"code": "VALIDATION_ERROR", "message": str(error.errors()[0].get("msg", ""))})


@app.exception_handler(StorageUnavailable)
def _storage_unavailable(error: StorageUnavailable) -> Response[Any]:
    logger.warning("storage unavailable", extra={"error": str(error)})
    return _json(503, {"code": "STORAGE_UNAVAILABLE",
                       "message": "the game store did not answer; send the same request again"})


@app.exception_handler(Exception)
def _bug(error: Exception) -> Response[Any]:
    logger.exception("unhandled error")
    return _json(500, {"code": "INTERNAL", "message": "internal error; it has been logged"})


@app.not_found
def _not_found(_: Exception) -> Response[Any]:
    return _json(404, {"code": "NOT_FOUND", "message": f"no route {app.current_event.path}"})


# --- routes --------------------------------------------------------------------------------


@app.post("/games", responses={201: {"description": "Created", "content": {JSON: {"schema": {
    "$ref": "#/components/schemas/CreateGameResponse"}}}}, **ERRORS}, tags=["games"],
    summary="Create a game; returns the creator's token")
def post_game(body: schemas.CreateGameRequest) -> Response[schemas.CreateGameResponse]:
    # deferred (issue 9): a view never creates a game
    from functions.usecases.create_game import CreateGame
    from functions.usecases.lifecycle_settings import LifecycleSettings
    from functions.usecases.notify_targets import claim_webhook_hosts

    services, store = _services()
    user = user_for(_bearer())  # signed in: the account is the creator (issue 15)
    request = CreateGame(
        variant=body.variant,
        rules=body.rules,
        phase_seconds={k: v for k, v in (body.phase_seconds or schemas.PhaseSeconds()).model_dump().items()
                       if v is not None},
        private=body.private,
        join_password=body.join_password.get_secret_value() if body.join_password else None,
        auto_process=body.auto_process,
        reminder_seconds=body.reminder_seconds,
        notify=tuple(t.model_dump(exclude_none=True) for t in body.notify or []),
        allow_loopback_webhooks=services.settings.allow_loopback_webhooks,
        press=body.press,
        anonymous=body.anonymous,
        lifecycle=LifecycleSettings(
            draw_votes=body.draw_votes, max_year=body.max_year, nmr_extensions=body.nmr_extensions,
            civil_disorder_after=body.civil_disorder_after, dummy_powers=tuple(body.dummy_powers or ()),
            demo=body.demo, demo_power=body.demo_power,
            deadline_at=body.deadline_at.model_dump(exclude_none=True) if body.deadline_at else None,
        ),
        game=body.game,
        seed=body.backgammon.seed if body.backgammon else None,
        move_by_turn_rolls=bool(body.backgammon and body.backgammon.move_by_turn_rolls),
        creator_user_id=user.user_id if user else None,
        name=body.name,
    )

    def apply() -> schemas.CreateGameResponse:
        if services.attempts is not None and request.notify:  # issue 11: per host, across games
            claim_webhook_hosts(services.attempts, request.notify, services.clock.now().timestamp())
        created = kind_named(body.game).create(store, services.clock, request)
        if user is not None:
            services.account_store.remember_game(user.user_id, created.game_id, iso(services.clock.now()))
        return schemas.CreateGameResponse(
            game_id=created.game_id, token=created.token, webhook_secret=created.webhook_secret,
            webhook_secrets=[schemas.WebhookSecret(target=i, secret=s)
                             for i, s in getattr(created, "webhook_secrets", ())],
            power=created.power, player_token=created.player_token,
        )

    return _intent("create", None, body, apply, status=201)


@app.get("/games", tags=["games"], summary="List games (newest first)")
def get_games(limit: Annotated[int, Query(ge=1, le=100)] = 50) -> schemas.GameList:
    from functions.usecases import lobby  # deferred (issue 9)

    _, store = _services()
    return schemas.GameList.model_validate({"games": lobby.list_games(store, limit)})


@app.get("/games/<game_id>", tags=["games"], security=OPTIONAL_SECURITY, responses=ERRORS,
         summary="The game as the caller may see it (redacted per power; observers see no orders)")
def get_game(game_id: str) -> schemas.GameView | schemas.BackgammonView:
    services, store = _services()
    game = load(store, game_id)
    actor = actor_for(game, _bearer(), services.settings.operator_token)
    # The one view builder's answer as it is: tests hold it to its kind's model (VIEW_MODELS;
    # tests/contracts/test_view_schema.py), so a view needs no pydantic at run time (issue 9).
    return press.with_unread(kind_of(game).view(game, actor), services.press_store, game, actor)


@app.post("/games/<game_id>/join", tags=["games"], responses=ERRORS,
          summary="Take a power (or a random free one); returns the player's token, shown once")
def post_join(game_id: str, body: schemas.JoinRequest) -> schemas.JoinResponse:
    from functions.usecases.join import join_game  # deferred (issue 9)

    services, store = _services()
    user = user_for(_bearer())  # signed in: the seat is bound to the account (issue 15)

    def apply() -> schemas.JoinResponse:
        if user is not None:  # the index first; the META is the truth (functions/usecases/accounts.py)
            services.account_store.remember_game(user.user_id, game_id, iso(services.clock.now()))
        joined = join_game(
            store, services.clock, game_id, body.side or body.power,
            body.password.get_secret_value() if body.password is not None else None,
            scheduler=services.scheduler, owner=user, attempts=services.attempts, caller=_caller(),
        )
        return schemas.JoinResponse(power=joined.power, token=joined.token)

    return _intent("join", game_id, body, apply)  # type: ignore[return-value]


def _submitted(result: Any) -> schemas.SubmitOrdersResponse:
    return schemas.SubmitOrdersResponse(
        phase=result.phase,
        accepted=result.accepted,
        rejected=[schemas.RejectedOrder(**r._asdict()) for r in result.rejected],
        orders=result.orders,
    )


def _submit(game_id: str, body: schemas.SubmitOrdersRequest, mode: str) -> Response[Any]:
    from functions.usecases.submit_orders import submit_orders  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.SubmitOrdersResponse:
        actor = _actor(store, game_id, services.settings.operator_token)
        result = submit_orders(
            store, services.clock, game_id, actor, body.orders,
            phase=body.phase, client_timestamp=body.client_timestamp, mode=mode,
            scheduler=services.scheduler,
        )
        return _submitted(result)

    return _intent(f"orders:{mode}", game_id, body, apply)


@app.post("/games/<game_id>/orders", tags=["orders"], security=SECURITY, responses=ERRORS,
          summary="Replace the caller's whole order set for the phase")
def post_orders(game_id: str, body: schemas.SubmitOrdersRequest) -> schemas.SubmitOrdersResponse:
    return _submit(game_id, body, "replace")  # type: ignore[return-value]


@app.post("/games/<game_id>/orders/add", tags=["orders"], security=SECURITY, responses=ERRORS,
          summary="Add orders, replacing earlier orders for the same units")
def post_orders_add(game_id: str, body: schemas.SubmitOrdersRequest) -> schemas.SubmitOrdersResponse:
    return _submit(game_id, body, "add")  # type: ignore[return-value]


@app.delete("/games/<game_id>/orders", tags=["orders"], security=SECURITY, responses=ERRORS,
            summary='Retract all orders, or with body {"units": ["A PAR"]} those units\' orders')
def delete_orders(game_id: str) -> schemas.SubmitOrdersResponse:
    from functions.usecases.submit_orders import retract_orders  # deferred (issue 9)

    services, store = _services()
    event = app.current_event
    raw = base64.b64decode(event.body or "") if event.is_base64_encoded else event.body
    # model_validate_json: a body that is not JSON (or not UTF-8) is a 422 like any other
    body = schemas.RetractOrdersRequest.model_validate_json(raw or "{}")
    actor = _actor(store, game_id, services.settings.operator_token)
    return _submitted(retract_orders(store, services.clock, game_id, actor, body.units))


@app.get("/games/<game_id>/orders_status", tags=["orders"], responses=ERRORS,
         summary="Who still owes orders (only powers with a decision to make)")
def get_orders_status(game_id: str) -> schemas.OrdersStatus:
    _, store = _services()
    return schemas.OrdersStatus.model_validate(views.orders_status(load(store, game_id)))


@app.post("/games/<game_id>/process_turn", tags=["turns"], security=SECURITY, responses=ERRORS,
          summary="Adjudicate the phase (creator, operator or scheduler)")
def post_process_turn(
    game_id: str,
    body: schemas.ProcessTurnRequest,  # an empty body is {}: no phase (compatibility)
    require_all: Annotated[bool, Query()] = False,
) -> schemas.ProcessTurnResponse:
    from functions.usecases.process_turn import process_turn  # deferred (issue 9)

    services, store = _services()
    phase = body.phase.upper() if body.phase else None

    def apply() -> schemas.ProcessTurnResponse:
        actor = _actor(store, game_id, services.settings.operator_token)
        done = process_turn(
            store, services.clock, game_id, actor, require_all=require_all, expected_phase=phase,
            scheduler=services.scheduler,
        )
        return schemas.ProcessTurnResponse.model_validate(
            {"status": "ok", "phase": done.phase, "game_status": done.game_status,
             "resolution": {"phase": done.processed_phase, **done.resolution}}
        )

    return _intent("process_turn", game_id, {"require_all": require_all, "phase": phase}, apply)  # type: ignore[return-value]


def _deadline_state(state: DeadlineState) -> schemas.DeadlineState:
    return schemas.DeadlineState(phase=state.phase, deadline=state.deadline, paused=state.paused)


@app.post("/games/<game_id>/pause", tags=["deadlines"], security=SECURITY, responses=ERRORS,
          summary="Stop the deadline clock (creator or operator); the phase's schedule is removed")
def post_pause(game_id: str) -> schemas.DeadlineState:
    from functions.usecases.game_control import pause_game  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.DeadlineState:
        actor = _actor(store, game_id, services.settings.operator_token)
        done = pause_game(store, services.clock, game_id, actor, scheduler=services.scheduler)
        return _deadline_state(done)

    return _intent("pause", game_id, {}, apply)  # type: ignore[return-value]


@app.post("/games/<game_id>/notify/<index>/rotate_secret", tags=["notifications"], security=SECURITY,
          responses=ERRORS, summary="New signing secret for one webhook target; the old one signs "
          "beside it for 24 h (creator or operator; docs/notifications.md)")
def post_rotate_secret(game_id: str, index: str) -> schemas.RotateSecretResponse:
    from functions.usecases.webhook_secrets import rotate_webhook_secret  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.RotateSecretResponse:
        actor = _actor(store, game_id, services.settings.operator_token)
        position = int(index) if index.isdigit() and len(index) < 4 else -1
        done = rotate_webhook_secret(store, services.clock, game_id, actor, position)
        return schemas.RotateSecretResponse(
            target=done.target, secret=done.secret, previous_valid_until=done.previous_valid_until
        )

    return _intent("rotate_secret", game_id, {"index": index}, apply)  # type: ignore[return-value]


@app.post("/games/<game_id>/resume", tags=["deadlines"], security=SECURITY, responses=ERRORS,
          summary="Restart the deadline clock with the time that was left (creator or operator)")
def post_resume(game_id: str) -> schemas.DeadlineState:
    from functions.usecases.game_control import resume_game  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.DeadlineState:
        actor = _actor(store, game_id, services.settings.operator_token)
        done = resume_game(store, services.clock, game_id, actor, scheduler=services.scheduler)
        return _deadline_state(done)

    return _intent("resume", game_id, {}, apply)  # type: ignore[return-value]


@app.post("/games/<game_id>/extend", tags=["deadlines"], security=SECURITY, responses=ERRORS,
          summary="Move the running deadline later by N seconds (creator or operator)")
def post_extend(game_id: str, body: schemas.ExtendRequest) -> schemas.DeadlineState:
    from functions.usecases.game_control import extend_deadline  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.DeadlineState:
        actor = _actor(store, game_id, services.settings.operator_token)
        return _deadline_state(
            extend_deadline(store, services.clock, game_id, actor, body.seconds, scheduler=services.scheduler)
        )

    return _intent("extend", game_id, body, apply)  # type: ignore[return-value]


@app.post("/games/<game_id>/wait", tags=["orders"], security=SECURITY, responses=ERRORS,
          summary="Raise or lower the caller's wait flag (holds auto-processing this phase)")
def post_wait(game_id: str, body: schemas.WaitRequest) -> schemas.WaitResponse:
    from functions.usecases.submit_orders import set_wait_flag  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.WaitResponse:
        actor = _actor(store, game_id, services.settings.operator_token)
        done = set_wait_flag(store, services.clock, game_id, actor, body.wait, scheduler=services.scheduler)
        return schemas.WaitResponse(phase=done.phase, wait_flags=done.wait_flags,
                                    auto_processed=done.auto_processed)

    return _intent("wait", game_id, body, apply)  # type: ignore[return-value]


@app.post("/games/<game_id>/votes", tags=["lifecycle"], security=SECURITY, responses=ERRORS,
          summary="Vote for a draw (DIAS) and/or concede; the game ends when the votes carry")
def post_votes(game_id: str, body: schemas.VoteRequest) -> schemas.VoteResponse:
    from functions.usecases.votes import cast_vote  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.VoteResponse:
        actor = _actor(store, game_id, services.settings.operator_token)
        done = cast_vote(store, services.clock, game_id, actor, draw=body.draw, concede=body.concede,
                         scheduler=services.scheduler)
        return schemas.VoteResponse.model_validate(done._asdict())

    return _intent("votes", game_id, body, apply)  # type: ignore[return-value]


def _seat(changed: SeatChanged) -> schemas.SeatChange:
    return schemas.SeatChange(power=changed.power, status=changed.status, open_seats=changed.open_seats)


@app.post("/games/<game_id>/leave", tags=["lifecycle"], security=SECURITY, responses=ERRORS,
          summary="Give up the caller's seat: the token stops working and the seat opens for join")
def post_leave(game_id: str) -> schemas.SeatChange:
    from functions.usecases.seats import leave_game  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.SeatChange:
        actor = _actor(store, game_id, services.settings.operator_token)
        return _seat(leave_game(store, services.clock, game_id, actor, scheduler=services.scheduler))

    return _intent("leave", game_id, {}, apply)  # type: ignore[return-value]


@app.post("/games/<game_id>/seats/<power>/open", tags=["lifecycle"], security=SECURITY, responses=ERRORS,
          summary="Open a seated power's seat (creator or operator): its player's token stops working")
def post_open_seat(game_id: str, power: str) -> schemas.SeatChange:
    from functions.usecases.seats import open_seat  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.SeatChange:
        actor = _actor(store, game_id, services.settings.operator_token)
        return _seat(open_seat(store, services.clock, game_id, actor, power, scheduler=services.scheduler))

    return _intent(f"open_seat:{power.upper()}", game_id, {}, apply)  # type: ignore[return-value]


@app.post("/games/<game_id>/dummy_powers", tags=["lifecycle"], security=SECURITY, responses=ERRORS,
          summary="Choose the dummy powers while the game is forming (creator or operator)")
def post_dummy_powers(game_id: str, body: schemas.DummyPowersRequest) -> schemas.DummyPowersResponse:
    from functions.usecases.seats import set_dummy_powers  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.DummyPowersResponse:
        actor = _actor(store, game_id, services.settings.operator_token)
        done = set_dummy_powers(store, services.clock, game_id, actor, body.dummy_powers,
                                scheduler=services.scheduler)
        return schemas.DummyPowersResponse.model_validate(asdict(done))

    return _intent("dummy_powers", game_id, body, apply)  # type: ignore[return-value]


@app.get("/games/<game_id>/export", tags=["lifecycle"], responses=ERRORS,
         summary="The whole game as one document: settings, every phase, the result; never a secret")
def get_export(game_id: str) -> schemas.ExportDocument:
    from functions.usecases.export import export_game  # deferred (issue 9)

    _, store = _services()
    return schemas.ExportDocument.model_validate(export_game(store, game_id))


@app.post("/games/import", responses={201: {"description": "Created", "content": {JSON: {"schema": {
    "$ref": "#/components/schemas/CreateGameResponse"}}}}, **ERRORS}, tags=["lifecycle"],
    summary="A new game from an export, at its last phase, every seat open; returns the creator token")
def post_import(body: schemas.ExportDocument) -> Response[schemas.CreateGameResponse]:
    from functions.usecases.export import import_game  # deferred (issue 9)

    services, store = _services()

    def apply() -> schemas.CreateGameResponse:
        created = import_game(store, services.clock, body.model_dump(mode="json"))
        return schemas.CreateGameResponse(game_id=created.game_id, token=created.token)

    return _intent("import", None, body, apply, status=201)


@app.post("/games/<game_id>/telegram/link_code", tags=["notifications"], security=SECURITY,
          responses=ERRORS, summary="A one-time code linking a Telegram user to the caller's seat")
def post_link_code(game_id: str) -> schemas.LinkCodeResponse:
    # deferred: only this route needs the bot's use cases (API cold start, issue 9)
    from functions.usecases.telegram_bot import link_code_for
    from functions.wiring import telegram_store

    services, store = _services()

    actor = _actor(store, game_id, services.settings.operator_token)
    issued = link_code_for(actor, game_id, store=telegram_store(), now=services.clock.now())
    return schemas.LinkCodeResponse(code=issued.code, expires_at=iso(issued.expires_at))


@app.post("/games/<game_id>/moves", tags=["backgammon"], security=SECURITY, responses=ERRORS,
          summary="Backgammon: one MOVE [die index, source] or UNDO by the side to play")
def post_move(game_id: str, body: schemas.MoveRequest) -> schemas.MoveResponse:
    services, store = _services()
    # deferred: only backgammon games need the rules package (API cold start, issue 9)
    from functions.usecases.backgammon_game import BACKGAMMON, play

    def apply() -> schemas.MoveResponse:
        actor = _actor(store, game_id, services.settings.operator_token)
        played = play(store, services.clock, game_id, actor, body.input, body.move, phase=body.phase)
        return schemas.MoveResponse.model_validate({
            "view": BACKGAMMON.view(played.game, actor),
            "events": [e._asdict() for e in played.events],
        })

    return _intent("moves", game_id, body, apply)  # type: ignore[return-value]


# --- press (issue 13; functions/usecases/press.py) ----------------------------------------


def _chats() -> Any:
    from functions.wiring import telegram_store  # deferred: no client at import

    return telegram_store()


@app.post("/games/<game_id>/messages", tags=["press"], security=SECURITY, responses={
    201: {"description": "Sent", "content": {JSON: {"schema": {"$ref": "#/components/schemas/SentMessage"}}}},
    429: {"description": "RATE_LIMITED (Retry-After header)"}, **ERRORS},
    summary='Send press: "to" a list of powers (a channel with the sender) or "ALL"')
def post_message(game_id: str, body: schemas.SendMessageRequest) -> Response[schemas.SentMessage]:
    services, store = _services()

    def apply() -> schemas.SentMessage:
        actor = _actor(store, game_id, services.settings.operator_token)
        sent = press.send_message(
            store, services.press_store, services.clock, game_id, actor, body.to, body.text,
            client_timestamp=body.client_timestamp, chats=_chats(),
        )
        return schemas.SentMessage(**sent._asdict())

    return _intent("message", game_id, body, apply, status=201)


@app.get("/games/<game_id>/messages", tags=["press"], security=OPTIONAL_SECURITY, responses=ERRORS,
         summary="The caller's messages after a cursor, oldest first (observers: public press)")
def get_messages(
    game_id: str,
    after: Annotated[int, Query(ge=0)] = 0,
    channel: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=press.MAX_READ)] = 50,
) -> schemas.MessageList:
    services, store = _services()
    actor = _actor(store, game_id, services.settings.operator_token)
    found = press.read_messages(store, services.press_store, game_id, actor, after=after, channel=channel,
                                limit=limit)
    return schemas.MessageList.model_validate(found)


@app.get("/games/<game_id>/channels", tags=["press"], security=OPTIONAL_SECURITY, responses=ERRORS,
         summary="The caller's channels: members, last message, unread count")
def get_channels(game_id: str) -> schemas.ChannelList:
    services, store = _services()
    actor = _actor(store, game_id, services.settings.operator_token)
    return schemas.ChannelList.model_validate(
        press.list_channels(store, services.press_store, game_id, actor)
    )


@app.post("/games/<game_id>/channels/<channel>/read", tags=["press"], security=SECURITY, responses=ERRORS,
          summary="Mark a channel read up to a seq")
def post_channel_read(
    game_id: str, channel: str, body: schemas.MarkReadRequest
) -> schemas.MarkReadResponse:
    services, store = _services()

    def apply() -> schemas.MarkReadResponse:
        actor = _actor(store, game_id, services.settings.operator_token)
        name = unquote(channel)  # rawPath keeps %2C if a client encoded the commas
        done = press.mark_read(store, services.press_store, game_id, actor, name, body.upto)
        return schemas.MarkReadResponse(**done)

    return _intent(f"read:{channel}", game_id, body, apply)  # type: ignore[return-value]


@app.get("/games/<game_id>/last_resolution", tags=["turns"], responses=ERRORS,
         summary="The resolution of the last adjudicated phase ({results: []} before the first)")
def get_last_resolution(game_id: str) -> schemas.Resolution:
    _, store = _services()
    return schemas.Resolution.model_validate(views.last_resolution(store, game_id))


@app.get("/games/<game_id>/history", tags=["turns"], responses=ERRORS,
         summary="Adjudicated phases, oldest first, a page at a time: state before, all orders, "
         "resolution; next_cursor continues")
def get_history(
    game_id: str,
    limit: Annotated[int, Query(ge=1, le=views.HISTORY_PAGE_MAX)] = views.HISTORY_PAGE,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
) -> schemas.History:
    from functions.usecases.history_cursor import decode_cursor, encode_cursor  # deferred (issue 9)

    _, store = _services()
    phases, last = views.history_page(store, game_id, after=decode_cursor(game_id, cursor), limit=limit)
    result = with_scores(load(store, game_id).result)
    next_cursor = encode_cursor(game_id, last) if last is not None else None
    return schemas.History.model_validate({"phases": phases, "result": result, "next_cursor": next_cursor})


@app.get("/games/<game_id>/events", tags=["games"], responses=ERRORS,
         summary="The event log after seq N (no gaps; ask again from last seq)")
def get_events(
    game_id: str,
    after: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> schemas.Events:
    _, store = _services()
    return schemas.Events.model_validate(views.events_after(store, game_id, after, limit))


# --- the board as a picture (issue 14; functions/usecases/map_view.py) ----------------------

MapFormat = Annotated[Literal["svg", "png"] | None, Query()]
MapWidth = Annotated[int, Query(ge=200, le=4000)]
MapPalette = Annotated[Literal["standard", "colorblind"], Query()]
MAP_RESPONSES: dict[int, Any] = {
    200: {"description": "The picture", "content": {"image/svg+xml": {}, "image/png": {}}},
    304: {"description": "Not modified (If-None-Match matched the ETag)"},
    **ERRORS,
}


def _map(
    game_id: str, kind: str, fmt: str | None, phase: str | None, width: int, palette: str
) -> Response[Any]:
    from functions.usecases.map_view import MapRequest, map_picture  # deferred: keeps cold start lean

    services, store = _services()
    headers = app.current_event.headers
    if fmt is None:  # no ?format=: the Accept header decides; SVG unless only PNG is asked for
        accept = headers.get("accept", "")
        fmt = "png" if "image/png" in accept and "image/svg+xml" not in accept else "svg"
    actor = _actor(store, game_id, services.settings.operator_token)
    picture = map_picture(store, game_id, actor, MapRequest(kind, fmt, width, palette, phase),
                          if_none_match=headers.get("if-none-match"))
    cache = "public, max-age=0, must-revalidate" if picture.public else "private, max-age=0, must-revalidate"
    answer_headers = {"ETag": picture.etag, "Cache-Control": cache, "Vary": "Accept, Authorization"}
    if picture.body is None:
        return Response(status_code=304, content_type=None, body=None, headers=answer_headers)
    body: str | bytes = picture.body if fmt == "png" else picture.body.decode()
    return Response(status_code=200, content_type=picture.content_type, body=body, headers=answer_headers)


@app.get("/games/<game_id>/map", tags=["maps"], responses=MAP_RESPONSES,
         summary="The board at the start of a phase (?phase=, default the current one) as SVG or PNG")
def get_map(game_id: str, format: MapFormat = None, phase: str | None = None, width: MapWidth = 1200,
            palette: MapPalette = "standard") -> Response[Any]:
    return _map(game_id, "board", format, phase, width, palette)


@app.get("/games/<game_id>/map/orders", tags=["maps"], security=OPTIONAL_SECURITY, responses=MAP_RESPONSES,
         summary="The board with the caller's own pending orders (all orders of an adjudicated ?phase=)")
def get_map_orders(game_id: str, format: MapFormat = None, phase: str | None = None, width: MapWidth = 1200,
                   palette: MapPalette = "standard") -> Response[Any]:
    return _map(game_id, "orders", format, phase, width, palette)


@app.get("/games/<game_id>/map/resolution", tags=["maps"], responses=MAP_RESPONSES,
         summary="An adjudicated phase (default the last) with its orders coloured by result")
def get_map_resolution(game_id: str, format: MapFormat = None, phase: str | None = None,
                       width: MapWidth = 1200, palette: MapPalette = "standard") -> Response[Any]:
    return _map(game_id, "resolution", format, phase, width, palette)


@app.get("/variants", tags=["games"], summary="Variants and rulebooks")
def get_variants() -> schemas.VariantList:
    return schemas.VariantList.model_validate({"variants": views.list_variants()})


def _sandbox_routes() -> None:
    from functions.api import sandbox_routes

    sandbox_routes.register(app)


# POST /adjudicate, /adjudicate/legal_orders (issue 19): declared when first reached (router.mount)
app.mount(("/adjudicate",), _sandbox_routes)


def openapi_document() -> dict[str, Any]:
    """Generated from the route table when asked (GET /openapi.json, the drift test), never at import."""
    from functions.api.openapi import build_document

    document = build_document(
        app.routes,
        title=TITLE,
        version=VERSION,
        description="Convoy: a serverless Diplomacy game server. See docs/api.md.",
        security_schemes={"bearer": {"type": "http", "scheme": "bearer"}},
        extra_models=(schemas.ErrorBody,),
    )
    for route in app.routes:  # the router reads an empty body as {}: say so where that is valid
        operation = document["paths"].get(route.openapi_path, {}).get(route.method.lower(), {})
        if route.body is not None and "requestBody" in operation:
            model = route.body[1]
            operation["requestBody"]["required"] = any(f.is_required() for f in model.model_fields.values())
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            answers = operation.setdefault("responses", {})
            for code, text in COMMON_ERRORS.items():
                answers[code] = {"description": answers.get(code, {}).get("description", text),
                                 "content": ERROR_BODY}
    return document


@app.get("/openapi.json", include_in_schema=False)
def get_openapi() -> Response[Any]:
    return _json(200, openapi_document())


def _account_routes() -> None:
    from functions.api import auth_routes

    auth_routes.register(app, intent=_intent, errors=ERRORS)


# the account routes (issue 15): /auth/*, /me, /me/games, /me/seats, on the same router,
# declared when first reached (router.mount)
app.mount(("/auth", "/me"), _account_routes)



@logger.inject_lambda_context(correlation_id_path=API_GATEWAY_HTTP, clear_state=True)
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    refused = body_guard.refuse(event)  # size, encoding, content type, depth: before routing
    if refused is not None:
        return refused
    return app.resolve(event, context)


gc.freeze()  # everything above stays for the life of the process: no collection scans it again
if _COLLECTOR_WAS_ON:
    gc.enable()
