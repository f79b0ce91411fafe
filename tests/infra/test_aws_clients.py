"""infra/aws_clients.py: one boto3 session per process, one client per service, shared by threads."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from infra import aws_clients


@pytest.fixture(autouse=True)
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for name in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_SQS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "k")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "s")
    aws_clients.reset()
    yield monkeypatch
    aws_clients.reset()


def test_threads_asking_at_once_share_one_client_per_service() -> None:
    with ThreadPoolExecutor(8) as pool:
        built = list(pool.map(lambda _: aws_clients.client("dynamodb"), range(32)))
    assert len({id(c) for c in built}) == 1
    assert aws_clients.dynamodb() is built[0] and aws_clients.sqs() is aws_clients.client("sqs")
    assert aws_clients.sqs() is not built[0]


def test_clients_use_standard_retries_and_the_environment_s_region_and_endpoint(
    fresh: pytest.MonkeyPatch,
) -> None:
    assert aws_clients.client("ssm").meta.region_name == "us-east-1"  # the default
    aws_clients.reset()
    fresh.setenv("AWS_DEFAULT_REGION", "eu-west-1")
    fresh.setenv("AWS_REGION", "eu-west-3")  # Lambda's variable wins
    fresh.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:4566")
    ssm = aws_clients.client("ssm")
    assert ssm.meta.region_name == "eu-west-3"
    assert ssm.meta.endpoint_url == "http://127.0.0.1:4566"
    # botocore's client max_attempts counts retries: 3 of them after the first attempt
    assert ssm.meta.config.retries == {"mode": "standard", "total_max_attempts": 4}


def test_reset_forgets_the_clients_so_a_new_endpoint_is_read(fresh: pytest.MonkeyPatch) -> None:
    fresh.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1")
    before = aws_clients.sqs()
    fresh.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:2")
    assert aws_clients.sqs() is before  # cached until reset
    aws_clients.reset()
    assert aws_clients.sqs().meta.endpoint_url == "http://127.0.0.1:2"


def test_prime_builds_the_clients_before_the_first_request() -> None:
    aws_clients.prime(("dynamodb", "scheduler"))
    assert sorted(aws_clients._clients) == ["dynamodb", "scheduler"]
