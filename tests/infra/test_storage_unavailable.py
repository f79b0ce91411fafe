"""A store that does not answer is a retryable 503 with a stable code, never a bare 500.

(ARCHITECTURE §4 error shape; infra/errors.py: ClientError and BotoCoreError become
domain errors inside infra/.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError

from composition import api, wiring
from composition.settings import load_settings
from functions.api.services import Services
from functions.ports import StorageError, StorageUnavailable, SystemClock
from infra.dynamodb.game_store import DynamoGameStore
from local_stack.http_adapter import LocalContext


class Unreachable:
    """A DynamoDB client whose every call fails before an answer arrives."""

    def __getattr__(self, name: str) -> Any:
        def call(**kwargs: Any) -> Any:
            raise EndpointConnectionError(endpoint_url="http://dynamodb.invalid")

        return call


class Throttled:
    def __getattr__(self, name: str) -> Any:
        def call(**kwargs: Any) -> Any:
            raise ClientError({"Error": {"Code": "ThrottlingException", "Message": "slow down"}}, name)

        return call


@pytest.mark.parametrize("client", [Unreachable(), Throttled()])
def test_no_answer_or_throttling_is_storage_unavailable(client: Any) -> None:
    with pytest.raises(StorageUnavailable):
        DynamoGameStore("games", client=client).load("g1")


def test_a_refused_request_stays_a_storage_error() -> None:
    class Refused:
        def __getattr__(self, name: str) -> Any:
            def call(**kwargs: Any) -> Any:
                raise ClientError({"Error": {"Code": "ValidationException", "Message": "bad"}}, name)

            return call

    with pytest.raises(StorageError) as raised:
        DynamoGameStore("games", client=Refused()).load("g1")
    assert not isinstance(raised.value, StorageUnavailable)


def test_a_request_botocore_refuses_to_send_is_a_storage_error_not_unavailable() -> None:
    # botocore validates parameters before sending (ParamValidationError, a BotoCoreError):
    # that is a bug in the request, not a table that did not answer
    import boto3

    from infra.dynamodb.table import TableAdapter

    client = boto3.client("dynamodb", region_name="us-east-1", aws_access_key_id="k",
                          aws_secret_access_key="s", endpoint_url="http://dynamodb.invalid")
    with pytest.raises(StorageError) as raised:
        TableAdapter("games", client=client)._call("get_item", TableName="games", Key={"pk": {"S": 5}})
    assert not isinstance(raised.value, StorageUnavailable)


def test_the_api_answers_503_storage_unavailable() -> None:
    # Given the API wired to a store that cannot be reached
    wiring.override(Services(
        settings=load_settings(), store=DynamoGameStore("games", client=Unreachable()),
        clock=SystemClock(), idempotency=None,
    ))
    try:
        event = {
            "version": "2.0", "routeKey": "$default", "rawPath": "/games/g1/orders_status",
            "rawQueryString": "", "headers": {}, "isBase64Encoded": False,
            "requestContext": {"http": {"method": "GET", "path": "/games/g1/orders_status",
                                        "sourceIp": "127.0.0.1"}, "requestId": "r1", "stage": "$default"},
        }
        # When a client asks for anything
        answer = api.lambda_handler(event, LocalContext())
    finally:
        wiring.reset()
    # Then it is a clean, retryable 503
    assert answer["statusCode"] == 503
    assert json.loads(answer["body"])["code"] == "STORAGE_UNAVAILABLE"
