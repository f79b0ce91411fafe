"""A small router for API Gateway HTTP API (payload v2) events: routes, validation, OpenAPI.

Why our own and not Powertools' ``APIGatewayHttpResolver(enable_validation=True)``: that
resolver builds its OpenAPI model classes and per-route pydantic fields when the module is
imported (~140 ms of a Lambda cold start, issue 9). Here a route is a plain record; the
request models are the pydantic models of ``functions/schemas`` (their validators are
built once, when the class is defined), and the OpenAPI document is generated from the
route table only when someone asks for it (functions/api/openapi.py, from ``Router.routes``).
pydantic itself is imported by the first route that has a body or query parameters to
validate: a route with path parameters only that answers a dict (a player's view) runs
without it (issue 9 item 6; docs/performance.md rule 13).

Declaring a route keeps the Powertools style::

    @app.post("/games/<game_id>/join", tags=["games"], responses=ERRORS, summary="...")
    def post_join(game_id: str, body: schemas.JoinRequest) -> schemas.JoinResponse: ...

- ``<name>`` in the path is a path parameter: a ``str`` argument of the same name;
- an argument annotated with a pydantic model is the JSON body (an empty body is ``{}``; a
  ``Content-Type`` other than ``application/json`` is a validation error; none means JSON);
- any other argument is a query parameter; ``Annotated[int, Query(ge=1, le=100)] = 50``
  adds pydantic constraints; without a default it is required;
- return a pydantic model (serialized by alias, JSON mode), a dict/list, or a ``Response``.

Route groups that only some requests reach (the account routes, the sandbox) are *mounted*
under path prefixes: ``app.mount(("/auth", "/me"), register)`` calls ``register`` — which
imports the group's module and declares its routes — the first time a request's path is
under a prefix, or when ``routes`` is read (the OpenAPI document, the contract tests). A
cold Lambda serving a player's view never imports them (issue 9). A mounted group that
declares a route outside its prefixes fails loudly when it is loaded.

Invalid bodies and query parameters raise ``RequestValidationError`` (the handler maps it
to 422 ``VALIDATION_ERROR``). What this router does not do: CORS, compression, cookies,
middlewares; none is used by Convoy.
"""

from __future__ import annotations

import base64
import functools
import inspect
import json
import re
import sys
import threading
import types
import typing
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel, TypeAdapter

T = TypeVar("T")
Handler = Callable[..., Any]
JSON_TYPE = "application/json"
_PARAM = re.compile(r"<(\w+)>")


class RequestValidationError(Exception):
    """The body or a query parameter failed validation; ``errors()`` lists pydantic-style errors."""

    def __init__(self, errors: list[dict[str, Any]]) -> None:
        super().__init__(errors)
        self._errors = errors

    def errors(self) -> list[dict[str, Any]]:
        return self._errors


class Query:
    """Marks a query parameter and carries its pydantic constraints (``ge``, ``le``, ``max_length``...)."""

    def __init__(self, **constraints: Any) -> None:
        self.constraints = constraints


class Response(Generic[T]):
    """An explicit answer. ``body``: str, bytes (sent base64-encoded), or anything JSON-serializable.

    The classes of this module are plain classes, not dataclasses: on Python 3.11 a dataclass
    compiles each generated method when it is defined, ~1 ms of every cold import apiece
    (issue 9; tests/contracts/test_cold_start_rules.py)."""

    __slots__ = ("status_code", "content_type", "body", "headers")

    def __init__(self, status_code: int, content_type: str | None = JSON_TYPE, body: Any = None,
                 headers: dict[str, str] | None = None) -> None:
        self.status_code = status_code
        self.content_type = content_type
        self.body = body
        self.headers: dict[str, str] = {} if headers is None else headers

    def __repr__(self) -> str:
        return (f"Response(status_code={self.status_code!r}, content_type={self.content_type!r}, "
                f"body={self.body!r}, headers={self.headers!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.status_code, self.content_type, self.body, self.headers)
        return mine == (other.status_code, other.content_type, other.body, other.headers)  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment] # mutable, like the dataclass it was


class Request:
    """The current HTTP API v2 event, read-only, with the accessors the handlers use."""

    def __init__(self, event: dict[str, Any]) -> None:
        self.raw_event = event
        self.headers: dict[str, str] = {k.lower(): v for k, v in (event.get("headers") or {}).items()}
        self.path: str = event.get("rawPath") or "/"
        self.method: str = (event.get("requestContext", {}).get("http", {}).get("method") or "GET").upper()
        self.body: str | None = event.get("body")
        self.is_base64_encoded: bool = bool(event.get("isBase64Encoded"))
        self.query_string_parameters: dict[str, str] = event.get("queryStringParameters") or {}
        self.path_parameters: dict[str, str] = {}

    @property
    def decoded_body(self) -> bytes:
        if not self.body:
            return b""
        return base64.b64decode(self.body) if self.is_base64_encoded else self.body.encode()

    def get_header_value(self, name: str, default_value: str | None = None) -> str | None:
        return self.headers.get(name.lower(), default_value)

    def get_query_string_value(self, name: str, default_value: str | None = None) -> str | None:
        return self.query_string_parameters.get(name, default_value)


class _QueryParam:
    """One query parameter; its pydantic adapter is built on the route's first use."""

    def __init__(self, name: str, annotation: Any, default: Any) -> None:
        self.name = name
        self.annotation = annotation  # the type with its constraints: Annotated[int, Field(ge=1)]
        self.default = default  # inspect.Parameter.empty when required

    def __repr__(self) -> str:
        return f"_QueryParam(name={self.name!r}, annotation={self.annotation!r}, default={self.default!r})"

    @functools.cached_property
    def adapter(self) -> TypeAdapter[Any]:
        from pydantic import TypeAdapter  # deferred: a route without query parameters never needs it

        return TypeAdapter(self.annotation)

    def json_schema(self) -> dict[str, Any]:
        return self.adapter.json_schema()


class Route:
    """One route: method, path template, handler and what OpenAPI says about it.

    What the handler's signature says (body model, query parameters) and the path's pattern
    are read the first time the route is tried or documented, not when it is declared, and
    its return type only when it is documented: a cold Lambda pays for the routes its
    requests reach, and a request never evaluates the models a route may answer with (a
    Diplomacy view does not load backgammon's; issue 9). A route whose annotations cannot be
    read still fails loudly, on first use and in the OpenAPI drift test, which reads every route.
    """

    def __init__(self, method: str, path: str, func: Handler, summary: str | None = None,
                 tags: list[str] | None = None, responses: dict[int, Any] | None = None,
                 security: list[dict[str, list[str]]] | None = None, include_in_schema: bool = True) -> None:
        self.method = method
        self.path = path
        self.func = func
        self.summary = summary
        self.tags = tags
        self.responses = responses
        self.security = security
        self.include_in_schema = include_in_schema

    def __repr__(self) -> str:
        return f"Route({self.method} {self.path} -> {getattr(self.func, '__qualname__', self.func)!r})"

    @property
    def openapi_path(self) -> str:
        return _PARAM.sub(r"{\1}", self.path)

    @functools.cached_property
    def path_params(self) -> tuple[str, ...]:
        return tuple(_PARAM.findall(self.path))

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        escaped = re.escape(self.path)  # re.escape keeps < > _
        return re.compile("^" + _PARAM.sub(r"(?P<\1>[^/]+)", escaped) + "$")

    @functools.cached_property
    def _signature(self) -> tuple[tuple[str, type[BaseModel]] | None, tuple[_QueryParam, ...]]:
        return _read_signature(self.func, self.path_params)

    @property
    def body(self) -> tuple[str, type[BaseModel]] | None:
        return self._signature[0]

    @property
    def query(self) -> tuple[_QueryParam, ...]:
        return self._signature[1]

    @functools.cached_property
    def returns(self) -> Any:
        """The return annotation, evaluated (the OpenAPI document's response model)."""
        return typing.get_type_hints(self.func, include_extras=True).get("return")


def _is_model(annotation: Any) -> bool:
    if not inspect.isclass(annotation):
        return False
    from pydantic import BaseModel  # deferred: a route with only path parameters never needs pydantic

    return issubclass(annotation, BaseModel)


def is_model_instance(value: Any) -> bool:
    """A pydantic model? Without importing pydantic: if nothing has imported it, nothing can be one."""
    pydantic = sys.modules.get("pydantic")
    return pydantic is not None and isinstance(value, pydantic.BaseModel)


def _parameter_hints(func: Handler) -> dict[str, Any]:
    """The parameters' annotations, evaluated; the return annotation is left alone."""
    annotations = {k: v for k, v in func.__annotations__.items() if k != "return"}
    return typing.get_type_hints(types.SimpleNamespace(__annotations__=annotations),
                                 globalns=func.__globals__, include_extras=True)


def _read_signature(func: Handler, path_params: tuple[str, ...]
                    ) -> tuple[tuple[str, type[BaseModel]] | None, tuple[_QueryParam, ...]]:
    """Which argument comes from where: (body, query parameters)."""
    hints = _parameter_hints(func)
    body: tuple[str, type[BaseModel]] | None = None
    query: list[_QueryParam] = []
    for name, parameter in inspect.signature(func).parameters.items():
        annotation = hints.get(name, str)
        if name in path_params:
            continue
        if _is_model(annotation):
            body = (name, annotation)
            continue
        from pydantic import Field  # deferred: only a route with query parameters reaches here

        base, constraints = annotation, {}
        if typing.get_origin(annotation) is typing.Annotated:
            base, *extras = typing.get_args(annotation)
            for extra in extras:
                if isinstance(extra, Query):
                    constraints = extra.constraints
        query.append(_QueryParam(name, typing.Annotated[base, Field(**constraints)], parameter.default))
    return body, tuple(query)


class _Mount:
    """A route group declared on first use: its path prefixes and the function that declares it.
    (A plain class: a dataclass costs ~4 M instructions to define, at every cold import.)"""

    def __init__(self, prefixes: tuple[str, ...], register: Callable[[], None]) -> None:
        self.prefixes = prefixes
        self.register = register
        self.loaded = False

    def covers(self, path: str) -> bool:
        return any(path == prefix or path.startswith(prefix + "/") for prefix in self.prefixes)


class Router:
    """Routes HTTP API v2 events to handlers; one instance per Lambda module."""

    def __init__(self) -> None:
        self._routes: list[Route] = []
        self._mounts: list[_Mount] = []
        self._mount_lock = threading.Lock()
        self._exception_handlers: dict[type[BaseException] | str, Callable[[Any], Response[Any]]] = {}
        self._not_found: Callable[[Exception], Response[Any]] | None = None
        self._local = threading.local()  # the local stack serves requests on several threads

    # --- declaration ----------------------------------------------------------------------

    @property
    def routes(self) -> list[Route]:
        """Every route, the mounted groups' included (each is declared now if it was not yet)."""
        for mount in self._mounts:
            self._load(mount)
        return self._routes

    def route(self, method: str, path: str, **options: Any) -> Callable[[Handler], Handler]:
        def register(func: Handler) -> Handler:
            self._routes.append(Route(method.upper(), path, func, **options))
            return func

        return register

    def mount(self, prefixes: tuple[str, ...], register: Callable[[], None]) -> None:
        """Declare a route group the first time a request's path is under one of ``prefixes``."""
        self._mounts.append(_Mount(prefixes, register))

    def _load(self, mount: _Mount) -> None:
        if mount.loaded:
            return
        with self._mount_lock:  # the local stack serves requests on several threads
            if mount.loaded:
                return
            before = len(self._routes)
            try:
                mount.register()
                stray = [r.path for r in self._routes[before:] if not mount.covers(r.path)]
                if stray:
                    raise RuntimeError(f"mounted under {mount.prefixes} but declared elsewhere: {stray}")
            except BaseException:
                del self._routes[before:]  # all or nothing: a retry declares the group afresh
                raise
            mount.loaded = True

    def get(self, path: str, **options: Any) -> Callable[[Handler], Handler]:
        return self.route("GET", path, **options)

    def post(self, path: str, **options: Any) -> Callable[[Handler], Handler]:
        return self.route("POST", path, **options)

    def put(self, path: str, **options: Any) -> Callable[[Handler], Handler]:
        return self.route("PUT", path, **options)

    def patch(self, path: str, **options: Any) -> Callable[[Handler], Handler]:
        return self.route("PATCH", path, **options)

    def delete(self, path: str, **options: Any) -> Callable[[Handler], Handler]:
        return self.route("DELETE", path, **options)

    def exception_handler(self, kind: type[BaseException] | str) -> Callable[[Handler], Handler]:
        """Answer errors of class ``kind``; or of the class named ``"module.QualName"``, for a
        library's error class that the module declaring the handler must not import (issue 9:
        pydantic's ``ValidationError``, which only a request that used a model can raise)."""
        def register(func: Handler) -> Handler:
            self._exception_handlers[kind] = func
            return func

        return register

    def not_found(self, func: Callable[[Exception], Response[Any]]) -> Callable[[Exception], Response[Any]]:
        self._not_found = func
        return func

    # --- the current request --------------------------------------------------------------

    @property
    def current_event(self) -> Request:
        return typing.cast(Request, self._local.request)

    @property
    def lambda_context(self) -> Any:
        return getattr(self._local, "context", None)

    # --- dispatch -------------------------------------------------------------------------

    def resolve(self, event: dict[str, Any], context: Any) -> dict[str, Any]:
        request = Request(event)
        self._local.request, self._local.context = request, context
        try:
            response = self._dispatch(request)
        except Exception as error:  # noqa: BLE001 - every error becomes an answer, in one place
            response = self._handle(error)
        finally:
            self._local.request = self._local.context = None
        return _to_result(response)

    def _dispatch(self, request: Request) -> Response[Any]:
        for mount in self._mounts:
            if not mount.loaded and mount.covers(request.path):
                self._load(mount)
        for route in self._routes:
            if route.method != request.method:
                continue
            matched = route.pattern.match(request.path)
            if matched:
                request.path_parameters = matched.groupdict()
                return _as_response(route.func(**_arguments(route, request, matched.groupdict())))
        if self._not_found is None:
            return Response(404, JSON_TYPE, {"message": "Not found"})
        return self._not_found(LookupError(request.path))

    def _handle(self, error: Exception) -> Response[Any]:
        for kind in type(error).__mro__:
            handler = self._exception_handlers.get(kind) or self._exception_handlers.get(
                f"{kind.__module__}.{kind.__qualname__}")
            if handler is not None:
                return handler(error)
        raise error

def _arguments(route: Route, request: Request, path_values: dict[str, str]) -> dict[str, Any]:
    arguments: dict[str, Any] = dict(path_values)
    if not route.query and route.body is None:
        return arguments  # path parameters only (a player's view): nothing for pydantic to check
    from pydantic import ValidationError  # deferred: see above

    errors: list[dict[str, Any]] = []
    for param in route.query:
        raw = request.query_string_parameters.get(param.name)
        if raw is None:
            if param.default is inspect.Parameter.empty:
                errors.append({"type": "missing", "loc": ("query", param.name), "msg": "Field required"})
            else:
                arguments[param.name] = param.default
            continue
        try:
            arguments[param.name] = param.adapter.validate_strings(raw)
        except ValidationError as exc:
            errors.extend({**e, "loc": ("query", param.name, *e["loc"])} for e in exc.errors())
    if route.body is not None:
        name, model = route.body
        content_type = request.headers.get("content-type", JSON_TYPE).strip().lower()
        if not content_type.startswith(JSON_TYPE):
            errors.append({"type": "content_type", "loc": ("body",),
                           "msg": f"expected Content-Type: {JSON_TYPE}, got {content_type!r}"})
            raise RequestValidationError(errors)
        try:
            arguments[name] = model.model_validate_json(request.decoded_body or b"{}")
        except ValidationError as exc:
            errors.extend({**e, "loc": ("body", *e["loc"])} for e in exc.errors())
    if errors:
        raise RequestValidationError(errors)
    return arguments


def _as_response(result: Any) -> Response[Any]:
    if isinstance(result, Response):
        return result
    return Response(200, JSON_TYPE, result)


def _jsonable(body: Any) -> Any:
    if is_model_instance(body):
        return body.model_dump(mode="json", by_alias=True)
    if isinstance(body, list | tuple):
        return [_jsonable(b) for b in body]
    if isinstance(body, dict):
        return {k: _jsonable(v) for k, v in body.items()}
    return body


def _to_result(response: Response[Any]) -> dict[str, Any]:
    """The HTTP API v2 result dict: ``statusCode``, ``headers``, ``body``, ``isBase64Encoded``."""
    headers = dict(response.headers)
    if response.content_type:
        headers.setdefault("Content-Type", response.content_type)
    body, encoded = response.body, False
    if isinstance(body, bytes):
        body, encoded = base64.b64encode(body).decode(), True
    elif body is not None and not isinstance(body, str):
        body = json.dumps(_jsonable(body), separators=(",", ":"))
    return {"statusCode": response.status_code, "headers": headers, "body": body or "",
            "isBase64Encoded": encoded, "cookies": []}
