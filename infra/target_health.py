"""DynamoDB adapter for the standing of a game's notification targets (issue 11: parking).

One item per (game, target) that has failed lately, in the game table:

| pk                    | sk              | what                                                    |
|-----------------------|-----------------|---------------------------------------------------------|
| NOTIFYHEALTH#<game>   | TARGET#<sha256> | ``failures`` (consecutive), ``parked_until``, ``expires_at`` |

Target keys are hashed, as in the delivery log (URLs may hold tokens). The failure count
is an atomic ``ADD``; parking is a conditional write, so of two notifiers failing the same
target at once only one parks it and only the first parking of a streak reports
``newly_parked`` (one notice). A success deletes the item. Items expire after
``TTL_SECONDS`` without a failure, so an abandoned game leaves nothing behind.
``ClientError`` leaves this module only as ``TargetHealthError``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from infra import aws_errors

TTL_SECONDS = 7 * 24 * 3600


class TargetHealthError(Exception):
    """The table refused or was unreachable."""


class StandingFactory(Protocol):
    """functions.ports.TargetStanding fits (infra never imports functions)."""

    def __call__(self, failures: int = 0, parked_until: int = 0, newly_parked: bool = False) -> Any: ...


def _digest(target_key: str) -> str:
    return hashlib.sha256(target_key.encode()).hexdigest()


class DynamoTargetHealth:
    """`TargetHealth` port over the game table."""

    def __init__(self, client: Callable[[], Any], table_name: str, standing: StandingFactory) -> None:
        self._client = client
        self._table = table_name
        self._standing = standing

    def _call(self, operation: str, **kwargs: Any) -> Any:
        try:
            return getattr(self._client(), operation)(TableName=self._table, **kwargs)
        except aws_errors.ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                raise
            raise TargetHealthError(f"{operation}: {exc}") from exc
        except aws_errors.BotoCoreError as exc:
            raise TargetHealthError(f"{operation}: {exc}") from exc

    @staticmethod
    def _key(game_id: str, target_key: str) -> dict[str, Any]:
        return {"pk": {"S": f"NOTIFYHEALTH#{game_id}"}, "sk": {"S": f"TARGET#{_digest(target_key)}"}}

    def standing(self, game_id: str, target_keys: Sequence[str]) -> dict[str, Any]:
        by_digest = {f"TARGET#{_digest(k)}": k for k in target_keys}
        answer = self._call(
            "query",
            KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": f"NOTIFYHEALTH#{game_id}"}},
            ConsistentRead=True,
        )
        found: dict[str, Any] = {}
        for item in answer.get("Items", []):
            key = by_digest.get(item["sk"]["S"])
            if key is not None:
                failures = int(item.get("failures", {}).get("N", "0"))
                found[key] = self._standing(failures, int(item.get("parked_until", {}).get("N", "0")))
        return found

    def failed(self, game_id: str, target_key: str, *, now: float, park_after: int, park_for: int) -> Any:
        counted = self._call(
            "update_item",
            Key=self._key(game_id, target_key),
            UpdateExpression="ADD failures :one SET expires_at = :expires",
            ExpressionAttributeValues={":one": {"N": "1"}, ":expires": {"N": str(int(now) + TTL_SECONDS)}},
            ReturnValues="ALL_NEW",
        )["Attributes"]
        failures = int(counted["failures"]["N"])
        parked_until = int(counted.get("parked_until", {}).get("N", "0"))
        if failures < park_after or parked_until > now:
            return self._standing(failures, parked_until)
        until = int(now) + park_for
        try:
            old = self._call(
                "update_item",
                Key=self._key(game_id, target_key),
                UpdateExpression="SET parked_until = :until, noticed = :yes",
                ConditionExpression="attribute_not_exists(parked_until) OR parked_until <= :now",
                ExpressionAttributeValues={
                    ":until": {"N": str(until)}, ":now": {"N": str(int(now))}, ":yes": {"BOOL": True},
                },
                ReturnValues="ALL_OLD",
            ).get("Attributes", {})
        except aws_errors.ClientError:  # another notifier parked it first
            return self._standing(failures, parked_until)
        return self._standing(failures, until, "noticed" not in old)

    def succeeded(self, game_id: str, target_key: str) -> None:
        self._call("delete_item", Key=self._key(game_id, target_key))
