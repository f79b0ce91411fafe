"""The sandbox's per-caller counters on DynamoDB (moto): one conditional write per request
(infra/dynamodb/rate_counter.py; issue 19)."""

from __future__ import annotations

import boto3
import pytest

from functions.usecases.sandbox.sandbox import take_sandbox_slot
from infra.dynamodb.rate_counter import DynamoRateCounter


@pytest.fixture
def counter(aws: dict[str, str]) -> DynamoRateCounter:
    return DynamoRateCounter(aws["GAME_TABLE"], client=boto3.client("dynamodb", region_name="us-east-1"))


def test_a_window_counts_up_to_its_limit_and_no_further(counter: DynamoRateCounter) -> None:
    taken = [counter.take("caller", 600, 3, 720) for _ in range(5)]
    assert taken == [True, True, True, False, False]
    assert counter.take("caller", 660, 3, 780), "the next window starts afresh"
    assert counter.take("someone else", 600, 3, 720), "callers are counted apart"


def test_the_counter_item_expires_and_refusals_write_nothing(aws: dict[str, str],
                                                             counter: DynamoRateCounter) -> None:
    for _ in range(4):
        counter.take("caller", 600, 2, 720)
    client = boto3.client("dynamodb", region_name="us-east-1")
    item = client.get_item(TableName=aws["GAME_TABLE"],
                           Key={"pk": {"S": "RATE#caller"}, "sk": {"S": "WINDOW#600"}})["Item"]
    assert item["n"] == {"N": "2"} and item["expires_at"] == {"N": "720"}


def test_the_use_case_refuses_with_retry_after(counter: DynamoRateCounter) -> None:
    from functions.errors import RateLimited

    for _ in range(2):
        take_sandbox_slot(counter, "192.0.2.1", now=1000.5, limit=2)
    with pytest.raises(RateLimited) as refused:
        take_sandbox_slot(counter, "192.0.2.1", now=1010.0, limit=2)
    assert refused.value.extra["retry_after"] == 10  # the window 960..1020 ends in 10 s
    take_sandbox_slot(counter, "192.0.2.2", now=1010.0, limit=2)  # another address is not held back
