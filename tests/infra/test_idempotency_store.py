"""The idempotency table adapter under moto: one conditional PutItem decides who applies (issue 9)."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from functions.ports import COMPLETED, IN_PROGRESS, IdempotencyRecord
from infra.dynamodb.idempotency_store import DynamoIdempotencyStore


def store(aws: dict[str, str]) -> DynamoIdempotencyStore:
    client = boto3.client("dynamodb", region_name="us-east-1")
    return DynamoIdempotencyStore(aws["IDEMPOTENCY_TABLE"], lambda: client)


def test_claim_complete_and_replay(aws: dict[str, str]) -> None:
    s = store(aws)
    assert s.claim("k", "p", now=100, in_progress_until=160, expires_at=3700) is None
    taken = s.claim("k", "p", now=101, in_progress_until=161, expires_at=3701)
    assert taken == IdempotencyRecord(IN_PROGRESS, "p")
    s.complete("k", {"status": 201, "body": {"game_id": "g1"}}, expires_at=3700)
    assert s.claim("k", "other", now=102, in_progress_until=162, expires_at=3702) == IdempotencyRecord(
        COMPLETED, "p", {"status": 201, "body": {"game_id": "g1"}}
    )


def test_a_released_or_lapsed_claim_may_be_taken_again(aws: dict[str, str]) -> None:
    s = store(aws)
    assert s.claim("k", "p", now=100, in_progress_until=160, expires_at=3700) is None
    s.release("k")
    assert s.claim("k", "p", now=101, in_progress_until=161, expires_at=3701) is None
    assert s.claim("k", "p", now=162, in_progress_until=222, expires_at=3762) is None  # lapsed


def test_an_expired_answer_counts_as_absent(aws: dict[str, str]) -> None:
    s = store(aws)
    s.claim("k", "p", now=100, in_progress_until=160, expires_at=200)
    s.complete("k", {"status": 200, "body": {}}, expires_at=200)
    assert s.claim("k", "p", now=201, in_progress_until=261, expires_at=3801) is None


@pytest.fixture
def served_table() -> Iterator[tuple[str, Any]]:
    """The idempotency table behind moto's server with the local stack's per-request lock: DynamoDB
    applies a conditional write atomically, and in-process moto does not (two racing threads can
    both pass its check), so the race below runs where requests are atomic, as on AWS."""
    from local_stack.emulator import Emulator

    saved = dict(os.environ)
    running = Emulator().start()
    try:
        client = boto3.client("dynamodb", region_name="us-east-1", endpoint_url=running.endpoint)
        yield running.resources["IDEMPOTENCY_TABLE"], client
    finally:
        running.stop()
        os.environ.clear()
        os.environ.update(saved)


def test_of_racing_claims_exactly_one_wins(served_table: tuple[str, Any]) -> None:
    table, client = served_table
    s = DynamoIdempotencyStore(table, lambda: client)
    wins: list[bool] = []

    def race() -> None:
        wins.append(s.claim("k", "p", now=100, in_progress_until=160, expires_at=3700) is None)

    threads = [threading.Thread(target=race) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(wins) == [False] * 7 + [True]
