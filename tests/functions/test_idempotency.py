"""Idempotent intents (functions/api/idempotency.py; ARCHITECTURE §4 protocol, issue 9 item 6):
a retry gets the first answer, never a second application."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from functions.api.idempotency import run_once
from functions.errors import Conflict, GameNotFound, IdempotencyKeyReused, IdempotentReplaySecret
from functions.ports import COMPLETED, IN_PROGRESS, IdempotencyRecord


class MemoryIdempotencyStore:
    """The IdempotencyStore port's rules, in memory (the DynamoDB one is tested under moto)."""

    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}

    def claim(self, key: str, payload_hash: str, *, now: int, in_progress_until: int,
              expires_at: int) -> IdempotencyRecord | None:
        found = self.items.get(key)
        live = found is not None and found["expiration"] >= now and not (
            found["status"] == IN_PROGRESS and found["in_progress_expiry"] < now)
        if live and found is not None:
            return IdempotencyRecord(found["status"], found["payload_hash"], found.get("data"))
        self.items[key] = {"status": IN_PROGRESS, "payload_hash": payload_hash,
                           "in_progress_expiry": in_progress_until, "expiration": expires_at}
        return None

    def complete(self, key: str, outcome: Mapping[str, Any], *, expires_at: int) -> None:
        self.items[key].update(status=COMPLETED, data=dict(outcome), expiration=expires_at)

    def release(self, key: str) -> None:
        self.items.pop(key, None)


class Clock:
    def __init__(self) -> None:
        self.t = 1_000_000.0

    def __call__(self) -> float:
        return self.t


SCOPE = {"route": "orders", "game_id": "g1", "caller": "h1"}


def counting() -> tuple[list[int], Any]:
    applied: list[int] = []

    def apply() -> dict[str, Any]:
        applied.append(1)
        return {"status": 200, "body": {"n": len(applied)}}

    return applied, apply


def test_a_retry_gets_the_first_answer_and_applies_nothing() -> None:
    store, clock = MemoryIdempotencyStore(), Clock()
    applied, apply = counting()
    first = run_once(store, "k1", SCOPE, {"orders": ["A PAR H"]}, apply, 3600, now=clock)
    again = run_once(store, "k1", SCOPE, {"orders": ["A PAR H"]}, apply, 3600, now=clock)
    assert first == again == {"status": 200, "body": {"n": 1}} and applied == [1]


def test_the_same_key_in_another_scope_is_another_intent() -> None:
    store, clock = MemoryIdempotencyStore(), Clock()
    applied, apply = counting()
    run_once(store, "k1", SCOPE, {}, apply, 3600, now=clock)
    run_once(store, "k1", {**SCOPE, "caller": "h2"}, {}, apply, 3600, now=clock)
    assert applied == [1, 1]


def test_the_same_key_with_another_body_is_refused() -> None:
    store, clock = MemoryIdempotencyStore(), Clock()
    _, apply = counting()
    run_once(store, "k1", SCOPE, {"orders": ["A PAR H"]}, apply, 3600, now=clock)
    with pytest.raises(IdempotencyKeyReused):
        run_once(store, "k1", SCOPE, {"orders": ["A PAR - BUR"]}, apply, 3600, now=clock)


def test_a_key_in_flight_is_a_conflict_until_its_claim_lapses() -> None:
    store, clock = MemoryIdempotencyStore(), Clock()
    applied, apply = counting()

    class Context:
        def get_remaining_time_in_millis(self) -> int:
            return 14_500

    def reenter() -> dict[str, Any]:  # a second request with the key while the first runs
        with pytest.raises(Conflict):
            run_once(store, "k1", SCOPE, {}, apply, 3600, now=clock)
        clock.t += 16  # the first request's Lambda would have timed out by now
        return {"status": 200, "body": run_once(store, "k1", SCOPE, {}, apply, 3600, now=clock)}

    run_once(store, "k1", SCOPE, {}, reenter, 3600, Context(), now=clock)
    assert applied == [1]


def test_a_rejected_intent_is_forgotten_so_the_key_may_be_sent_again() -> None:
    store, clock = MemoryIdempotencyStore(), Clock()

    def refuse() -> dict[str, Any]:
        raise GameNotFound("no such game")

    with pytest.raises(GameNotFound):
        run_once(store, "k1", SCOPE, {}, refuse, 3600, now=clock)
    applied, apply = counting()
    assert run_once(store, "k1", SCOPE, {}, apply, 3600, now=clock)["body"] == {"n": 1}


def test_an_expired_answer_is_not_replayed() -> None:
    store, clock = MemoryIdempotencyStore(), Clock()
    applied, apply = counting()
    run_once(store, "k1", SCOPE, {}, apply, 60, now=clock)
    clock.t += 61
    run_once(store, "k1", SCOPE, {}, apply, 60, now=clock)
    assert applied == [1, 1]


def test_without_a_key_or_a_store_the_intent_simply_runs() -> None:
    applied, apply = counting()
    run_once(MemoryIdempotencyStore(), None, SCOPE, {}, apply, 60)
    run_once(None, "k1", SCOPE, {}, apply, 60)
    assert applied == [1, 1]


def test_token_replay_through_idempotency_key_is_refused() -> None:
    """Issue 11, token replay (high): on an anonymous route two callers share a scope, so a
    second caller with the same key and body must not get the first caller's token."""
    store, clock = MemoryIdempotencyStore(), Clock()
    applied: list[int] = []

    def create() -> dict[str, Any]:
        applied.append(1)
        return {"status": 201, "body": {"game_id": "g9", "token": "creator-secret", "webhook_secret": "w"}}

    anonymous = {"route": "create", "game_id": None, "caller": None}
    first = run_once(store, "k", anonymous, {"variant": "classical"}, create, 3600, now=clock)
    with pytest.raises(IdempotentReplaySecret) as replay:
        run_once(store, "k", anonymous, {"variant": "classical"}, create, 3600, now=clock)

    assert first["body"]["token"] == "creator-secret" and applied == [1]
    assert replay.value.extra == {"first": {"game_id": "g9"}}
    assert "creator-secret" not in str(store.items) and "'w'" not in str(store.items)  # never stored


def test_answers_without_secrets_are_still_replayed_whole() -> None:
    store, clock = MemoryIdempotencyStore(), Clock()
    applied, apply = counting()
    run_once(store, "k", SCOPE, {}, apply, 3600, now=clock)
    assert run_once(store, "k", SCOPE, {}, apply, 3600, now=clock) == {"status": 200, "body": {"n": 1}}
    assert applied == [1]
