"""What every route module of the API shares: the documented error answers, the caller's
identity, and state-changing intents run once per ``Idempotency-Key``.

Each route module (functions/api/routes/) declares its routes on its own Powertools
``Router``; ``RequestHelpers(router)`` reads the request being answered through that router
(Powertools keeps the current event on the resolver the router is included in), so the
helpers need no import of functions/api/handler.py and there is no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from aws_lambda_powertools.event_handler import Response
from pydantic import BaseModel

from functions.api import services as api_services
from functions.api.idempotency import run_once
from functions.api.identity import actor_for, caller_key
from functions.api.request_store import RequestStore
from functions.usecases.game import load
from functions.usecases.players import Actor

if TYPE_CHECKING:
    from aws_lambda_powertools.event_handler.api_gateway import Router
    from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

T = TypeVar("T")
JSON = "application/json"
SECURITY: list[dict[str, list[str]]] = [{"bearer": []}]
OPTIONAL_SECURITY: list[dict[str, list[str]]] = [{"bearer": []}, {}]  # observers need no token
ERROR_BODY: dict[str, Any] = {JSON: {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
ERRORS: dict[int, OpenAPIResponse] = {
    code: {"description": text, "content": ERROR_BODY}
    for code, text in [
        (400, "Bad request"), (401, "No valid token"), (403, "Forbidden"), (404, "Not found"),
        (409, "Conflict (STALE_PHASE, POWER_TAKEN, ...)"), (422, "Validation error"),
    ]
}


def answers(errors: dict[int, OpenAPIResponse] = ERRORS, status: int = 200,
            description: str = "Successful Response") -> dict[int, OpenAPIResponse]:
    """``responses=`` for a route: its success (whose schema Powertools takes from the return
    annotation, because it has no ``content``) and its documented errors. Powertools documents
    no success of its own once a route names any ``responses``."""
    return {status: {"description": description}, **errors}


def services() -> tuple[api_services.Services, RequestStore]:
    """The composition root's services, and the game store wrapped for one request."""
    found = api_services.current()
    return found, RequestStore(found.store)


def json_response(status: int, body: Any) -> Response[Any]:
    return Response(status_code=status, content_type=JSON, body=body)


def _jsonable(value: Any) -> Any:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


class RequestHelpers:
    """The request a route module is answering, read through the module's ``Router``."""

    def __init__(self, router: Router) -> None:
        self._router = router

    def header(self, name: str) -> str | None:
        """A request header; HTTP API v2 sends them lower-cased, Powertools reads them case-insensitively."""
        return self._router.current_event.headers.get(name.lower())

    def bearer(self) -> str | None:
        scheme, _, token = (self.header("authorization") or "").partition(" ")
        return token.strip() if scheme.lower() == "bearer" and token.strip() else None

    def source_ip(self) -> str | None:
        context = self._router.current_event.raw_event.get("requestContext") or {}
        return (context.get("http") or {}).get("sourceIp")

    def actor(self, store: RequestStore, game_id: str, operator_token: str | None) -> Actor:
        """The caller in this game: a seat/creator/operator token, or a signed-in user's ID token."""
        return actor_for(load(store, game_id), self.bearer(), operator_token)

    def intent(self, route: str, game_id: str | None, body: BaseModel | dict[str, Any] | None,
               apply: Callable[[], T], status: int = 200) -> Response[T]:
        """Run a state-changing intent once per Idempotency-Key; answer with its JSON.

        The answer's body is the JSON of what ``apply`` returned (or of the first call's
        answer, on a replay); Powertools validates it against the route's return annotation
        (``Response[Model]``) and serializes it by alias, like any other route's answer."""
        found = api_services.current()
        scope = {"route": route, "game_id": game_id, "caller": caller_key(self.bearer())}

        def once() -> dict[str, Any]:
            return {"status": status, "body": _jsonable(apply())}

        outcome = run_once(
            found.idempotency, self.header("idempotency-key"), scope, _jsonable(body), once,
            found.settings.idempotency_ttl_seconds, self._router.lambda_context,
        )
        return cast("Response[T]", json_response(int(outcome["status"]), outcome["body"]))
