"""The OpenAPI 3.1 document, generated from a router's route table on demand.

Only ``GET /openapi.json`` and the drift test (tests/contracts/test_openapi.py) call this,
so no Lambda pays for it at import or on an ordinary request. Component schemas come from
pydantic (``models_json_schema``): request models in validation mode, answers in
serialization mode, so the document says exactly what is accepted and what is sent.
"""

from __future__ import annotations

import inspect
import re
import typing
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

if TYPE_CHECKING:
    from functions.api.router import Route

JSON = "application/json"
REF = "#/components/schemas/{model}"


def _title(name: str) -> str:
    return name.replace("_", " ").title()


def _success_model(route: Route) -> type[BaseModel] | None:
    """The model a route answers with: its return annotation, or ``X`` of ``Response[X]``."""
    returned = route.returns
    if typing.get_origin(returned) is not None and typing.get_args(returned):
        returned = typing.get_args(returned)[0]
    return returned if inspect.isclass(returned) and issubclass(returned, BaseModel) else None


def _operation_id(route: Route) -> str:
    words = re.sub(r"\W", "_", route.func.__name__ + route.openapi_path)
    return f"{words}_{route.method.lower()}"


def _parameters(route: Route) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = [
        {"in": "path", "name": name, "required": True, "schema": {"title": _title(name), "type": "string"}}
        for name in route.path_params
    ]
    for param in route.query:
        schema = {**param.json_schema(), "title": _title(param.name)}
        required = param.default is inspect.Parameter.empty
        if not required:
            schema["default"] = param.default
        found.append({"in": "query", "name": param.name, "required": required, "schema": schema})
    return found


def _operation(route: Route, refs: dict[tuple[type[BaseModel], str], Any]) -> dict[str, Any]:
    operation: dict[str, Any] = {"operationId": _operation_id(route)}
    if route.summary:
        operation["summary"] = route.summary
    if route.tags:
        operation["tags"] = list(route.tags)
    if route.security:
        operation["security"] = route.security
    parameters = _parameters(route)
    if parameters:
        operation["parameters"] = parameters
    if route.body is not None:
        operation["requestBody"] = {
            "content": {JSON: {"schema": refs[(route.body[1], "validation")]}}, "required": True,
        }
    responses = {str(code): answer for code, answer in (route.responses or {}).items()}
    if not any(code.startswith("2") for code in responses):
        model = _success_model(route)
        success: dict[str, Any] = {"description": "Successful Response"}
        if model is not None:
            success["content"] = {JSON: {"schema": refs[(model, "serialization")]}}
        responses["200"] = success
    if (route.body is not None or route.query) and "422" not in responses:
        responses["422"] = {"description": "Validation error",
                            "content": {JSON: {"schema": {"$ref": REF.format(model="ErrorBody")}}}}
    operation["responses"] = dict(sorted(responses.items()))
    return operation


def build_document(
    routes: list[Route],
    *,
    title: str,
    version: str,
    description: str = "",
    security_schemes: dict[str, Any] | None = None,
    extra_models: tuple[type[BaseModel], ...] = (),
) -> dict[str, Any]:
    """Paths from the routes; every model they name (and ``extra_models``) under components."""
    shown = [r for r in routes if r.include_in_schema]
    wanted: list[tuple[type[BaseModel], JsonSchemaMode]] = []
    for route in shown:
        if route.body is not None:
            wanted.append((route.body[1], "validation"))
        model = _success_model(route)
        if model is not None:
            wanted.append((model, "serialization"))
    wanted.extend((model, "serialization") for model in extra_models)
    unique = list(dict.fromkeys(wanted))
    refs, definitions = models_json_schema(unique, ref_template=REF)
    paths: dict[str, dict[str, Any]] = {}
    for route in shown:
        paths.setdefault(route.openapi_path, {})[route.method.lower()] = _operation(route, refs)  # type: ignore[arg-type]
    components: dict[str, Any] = {"schemas": definitions.get("$defs", {})}
    if security_schemes:
        components["securitySchemes"] = security_schemes
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": version, "description": description},
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": components,
    }
