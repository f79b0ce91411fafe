"""``functions.ports.RateCounter`` on the game table: one small item per caller and window.

| pk                 | sk                     | attributes                  |
|--------------------|------------------------|-----------------------------|
| RATE#<caller key>  | WINDOW#<epoch s>       | ``n`` (count), ``expires_at`` (TTL) |

A request is counted by ONE conditional ``UpdateItem``: ``ADD n :one`` under
``attribute_not_exists(n) OR n < :limit``. DynamoDB applies it atomically, so two racing
requests never both take the last slot, and a refused request writes nothing. Why a fixed
window and not a token bucket: a bucket's refill depends on the stored time, so it needs a
read and then a conditional write retried on conflict (two round trips, more under
contention); the window needs one write and no retry, and its one flaw (up to twice the
limit across a window boundary) is bounded and harmless for a CPU-only route whose
aggregate rate API Gateway's route throttle caps anyway (template.yaml). Items expire by
the table's TTL (``expires_at``), so counters cost nothing once their window is over.
"""

from __future__ import annotations

from typing import Any

from functions.ports import StorageError, StorageUnavailable
from infra import aws_clients, aws_errors
from infra.errors import is_conditional_failure, is_retryable

RATE_PREFIX = "RATE#"
WINDOW_PREFIX = "WINDOW#"


class DynamoRateCounter:
    def __init__(self, table_name: str, client: Any | None = None) -> None:
        self.table_name = table_name
        self._client = client  # built on the first request: no client at import

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = aws_clients.dynamodb()
        return self._client

    def take(self, key: str, window_start: int, limit: int, expires_at: int) -> bool:
        try:
            self.client.update_item(
                TableName=self.table_name,
                Key={"pk": {"S": RATE_PREFIX + key}, "sk": {"S": f"{WINDOW_PREFIX}{window_start}"}},
                UpdateExpression="ADD #n :one SET expires_at = if_not_exists(expires_at, :expires)",
                ConditionExpression="attribute_not_exists(#n) OR #n < :limit",
                ExpressionAttributeNames={"#n": "n"},
                ExpressionAttributeValues={
                    ":one": {"N": "1"}, ":limit": {"N": str(limit)}, ":expires": {"N": str(expires_at)},
                },
            )
        except aws_errors.ClientError as exc:
            if is_conditional_failure(exc):
                return False
            if is_retryable(exc):
                raise StorageUnavailable(f"update_item: {exc}") from exc
            raise StorageError(f"update_item failed: {exc}") from exc
        except aws_errors.ParamValidationError as exc:  # refused before sending: our bug, not a busy table
            raise StorageError(f"update_item failed: {exc}") from exc
        except aws_errors.BotoCoreError as exc:  # no answer at all: connection, timeout, credentials
            raise StorageUnavailable(f"update_item: {exc}") from exc
        return True
