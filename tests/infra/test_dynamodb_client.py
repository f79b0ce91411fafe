"""Convoy's small DynamoDB client (infra/dynamodb/client.py over infra/aws_json.py, issue 9
item 6) answers as botocore's does: the same signatures, answers, errors and retries, so the
adapters cannot tell them apart. Checked against botocore itself and against moto's server
over HTTP. (The SSM client shares all but its names: tests/infra/test_ssm_client.py.)"""

from __future__ import annotations

import json
import threading
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from unittest import mock

import boto3
import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.exceptions import BotoCoreError, ClientError, EndpointConnectionError, NoCredentialsError
from hypothesis import given, settings
from hypothesis import strategies as st

from infra.aws_json import endpoint_url as service_endpoint
from infra.aws_json import operation_name, sign
from infra.dynamodb.client import DynamoDBClient, endpoint_url
from local_stack.emulator import free_port

KEY = {"pk": {"S": "GAME#g"}, "sk": {"S": "META"}}


# ------------------------------------------------------------------ signing


@settings(max_examples=60, deadline=None)
@given(
    body=st.binary(max_size=300),
    call=st.sampled_from([("dynamodb", "DynamoDB_20120810.GetItem", "1.0"),
                          ("dynamodb", "DynamoDB_20120810.TransactWriteItems", "1.0"),
                          ("ssm", "AmazonSSM.GetParameters", "1.1")]),
    region=st.sampled_from(["us-east-1", "eu-west-3", "cn-north-1"]),
    secret=st.text("abcdefXYZ0123/+", min_size=1, max_size=40),
    token=st.none() | st.text("abc=", min_size=1),
    host=st.sampled_from(["dynamodb.us-east-1.amazonaws.com", "127.0.0.1:4566"]),
    when=st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2040, 1, 1)),
)
def test_the_signature_is_botocore_s_sigv4(
    body: bytes, call: tuple[str, str, str], region: str, secret: str, token: str | None, host: str,
    when: datetime
) -> None:
    """AWS SigV4 (botocore.auth.SigV4Auth is the reference) for the headers the clients send."""
    service, target, version = call
    when = when.replace(microsecond=0)
    headers = {
        "Content-Type": f"application/x-amz-json-{version}",
        "Host": host,
        "X-Amz-Date": when.strftime("%Y%m%dT%H%M%SZ"),
        "X-Amz-Target": target,
    }
    if token:
        headers["X-Amz-Security-Token"] = token
    ours = sign(headers, body, service=service, region=region, access_key="AKIDEXAMPLE", secret_key=secret,
                when=when)

    scheme = "http" if ":" in host else "https"
    request = AWSRequest(
        method="POST",
        url=f"{scheme}://{host}/",
        data=body,
        headers={"Content-Type": headers["Content-Type"], "X-Amz-Target": headers["X-Amz-Target"]},
    )
    with mock.patch("botocore.auth.get_current_datetime", return_value=when):
        SigV4Auth(Credentials("AKIDEXAMPLE", secret, token), service, region).add_auth(request)
    assert ours == request.headers["Authorization"]


def test_names_and_endpoints_follow_botocore() -> None:
    assert operation_name("transact_write_items") == "TransactWriteItems"
    assert operation_name("describe_time_to_live") == "DescribeTimeToLive"
    assert endpoint_url("eu-west-1", {}) == "https://dynamodb.eu-west-1.amazonaws.com"
    assert endpoint_url("cn-north-1", {}) == "https://dynamodb.cn-north-1.amazonaws.com.cn"
    assert (
        endpoint_url("us-east-1", {"AWS_ENDPOINT_URL": "http://127.0.0.1:5000/"}) == "http://127.0.0.1:5000"
    )
    assert (
        endpoint_url(
            "us-east-1", {"AWS_ENDPOINT_URL": "http://a:1", "AWS_ENDPOINT_URL_DYNAMODB": "http://b:2"}
        )
        == "http://b:2"
    )
    assert service_endpoint("ssm", "eu-west-1", {}) == "https://ssm.eu-west-1.amazonaws.com"
    assert service_endpoint("ssm", "us-east-1", {"AWS_ENDPOINT_URL": "http://a:1",
                                                 "AWS_ENDPOINT_URL_SSM": "http://c:3"}) == "http://c:3"


# ------------------------------------------------------------------ against moto's server


@pytest.fixture
def clients(moto_endpoint: str) -> Iterator[tuple[DynamoDBClient, Any]]:
    endpoint = moto_endpoint
    with mock.patch.dict("os.environ", {"AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"}):
        reference = boto3.client("dynamodb", region_name="us-east-1", endpoint_url=endpoint)
        if "t" in reference.list_tables()["TableNames"]:
            reference.delete_table(TableName="t")
        reference.create_table(
            TableName="t",
            BillingMode="PAY_PER_REQUEST",
            KeySchema=[
                {"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"},
            ],
            AttributeDefinitions=[
                {"AttributeName": "pk", "AttributeType": "S"},
                {"AttributeName": "sk", "AttributeType": "S"},
            ],
        )
        yield DynamoDBClient("us-east-1", endpoint), reference


def _same(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    ours, theirs = dict(ours), dict(theirs)
    assert ours.pop("ResponseMetadata")["HTTPStatusCode"] == theirs.pop("ResponseMetadata")["HTTPStatusCode"]
    assert ours == theirs


def test_answers_are_botocore_s_for_every_operation_the_adapters_use(
    clients: tuple[DynamoDBClient, Any],
) -> None:
    ours, reference = clients
    item = {
        **KEY,
        "version": {"N": "1"},
        "blob": {"B": b"\x00\xffpng"},
        "tags": {"BS": [b"a", b"\x01"]},
        "state": {"M": {"units": {"L": [{"S": "A PAR"}, {"NULL": True}]}, "ok": {"BOOL": True}}},
    }
    ours.put_item(TableName="t", Item=item)
    _same(
        ours.get_item(TableName="t", Key=KEY, ConsistentRead=True),
        reference.get_item(TableName="t", Key=KEY, ConsistentRead=True),
    )
    assert ours.get_item(TableName="t", Key=KEY)["Item"]["blob"] == {"B": b"\x00\xffpng"}  # blobs are bytes
    for n in range(3):
        ours.put_item(
            TableName="t", Item={"pk": {"S": "GAME#g"}, "sk": {"S": f"EVENT#{n}"}, "n": {"N": str(n)}}
        )
    query = {
        "TableName": "t",
        "KeyConditionExpression": "pk = :p AND begins_with(sk, :e)",
        "ExpressionAttributeValues": {":p": {"S": "GAME#g"}, ":e": {"S": "EVENT#"}},
        "Limit": 2,
    }
    _same(ours.query(**query), reference.query(**query))
    batch = {"RequestItems": {"t": {"Keys": [KEY, {"pk": {"S": "GAME#g"}, "sk": {"S": "EVENT#1"}}]}}}
    _same(ours.batch_get_item(**batch), reference.batch_get_item(**batch))
    update = {
        "TableName": "t",
        "Key": KEY,
        "UpdateExpression": "SET version = version + :one",
        "ExpressionAttributeValues": {":one": {"N": "1"}},
        "ReturnValues": "UPDATED_NEW",
    }
    assert ours.update_item(**update)["Attributes"] == {"version": {"N": "2"}}
    _same(
        ours.delete_item(
            TableName="t", Key={"pk": {"S": "GAME#g"}, "sk": {"S": "EVENT#2"}}, ReturnValues="ALL_OLD"
        ),
        {
            "Attributes": {"pk": {"S": "GAME#g"}, "sk": {"S": "EVENT#2"}, "n": {"N": "2"}},
            "ResponseMetadata": {"HTTPStatusCode": 200},
        },
    )


def test_errors_are_botocore_s_client_errors(clients: tuple[DynamoDBClient, Any]) -> None:
    ours, reference = clients
    reference.put_item(TableName="t", Item={**KEY, "version": {"N": "5"}})
    stale = {
        "TableName": "t",
        "Item": {**KEY, "version": {"N": "6"}},
        "ConditionExpression": "version = :v",
        "ExpressionAttributeValues": {":v": {"N": "4"}},
    }
    transaction = {
        "TransactItems": [
            {"Put": {**stale, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
            {"Put": {"TableName": "t", "Item": {"pk": {"S": "GAME#g"}, "sk": {"S": "EVENT#9"}}}},
        ]
    }
    for call in (
        lambda c: c.put_item(**stale),
        lambda c: c.transact_write_items(**transaction),
        lambda c: c.get_item(TableName="missing", Key=KEY),
    ):
        with pytest.raises(ClientError) as mine:
            call(ours)
        with pytest.raises(ClientError) as theirs:
            call(reference)
        _same(mine.value.response, theirs.value.response)
        assert mine.value.operation_name == theirs.value.operation_name
    assert mine.value.response["Error"]["Code"] == "ResourceNotFoundException"


# ------------------------------------------------------------------ retries, against a scripted server


class Script(BaseHTTPRequestHandler):
    answers: list[tuple[int, dict[str, Any], dict[str, str]]] = []
    seen: list[dict[str, str]] = []

    def do_POST(self) -> None:  # noqa: N802 - the http.server hook
        self.rfile.read(int(self.headers["Content-Length"]))
        Script.seen.append(dict(self.headers))
        status, body, extra = Script.answers.pop(0) if Script.answers else (200, {}, {})
        data = json.dumps(body).encode()
        self.send_response(status)
        headers = {"Content-Length": str(len(data)), "x-amz-crc32": str(zlib.crc32(data)), **extra}
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_: Any) -> None:
        pass


@pytest.fixture
def scripted() -> Iterator[tuple[DynamoDBClient, list[float]]]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Script)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    Script.answers, Script.seen = [], []
    slept: list[float] = []
    with mock.patch.dict(
        "os.environ", {"AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "AWS_SESSION_TOKEN": "t"}
    ):
        yield DynamoDBClient("us-east-1", f"http://127.0.0.1:{server.server_port}", sleep=slept.append), slept
    server.shutdown()
    server.server_close()


def _error(code: str) -> dict[str, Any]:
    return {"__type": f"com.amazonaws.dynamodb.v20120810#{code}", "message": f"{code}!"}


def test_throttling_and_server_errors_are_retried_with_backoff(
    scripted: tuple[DynamoDBClient, list[float]],
) -> None:
    client, slept = scripted
    Script.answers = [
        (400, _error("ProvisionedThroughputExceededException"), {}),
        (503, {}, {}),
        (200, {"Item": KEY}, {}),
    ]

    answer = client.get_item(TableName="t", Key=KEY)

    assert answer["Item"] == KEY and answer["ResponseMetadata"]["RetryAttempts"] == 2
    assert len(Script.seen) == 3 and len(slept) == 2 and all(0 <= s <= 20 for s in slept)
    first = Script.seen[0]
    assert first["X-Amz-Target"] == "DynamoDB_20120810.GetItem" and first["X-Amz-Security-Token"] == "t"
    assert first["Authorization"].startswith("AWS4-HMAC-SHA256 Credential=k/")


def test_retries_stop_after_three_attempts_and_bad_requests_are_not_retried(
    scripted: tuple[DynamoDBClient, list[float]],
) -> None:
    client, _ = scripted
    Script.answers = [(400, _error("ThrottlingException"), {})] * 3
    with pytest.raises(ClientError) as throttled:
        client.put_item(TableName="t", Item=KEY)
    assert throttled.value.response["Error"] == {
        "Code": "ThrottlingException",
        "Message": "ThrottlingException!",
    }
    assert len(Script.seen) == 3

    Script.answers = [(400, {**_error("ValidationException"), "extra": 1}, {})]
    with pytest.raises(ClientError) as refused:
        client.put_item(TableName="t", Item=KEY)
    assert len(Script.seen) == 4 and refused.value.response["extra"] == 1


def test_a_damaged_body_is_retried(scripted: tuple[DynamoDBClient, list[float]]) -> None:
    client, _ = scripted
    Script.answers = [(200, {"Item": {}}, {"x-amz-crc32": "1"}), (200, {"Item": KEY}, {})]

    assert client.get_item(TableName="t", Key=KEY)["Item"] == KEY and len(Script.seen) == 2


def test_no_answer_is_a_botocore_error_and_no_credentials_too() -> None:
    slept: list[float] = []
    client = DynamoDBClient("us-east-1", f"http://127.0.0.1:{free_port()}", sleep=slept.append)
    keys = {"AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"}
    with mock.patch.dict("os.environ", keys), pytest.raises(EndpointConnectionError):
        client.get_item(TableName="t", Key=KEY)
    assert len(slept) == 2  # three attempts

    chain = mock.Mock(get_credentials=mock.Mock(return_value=None))
    with (
        mock.patch.dict("os.environ", {"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""}),
        mock.patch("botocore.session.get_session", return_value=chain),
        pytest.raises(NoCredentialsError),
    ):
        client.get_item(TableName="t", Key=KEY)
    assert issubclass(NoCredentialsError, BotoCoreError)


def test_hooks_see_each_call_and_may_add_parameters(scripted: tuple[DynamoDBClient, list[float]]) -> None:
    client, _ = scripted
    seen: list[tuple[str, Any]] = []
    client.add_hooks(
        before=lambda op, params: params.update(ReturnConsumedCapacity="TOTAL"),
        after=lambda op, params, answer: seen.append((op, params.get("ReturnConsumedCapacity"))),
    )
    Script.answers = [(200, {"ConsumedCapacity": {"CapacityUnits": 1.0}}, {})]

    assert client.put_item(TableName="t", Item=KEY)["ConsumedCapacity"] == {"CapacityUnits": 1.0}
    assert seen == [("PutItem", "TOTAL")]
    assert datetime.now(UTC).year >= 2024
