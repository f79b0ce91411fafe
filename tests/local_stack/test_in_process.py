"""In-process dispatch (local_stack/in_process.py): a client in the emulator's process gets the
answer it would get over HTTP, byte for byte but for the per-request ids and the clock, without
a socket; a client elsewhere still goes over the network."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from local_stack import in_process
from local_stack.emulator import Emulator

VARIES = {"date", "x-amzn-requestid", "x-amz-request-id", "x-amz-id-2", "x-amz-crc32"}


@pytest.fixture(scope="module")
def emulator() -> Iterator[Emulator]:
    saved = dict(os.environ)
    running = Emulator().start()
    try:
        yield running
    finally:
        running.stop()
        os.environ.clear()
        os.environ.update(saved)


def _clients(emulator: Emulator, service: str) -> tuple[Any, Any]:
    """The same service at the emulator's address (answered in-process) and at ``localhost``
    (the same server, not registered for in-process dispatch: over HTTP)."""
    session = boto3.session.Session(region_name="us-east-1")
    near = session.client(service, endpoint_url=emulator.endpoint)
    far = session.client(service, endpoint_url=f"http://localhost:{emulator.port}")
    return near, far


def _answers(client: Any, calls: Callable[[Any], None], host: str) -> list[tuple[int, dict[str, str], str]]:
    """(status, headers, body) of every answer ``calls`` gets, with what varies by request left out."""
    seen: list[tuple[int, dict[str, str], str]] = []

    def keep(response_dict: dict[str, Any], **_: Any) -> None:
        body = response_dict["body"].decode("utf-8").replace(host, "HOST")
        headers = {k.lower(): v for k, v in response_dict["headers"].items() if k.lower() not in VARIES}
        seen.append((response_dict["status_code"], headers, body))

    client.meta.events.register("before-parse", keep)
    try:
        calls(client)
    finally:
        client.meta.events.unregister("before-parse", keep)
    return seen


def _without_ids(answers: list[tuple[int, dict[str, str], str]]) -> list[tuple[int, dict[str, str], str]]:
    import re

    return [(status, headers, re.sub(r'"(RequestId|message)":"[^"]*"', "", body))
            for status, headers, body in answers]


def test_dynamodb_answers_are_the_ones_http_gives(emulator: Emulator) -> None:
    table = emulator.resources["GAME_TABLE"]
    key = {"pk": {"S": "GAME#in-process"}, "sk": {"S": "META"}}
    item = {**key, "state": {"B": b"\x00\x01binary"}, "n": {"N": "7"}, "tags": {"SS": ["a", "b"]}}

    def calls(ddb: Any) -> None:
        ddb.put_item(TableName=table, Item=item, ReturnValues="ALL_OLD")
        ddb.get_item(TableName=table, Key=key, ConsistentRead=True)
        ddb.query(TableName=table, KeyConditionExpression="pk = :pk",
                  ExpressionAttributeValues={":pk": key["pk"]})
        with pytest.raises(ClientError):
            ddb.put_item(TableName=table, Item=item, ConditionExpression="attribute_not_exists(pk)")
        with pytest.raises(ClientError):
            ddb.transact_write_items(TransactItems=[{"Put": {
                "TableName": table, "Item": item, "ConditionExpression": "attribute_not_exists(pk)"}}])

    near, far = _clients(emulator, "dynamodb")
    near.put_item(TableName=table, Item=item)
    first = _answers(near, calls, f"127.0.0.1:{emulator.port}")
    second = _answers(far, calls, f"localhost:{emulator.port}")
    assert _without_ids(first) == _without_ids(second)
    assert [status for status, _, _ in first] == [200, 200, 200, 400, 400]
    assert first[0][1]["via"] == "convoy-emulator"  # moto names itself; waitress adds Via
    assert int(first[1][1]["content-length"]) == len(first[1][2])


def test_sqs_and_scheduler_answers_are_the_ones_http_gives(emulator: Emulator) -> None:
    """SQS names the queue by the request's Host; the Scheduler is a REST API (paths, queries)."""
    queue = emulator.resources["OUTBOX_QUEUE_URL"].rsplit("/", 1)[1]

    def sqs_calls(sqs: Any) -> None:
        url = sqs.get_queue_url(QueueName=queue)["QueueUrl"]
        sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["VisibilityTimeout", "RedrivePolicy"])
        with pytest.raises(ClientError):
            sqs.get_queue_url(QueueName="no-such-queue")

    def scheduler_calls(scheduler: Any) -> None:
        scheduler.list_schedule_groups(NamePrefix="default", MaxResults=5)
        with pytest.raises(ClientError):
            scheduler.get_schedule(Name="no.such-schedule_1", GroupName="default")

    for service, calls in (("sqs", sqs_calls), ("scheduler", scheduler_calls)):
        near, far = _clients(emulator, service)
        first = _answers(near, calls, f"127.0.0.1:{emulator.port}")
        second = _answers(far, calls, f"localhost:{emulator.port}")
        assert _without_ids(first) == _without_ids(second), service
        assert "HOST" in first[0][2] or service != "sqs"


def test_no_socket_is_opened_for_the_emulator_of_this_process(emulator: Emulator,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from botocore.httpsession import URLLib3Session

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("a request to this process's emulator went to the network")

    near, _ = _clients(emulator, "dynamodb")
    monkeypatch.setattr(URLLib3Session, "send", refuse)
    assert near.describe_table(TableName=emulator.resources["GAME_TABLE"])["Table"]["TableStatus"] == "ACTIVE"


def test_requests_are_dispatched_under_the_emulators_lock(emulator: Emulator) -> None:
    """The emulator's app (its lock, its journal) answers, not moto's server behind it."""
    near, _ = _clients(emulator, "dynamodb")
    with emulator.lock:
        waiting = threading.Thread(target=near.list_tables)
        waiting.start()
        waiting.join(timeout=0.5)
        assert waiting.is_alive()  # blocked on the lock this thread holds
    waiting.join(timeout=10)
    assert not waiting.is_alive()


def test_an_app_that_raises_answers_as_waitress_does() -> None:
    def broken(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        raise RuntimeError("boom")

    environ = in_process.environ_of("POST", "127.0.0.1:1", "/", "", [("Content-Type", "text/plain")], b"x")
    status, headers, body = in_process.call(broken, environ, "convoy-emulator")
    assert status == 500 and ("Connection", "close") in headers
    assert body == (b"Internal Server Error\r\n\r\nThe server encountered an unexpected internal server "
                    b"error\r\n\r\n(generated by convoy-emulator)")


def test_the_environ_is_the_one_waitress_builds() -> None:
    environ = in_process.environ_of(
        "post", "127.0.0.1:4566", "//schedules/a%2Fb", "groupName=g&x=1",
        [("Content-Type", "application/json"), ("X-Amz-Target", "T.Op"), ("Bad_Header", "dropped"),
         ("X-Dup", "one"), ("x-dup", " two ")], b"{}")
    assert environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"] == "/schedules/a/b"
    assert environ["QUERY_STRING"] == "groupName=g&x=1" and environ["SERVER_PORT"] == "4566"
    assert environ["CONTENT_TYPE"] == "application/json" and environ["CONTENT_LENGTH"] == "2"
    assert environ["HTTP_HOST"] == "127.0.0.1:4566" and environ["HTTP_X_AMZ_TARGET"] == "T.Op"
    assert environ["HTTP_X_DUP"] == "one, two" and not any("BAD" in key for key in environ)
    assert environ["wsgi.input"].read() == b"{}"
