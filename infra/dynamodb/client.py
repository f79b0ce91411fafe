"""A small DynamoDB client: the service's JSON protocol, SigV4-signed, over keep-alive HTTP.

Why not botocore's client (issue 9 item 6, cold start): see ``infra/aws_json.py``, which
holds what this client shares with the SSM one (signing, connections, botocore's errors
and standard retry mode, credentials, endpoints). Every DynamoDB operation is ``POST /``
with ``X-Amz-Target: DynamoDB_20120810.<Operation>`` and a JSON body that *is* the request
(attribute values are already in wire format, ``infra/dynamodb/items.py``); the answer is
JSON in the same shape botocore returns, once blobs (``{"B": ...}``, ``{"BS": [...]}``) are
decoded to ``bytes`` — the one thing DynamoDB adds here. Endpoint:
``AWS_ENDPOINT_URL_DYNAMODB`` or ``AWS_ENDPOINT_URL`` (the local stack), else
``https://dynamodb.<region>.amazonaws.com``.
"""

from __future__ import annotations

import base64
from typing import Any

from infra.aws_json import JsonServiceClient
from infra.aws_json import endpoint_url as service_endpoint

TARGET_PREFIX = "DynamoDB_20120810."
CONTENT_TYPE = "application/x-amz-json-1.0"


def endpoint_url(region: str, env: dict[str, str] | None = None) -> str:
    return service_endpoint("dynamodb", region, env)


def _decode_blobs(value: Any) -> Any:
    """Base64 blobs (``{"B": ...}``, ``{"BS": [...]}``) become bytes, as botocore returns them."""
    if isinstance(value, dict):
        if len(value) == 1:
            (tag, inner), = value.items()
            if tag == "B" and isinstance(inner, str):
                return {"B": base64.b64decode(inner)}
            if tag == "BS" and isinstance(inner, list) and all(isinstance(i, str) for i in inner):
                return {"BS": [base64.b64decode(i) for i in inner]}
        return {key: _decode_blobs(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_decode_blobs(inner) for inner in value]
    return value


class DynamoDBClient(JsonServiceClient):
    """botocore's DynamoDB client interface, for the operations' JSON as botocore takes it."""

    SERVICE = "dynamodb"
    TARGET_PREFIX = TARGET_PREFIX
    CONTENT_TYPE = CONTENT_TYPE

    def decode(self, parsed: Any) -> Any:
        return _decode_blobs(parsed)
