"""``functions.ports.IdempotencyStore`` on the idempotency table (template.yaml ``IdempotencyTable``).

One item per scoped key: ``id`` (the key's hash), ``status``, ``payload_hash``,
``in_progress_expiry`` (epoch s), ``expiration`` (epoch s, the table's TTL attribute) and,
once completed, ``data`` (the answer as JSON text). A claim is one conditional PutItem:
it succeeds only when no live record is there, so of two racing requests with the same
key exactly one applies its intent. DynamoDB deletes expired items lazily (TTL), so the
condition also treats a record past ``expiration`` as absent.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from functions.ports import COMPLETED, IN_PROGRESS, IdempotencyRecord, StorageError, StorageUnavailable
from infra import aws_errors
from infra.errors import is_conditional_failure, is_retryable

_FREE = (
    "attribute_not_exists(id) OR expiration < :now"
    " OR (#status = :in_progress AND in_progress_expiry < :now)"
)


class DynamoIdempotencyStore:
    def __init__(self, table_name: str, client: Callable[[], Any]) -> None:
        self.table_name = table_name
        self._client = client  # a factory: no client is built until the first keyed intent

    def claim(
        self, key: str, payload_hash: str, *, now: int, in_progress_until: int, expires_at: int
    ) -> IdempotencyRecord | None:
        item = {
            "id": {"S": key}, "status": {"S": IN_PROGRESS}, "payload_hash": {"S": payload_hash},
            "in_progress_expiry": {"N": str(in_progress_until)}, "expiration": {"N": str(expires_at)},
        }
        try:
            self._call(
                "put_item", TableName=self.table_name, Item=item, ConditionExpression=_FREE,
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={":now": {"N": str(now)}, ":in_progress": {"S": IN_PROGRESS}},
            )
        except aws_errors.ClientError as exc:
            if not is_conditional_failure(exc):
                raise StorageError(f"put_item failed: {exc}") from exc
            return self._existing(key, payload_hash)
        return None

    def _existing(self, key: str, payload_hash: str) -> IdempotencyRecord:
        found = self._call(
            "get_item", TableName=self.table_name, Key={"id": {"S": key}}, ConsistentRead=True
        ).get("Item")
        if found is None:  # released or expired between our write and this read: still taken
            return IdempotencyRecord(IN_PROGRESS, payload_hash)
        data = found.get("data", {}).get("S")
        return IdempotencyRecord(
            status=found["status"]["S"],
            payload_hash=found["payload_hash"]["S"],
            outcome=json.loads(data) if data else None,
        )

    def complete(self, key: str, outcome: Mapping[str, Any], *, expires_at: int) -> None:
        self._call(
            "update_item", TableName=self.table_name, Key={"id": {"S": key}},
            UpdateExpression="SET #status = :done, #data = :data, expiration = :exp",
            ExpressionAttributeNames={"#status": "status", "#data": "data"},
            ExpressionAttributeValues={
                ":done": {"S": COMPLETED},
                ":data": {"S": json.dumps(outcome, sort_keys=True, separators=(",", ":"))},
                ":exp": {"N": str(expires_at)},
            },
        )

    def release(self, key: str) -> None:
        self._call("delete_item", TableName=self.table_name, Key={"id": {"S": key}})

    def _call(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        try:
            response: dict[str, Any] = getattr(self._client(), operation)(**kwargs)
        except aws_errors.ClientError as exc:
            if operation == "put_item" and is_conditional_failure(exc):
                raise
            if is_retryable(exc):
                raise StorageUnavailable(f"{operation}: {exc}") from exc
            raise StorageError(f"{operation} failed: {exc}") from exc
        except aws_errors.ParamValidationError as exc:  # refused before sending: our bug, not a busy table
            raise StorageError(f"{operation} failed: {exc}") from exc
        except aws_errors.BotoCoreError as exc:
            raise StorageUnavailable(f"{operation}: {exc}") from exc
        return response
