"""The API's own router (functions/api/router.py, issue 9 item 6): declarations in the
Powertools style, validation that answers with pydantic errors, OpenAPI from the table."""

from __future__ import annotations

import base64
import json
import threading
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from functions.api.openapi import build_document
from functions.api.router import Query, RequestValidationError, Response, Router


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    count: int = 1


class Answer(BaseModel):
    name: str
    total: int


def make_router() -> Router:
    app = Router()

    @app.post("/things/<thing_id>", tags=["things"], summary="Make a thing")
    def post_thing(thing_id: str, body: Body, times: Annotated[int, Query(ge=1, le=3)] = 1) -> Answer:
        return Answer(name=f"{thing_id}:{body.name}", total=body.count * times)

    @app.get("/things/<thing_id>/raw")
    def get_raw(thing_id: str, size: int) -> Response[Any]:
        return Response(200, "image/png", bytes([size]) * 2)

    @app.get("/echo")
    def get_echo() -> dict[str, Any]:
        return {"header": app.current_event.get_header_value("X-Thing")}

    @app.get("/boom")
    def get_boom() -> None:
        raise KeyError("boom")

    @app.exception_handler(RequestValidationError)
    def invalid(error: RequestValidationError) -> Response[Any]:
        locations = [list(e["loc"]) for e in error.errors()]
        return Response(422, body={"code": "VALIDATION_ERROR", "errors": locations})

    @app.exception_handler(LookupError)  # KeyError is a LookupError: handlers match along the MRO
    def lookup(error: LookupError) -> Response[Any]:
        return Response(400, body={"code": "LOOKUP"})

    @app.not_found
    def missing(_: Exception) -> Response[Any]:
        return Response(404, body={"code": "NOT_FOUND", "message": app.current_event.path})

    return app


def event(method: str, path: str, body: Any = None, query: dict[str, str] | None = None,
          headers: dict[str, str] | None = None, b64: bool = False) -> dict[str, Any]:
    raw = body if isinstance(body, str | None) else json.dumps(body)
    if b64 and raw is not None:
        raw = base64.b64encode(raw.encode()).decode()
    return {"rawPath": path, "requestContext": {"http": {"method": method}}, "headers": headers or {},
            "queryStringParameters": query, "body": raw, "isBase64Encoded": b64}


def call(app: Router, *args: Any, **kwargs: Any) -> tuple[int, Any]:
    result = app.resolve(event(*args, **kwargs), None)
    body = result["body"]
    if result["isBase64Encoded"]:
        return result["statusCode"], base64.b64decode(body)
    return result["statusCode"], json.loads(body) if body else None


def test_path_query_and_body_reach_the_handler_typed() -> None:
    status, body = call(make_router(), "POST", "/things/t1", {"name": "x", "count": 2}, {"times": "3"})
    assert (status, body) == (200, {"name": "t1:x", "total": 6})


def test_an_empty_body_is_an_empty_object() -> None:
    status, body = call(make_router(), "POST", "/things/t1", None)
    assert status == 422 and body["errors"] == [["body", "name"]]


def test_base64_bodies_are_decoded() -> None:
    status, body = call(make_router(), "POST", "/things/t1", {"name": "y"}, b64=True)
    assert (status, body) == (200, {"name": "t1:y", "total": 1})


def test_bad_body_and_query_are_one_validation_error_naming_every_field() -> None:
    status, body = call(make_router(), "POST", "/things/t1", {"name": "", "extra": 1}, {"times": "9"})
    assert status == 422
    assert sorted(body["errors"]) == [["body", "extra"], ["body", "name"], ["query", "times"]]


def test_a_body_that_is_not_json_is_a_validation_error() -> None:
    status, body = call(make_router(), "POST", "/things/t1", "{not json")
    assert status == 422 and body["code"] == "VALIDATION_ERROR"


def test_a_body_sent_as_another_content_type_is_not_read() -> None:
    plain = {"Content-Type": "text/plain"}
    status, body = call(make_router(), "POST", "/things/t1", {"name": "x"}, headers=plain)
    assert (status, body["errors"]) == (422, [["body"]])


def test_a_required_query_parameter_may_not_be_missing() -> None:
    assert call(make_router(), "GET", "/things/t1/raw")[0] == 422
    assert call(make_router(), "GET", "/things/t1/raw", query={"size": "7"}) == (200, b"\x07\x07")


def test_unknown_paths_and_methods_go_to_not_found() -> None:
    app = make_router()
    assert call(app, "GET", "/nothing") == (404, {"code": "NOT_FOUND", "message": "/nothing"})
    assert call(app, "DELETE", "/things/t1")[0] == 404
    assert call(app, "GET", "/things/a/b/raw")[0] == 404  # a path parameter never spans a slash


def test_exception_handlers_match_along_the_class_hierarchy() -> None:
    assert call(make_router(), "GET", "/boom") == (400, {"code": "LOOKUP"})


def test_headers_are_read_case_insensitively_per_request_and_thread() -> None:
    app = make_router()
    seen: dict[str, Any] = {}

    def ask(value: str) -> None:
        seen[value] = call(app, "GET", "/echo", headers={"X-Thing": value})[1]["header"]

    threads = [threading.Thread(target=ask, args=(str(n),)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {str(n): str(n) for n in range(8)}


def test_openapi_is_generated_from_the_route_table() -> None:
    document = build_document(make_router().routes, title="T", version="1", extra_models=(Answer,))
    operation = document["paths"]["/things/{thing_id}"]["post"]
    assert operation["operationId"] == "post_thing_things__thing_id__post"
    where = [(p["in"], p["name"]) for p in operation["parameters"]]
    assert where == [("path", "thing_id"), ("query", "times")]
    assert operation["parameters"][1]["schema"] == {
        "default": 1, "maximum": 3, "minimum": 1, "title": "Times", "type": "integer",
    }
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/Body"}
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Answer"
    }
    assert {"Answer", "Body"} <= set(document["components"]["schemas"])


def test_a_mounted_group_is_declared_when_a_request_reaches_its_prefix() -> None:
    # issue 9 item 6: a cold Lambda serving a view never imports the account or sandbox routes
    app = make_router()
    declared: list[str] = []

    def register() -> None:
        declared.append("group")
        app.get("/group/<name>")(lambda name: {"name": name})
        app.get("/group")(lambda: {"all": True})

    app.mount(("/group",), register)
    assert call(app, "GET", "/echo")[0] == 200 and declared == []
    assert call(app, "GET", "/groupie")[0] == 404 and declared == []  # a prefix is a whole segment
    assert call(app, "GET", "/group/x") == (200, {"name": "x"}) and declared == ["group"]
    assert call(app, "GET", "/group") == (200, {"all": True}) and declared == ["group"]  # once


def test_reading_the_route_table_declares_every_group_and_a_stray_route_fails_loudly() -> None:
    app = make_router()
    app.mount(("/late",), lambda: app.get("/late/thing")(lambda: {}) and None)
    assert "/late/thing" in [r.path for r in app.routes]  # the OpenAPI document sees it

    wrong = make_router()
    wrong.mount(("/mine",), lambda: wrong.get("/theirs")(lambda: {}) and None)
    try:
        _ = wrong.routes
        raise AssertionError("a route outside its mount's prefixes was accepted")
    except RuntimeError as error:
        assert "/theirs" in str(error)
    assert "/theirs" not in [r.path for r in wrong._routes]  # all or nothing
