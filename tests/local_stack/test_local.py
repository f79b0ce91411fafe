"""The local stack's pieces: the tolerant template loader, the payload-v2 event adapter, pumps."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from infra.errors import is_conditional_failure
from local_stack import pumps
from local_stack.http_adapter import to_event
from local_stack.template import load_template, local_name, table_request


def test_template_tags_are_tolerated() -> None:
    template = load_template()
    api = template["Resources"]["ApiFunction"]["Properties"]
    variables = api["Environment"]["Variables"]
    assert variables["CONVOY_OPERATOR_TOKEN_PARAMETER"] == {"Ref": "OperatorTokenParameter"}
    request = table_request("GameTable", template["Resources"]["GameTable"]["Properties"])
    assert request["TableName"] == local_name("GameTable") == "convoy-games"
    assert request["StreamSpecification"]["StreamViewType"] == "NEW_IMAGE"
    assert "StreamSpecification" not in table_request(
        "GameTable", template["Resources"]["GameTable"]["Properties"], streams=False
    )


def test_to_event_is_an_http_api_v2_event() -> None:
    event = to_event(
        "POST", "/games/abc/events?after=3&limit=2", {"Authorization": "Bearer t", "Host": "h"},
        b'{"a": 1}', "10.0.0.1",
    )
    assert event["version"] == "2.0" and event["rawPath"] == "/games/abc/events"
    assert event["queryStringParameters"] == {"after": "3", "limit": "2"}
    assert event["headers"]["authorization"] == "Bearer t"
    assert event["requestContext"]["http"]["method"] == "POST"
    assert event["body"] == '{"a": 1}' and event["isBase64Encoded"] is False


def test_pumps_keep_going_after_a_failure() -> None:
    calls: list[str] = []

    def broken() -> None:
        raise RuntimeError("boom")

    def fine() -> None:
        calls.append("ran")

    saved = list(pumps.PUMPS)
    try:
        pumps.PUMPS[:] = []
        pumps.register(broken)
        pumps.register(fine)
        pumps.register(fine)  # registering twice runs once
        pumps.run_once()
    finally:
        pumps.PUMPS[:] = saved
    assert calls == ["ran"]


def _client_error(code: str, **extra: Any) -> ClientError:
    return ClientError({"Error": {"Code": code, "Message": extra.pop("message", "")}, **extra}, "Op")


def test_conditional_failures_are_recognised() -> None:
    assert is_conditional_failure(_client_error("ConditionalCheckFailedException"))
    assert is_conditional_failure(
        _client_error("TransactionCanceledException",
                      CancellationReasons=[{"Code": "None"}, {"Code": "ConditionalCheckFailed"}])
    )
    assert is_conditional_failure(
        _client_error("TransactionCanceledException", CancellationReasons=[{"Code": "TransactionConflict"}])
    )
    assert not is_conditional_failure(_client_error("ProvisionedThroughputExceededException"))
    assert not is_conditional_failure(ValueError("x"))
