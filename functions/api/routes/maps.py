"""The board as a picture (issue 14; functions/usecases/maps/map_view.py): SVG or PNG, with an
ETag so that a client asking again with ``If-None-Match`` gets a bodiless 304.

Powertools serializes every answer by its route's return annotation, in JSON mode, and
pydantic's JSON mode turns ``bytes`` into UTF-8 text, which a PNG is not. So a PNG leaves
here already base64-encoded, as a ``str``, with the ``Response`` marked ``base64_encoded``:
API Gateway decodes it, as it would the bytes Powertools encodes itself.
"""

from __future__ import annotations

import base64
from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.api_gateway import Router
from aws_lambda_powertools.event_handler.openapi.params import Query
from aws_lambda_powertools.event_handler.openapi.types import OpenAPIResponse

from functions.api.plumbing import ERRORS, OPTIONAL_SECURITY, RequestHelpers, services
from functions.usecases.maps import MapPicture, MapRequest, map_picture

router = Router()
request = RequestHelpers(router)

MapFormat = Annotated[Literal["svg", "png"] | None, Query()]
MapWidth = Annotated[int, Query(ge=200, le=4000)]
MapPalette = Annotated[Literal["standard", "colorblind"], Query()]
MAP_RESPONSES: dict[int, OpenAPIResponse] = {
    200: {"description": "The picture", "content": {"image/svg+xml": {}, "image/png": {}}},
    304: {"description": "Not modified (If-None-Match matched the ETag)"},
    **ERRORS,
}


def _format(fmt: str | None) -> str:
    """No ?format=: the Accept header decides; SVG unless only PNG is asked for."""
    if fmt is not None:
        return fmt
    accept = request.header("accept") or ""
    return "png" if "image/png" in accept and "image/svg+xml" not in accept else "svg"


def _map(game_id: str, kind: str, fmt: str | None, phase: str | None, width: int,
         palette: str) -> Response[str]:
    found, store = services()
    fmt = _format(fmt)
    actor = request.actor(store, game_id, found.settings.operator_token)
    picture = map_picture(store, game_id, actor, MapRequest(kind, fmt, width, palette, phase),
                          if_none_match=request.header("if-none-match"))
    headers = {"ETag": picture.etag, "Cache-Control": cache_control(picture), "Vary": "Accept, Authorization"}
    if picture.body is None:  # 304: no body, and no Content-Type to describe one
        return Response(status_code=304, content_type=None, body="", headers=headers)
    if fmt != "png":
        return Response(status_code=200, content_type=picture.content_type, body=picture.body.decode(),
                        headers=headers)
    answer = Response(status_code=200, content_type=picture.content_type,
                      body=base64.b64encode(picture.body).decode(), headers=headers)
    answer.base64_encoded = True
    return answer


IMMUTABLE = "public, max-age=31536000, immutable"


def cache_control(picture: MapPicture) -> str:
    """An adjudicated phase asked for by name never changes: CloudFront (template.yaml's
    MapCachePolicy) and browsers keep it (the PNG a notice links to is fetched once per edge,
    not once per receiver). The live board, or "the last" phase, is revalidated (ETag, 304)."""
    if picture.public and picture.immutable:
        return IMMUTABLE
    return "public, max-age=0, must-revalidate" if picture.public else "private, max-age=0, must-revalidate"


@router.get("/games/<game_id>/map", tags=["maps"], responses=MAP_RESPONSES,
            summary="The board at the start of a phase (?phase=, default the current one) as SVG or PNG")
def get_map(game_id: str, format: MapFormat = None, phase: str | None = None, width: MapWidth = 1200,
            palette: MapPalette = "standard") -> Response[str]:
    return _map(game_id, "board", format, phase, width, palette)


@router.get("/games/<game_id>/map/orders", tags=["maps"], security=OPTIONAL_SECURITY, responses=MAP_RESPONSES,
            summary="The board with the caller's own pending orders (all orders of an adjudicated ?phase=)")
def get_map_orders(game_id: str, format: MapFormat = None, phase: str | None = None, width: MapWidth = 1200,
                   palette: MapPalette = "standard") -> Response[str]:
    return _map(game_id, "orders", format, phase, width, palette)


@router.get("/games/<game_id>/map/resolution", tags=["maps"], responses=MAP_RESPONSES,
            summary="An adjudicated phase (default the last) with its orders coloured by result")
def get_map_resolution(game_id: str, format: MapFormat = None, phase: str | None = None,
                       width: MapWidth = 1200, palette: MapPalette = "standard") -> Response[str]:
    return _map(game_id, "resolution", format, phase, width, palette)
