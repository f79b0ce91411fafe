"""The REST API Lambda: HTTP API (payload v2) routes -> one use case each -> response models.

The routes run on Powertools' ``APIGatewayHttpResolver(enable_validation=True)``: each
resource module of functions/api/routes/ declares its routes on a ``Router``, included here.
Powertools matches the path, validates path, query and body parameters against the
handler's annotations (pydantic models), validates and serializes the answer by the return
annotation (JSON mode, by alias) and generates the OpenAPI document from the same table.

Handlers only parse, authenticate (bearer token -> Actor), call a use case and shape the
answer. This module maps errors to answers, in one place, with the resolver's
``exception_handler``/``not_found``: domain errors become ``{"code", "message"}`` with their
HTTP status, invalid requests 422 ``VALIDATION_ERROR``, an unreachable store 503, an unknown
route 404; anything else is a 500 ``INTERNAL`` with no stack trace in the body.

Two things of ours stay around the resolver: functions/api/body_guard.py refuses a
malformed body (size, encoding, content type, JSON depth) before ``app.resolve``, and every
POST honours ``Idempotency-Key`` (functions/api/idempotency.py, through
``RequestHelpers.intent`` of functions/api/plumbing.py).

How to add a route: docs/api.md, "How to add a route".
"""

from __future__ import annotations

import gc

# What the imports below build (modules, classes, pydantic's validators) lives as long as the
# process, so the cyclic collector's passes while they load scan a growing heap and free next
# to nothing (docs/performance.md rule 12). Paused here; at the end of this module what was
# built is frozen out of every later collection.
_COLLECTOR_WAS_ON = gc.isenabled()
gc.disable()

import json
from typing import Any

from aws_lambda_powertools.event_handler import APIGatewayHttpResolver, Response
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.exceptions import (
    RequestUnsupportedContentType,
    RequestValidationError,
)
from aws_lambda_powertools.event_handler.openapi.models import HTTPBearer
from pydantic import ValidationError

from functions.api import body_guard
from functions.api.plumbing import ERROR_BODY, JSON, json_response
from functions.api.routes import (
    accounts,
    community,
    games,
    history,
    maps,
    notifications,
    orders,
    press,
    reach,
    sandbox,
    seats,
    tournaments,
    turns,
)
from functions.api.routes.games import VIEW_MODELS
from functions.errors import DomainError
from functions.observability import API_GATEWAY_HTTP, get_logger
from functions.ports import StorageUnavailable
from functions.schemas import api as schemas

logger = get_logger()
app = APIGatewayHttpResolver(enable_validation=True)
for _module in (games, seats, orders, turns, history, notifications, press, maps, sandbox, accounts, reach,
                community, tournaments):
    app.include_router(_module.router)

TITLE = "Convoy"
VERSION = "1.0.0"
# answers any route can give (functions/api/body_guard.py, storage): documented on every operation
COMMON_ERRORS: dict[str, str] = {
    "400": "Bad request (INVALID_ENCODING, JSON_TOO_DEEP)", "413": "PAYLOAD_TOO_LARGE",
    "415": "UNSUPPORTED_MEDIA_TYPE", "422": "Validation error (VALIDATION_ERROR)",
    "503": "STORAGE_UNAVAILABLE: retry",
}
app.configure_openapi(
    title=TITLE, version=VERSION, description="Convoy: a serverless Diplomacy game server. See docs/api.md.",
    security_schemes={"bearer": HTTPBearer()},
)

__all__ = ["VIEW_MODELS", "app", "lambda_handler", "logger", "openapi_document"]


# --- errors --------------------------------------------------------------------------------


@app.exception_handler(DomainError)
def _domain_error(error: DomainError) -> Response[Any]:
    logger.info("rejected", extra={"code": error.code, "status": error.status})
    if "retry_after" in error.extra:  # 429 RATE_LIMITED (press, sandbox)
        return Response(status_code=error.status, content_type=JSON, body=error.body(),
                        headers={"Retry-After": str(error.extra["retry_after"])})
    return json_response(error.status, error.body())


def _detail(error: dict[str, Any]) -> dict[str, Any]:
    """One error as the API lists it: ``{loc, msg}``. Powertools' own two (a body that is
    not JSON, locating the character; a body of another type) are said the way pydantic
    says them for the JSON body as a whole, under ``["body"]``."""
    kind, context = error.get("type"), error.get("ctx") or {}
    if kind == "json_invalid":
        where = tuple(error.get("loc", ()))[1:]
        at = f" (character {where[0]})" if where else ""
        return {"loc": ["body"], "msg": f"Invalid JSON: {context.get('error', 'not JSON')}{at}"}
    if kind == "unsupported_content_type":
        return {"loc": ["body"], "msg": "expected Content-Type: application/json"}
    return {"loc": [str(p) for p in error.get("loc", ())], "msg": str(error.get("msg", ""))}


def _validation_answer(errors: list[dict[str, Any]]) -> Response[Any]:
    details = [_detail(e) for e in errors]
    message = "; ".join(f"{'.'.join(d['loc'])}: {d['msg']}" for d in details) or "invalid request"
    return json_response(422, {"code": "VALIDATION_ERROR", "message": message, "errors": details})


@app.exception_handler(RequestValidationError)
def _validation_error(error: RequestValidationError) -> Response[Any]:
    """A request that fails its route's models. Powertools raises the same error when a
    route's *answer* fails its return annotation (loc ``response``): that is our bug, a 500."""
    errors = list(error.errors())
    if any(tuple(e.get("loc", ()))[:1] == ("response",) for e in errors):
        logger.error("answer does not match its model", extra={"errors": [e.get("loc") for e in errors]})
        return _internal()
    return _validation_answer(errors)


@app.exception_handler(RequestUnsupportedContentType)
def _unsupported_content_type(error: RequestUnsupportedContentType) -> Response[Any]:
    """A body route reached with an empty body and a non-JSON ``Content-Type`` (body_guard
    answers 415 only for a body it can see): invalid, like any body that is not a JSON object."""
    return _validation_answer(list(error.errors()))


@app.exception_handler(ValidationError)
def _model_error(error: ValidationError) -> Response[Any]:
    """pydantic's own error, from a model a route validates itself (``DELETE .../orders``'s body)."""
    return json_response(422, {"code": "VALIDATION_ERROR", "message": str(error.errors()[0].get("msg", ""))})


@app.exception_handler(StorageUnavailable)
def _storage_unavailable(error: StorageUnavailable) -> Response[Any]:
    logger.warning("storage unavailable", extra={"error": str(error)})
    return json_response(503, {"code": "STORAGE_UNAVAILABLE",
                               "message": "the game store did not answer; send the same request again"})


def _internal() -> Response[Any]:
    return json_response(500, {"code": "INTERNAL", "message": "internal error; it has been logged"})


@app.exception_handler(Exception)
def _bug(error: Exception) -> Response[Any]:
    logger.exception("unhandled error")
    return _internal()


@app.not_found
def _not_found(_: NotFoundError) -> Response[Any]:
    return json_response(404, {"code": "NOT_FOUND", "message": f"no route {app.current_event.path}"})


# --- the OpenAPI document ------------------------------------------------------------------


def _body_required_as_read(operation: dict[str, Any], components: dict[str, Any]) -> None:
    """body_guard hands an empty body on as ``{}``: a body whose model requires no field may
    be left out, and the document says so (Powertools marks every declared body required)."""
    body = operation.get("requestBody")
    if body is None:
        return
    ref = body["content"][JSON]["schema"].get("$ref", "")
    model = components.get(ref.rsplit("/", 1)[-1], {})
    body["required"] = bool(model.get("required"))


def _documented(document: dict[str, Any]) -> dict[str, Any]:
    """What Powertools cannot know, added to its document: the answers body_guard and the
    store give on any route, and our error body where Powertools would name its own."""
    components = document.setdefault("components", {}).setdefault("schemas", {})
    components["ErrorBody"] = schemas.ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            _body_required_as_read(operation, components)
            answers = operation.setdefault("responses", {})
            for code, text in COMMON_ERRORS.items():
                own = answers.get(code, {})  # a route's own answer (the unsubscribe page's 400) stays
                answers[code] = {"description": own.get("description", text),
                                 "content": {**own.get("content", {}), **ERROR_BODY}}
    text = json.dumps(document["paths"])
    for unused in ("HTTPValidationError", "ValidationError", "ResponseValidationError"):  # Powertools' own
        if f'"#/components/schemas/{unused}"' not in text:
            components.pop(unused, None)
    return document


def openapi_document() -> dict[str, Any]:
    """The OpenAPI document (GET /openapi.json, docs/openapi.json and its drift test)."""
    return _documented(json.loads(app.get_openapi_json_schema()))


@app.get("/openapi.json", include_in_schema=False)
def get_openapi() -> Response[dict[str, Any]]:
    return json_response(200, openapi_document())


@logger.inject_lambda_context(correlation_id_path=API_GATEWAY_HTTP, clear_state=True)
def lambda_handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    refused = body_guard.refuse(event)  # size, encoding, content type, depth: before routing
    if refused is not None:
        return refused
    return app.resolve(event, context)


gc.freeze()  # everything above stays for the life of the process: no collection scans it again
if _COLLECTOR_WAS_ON:
    gc.enable()
