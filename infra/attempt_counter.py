"""DynamoDB adapter for the ``AttemptCounter`` port: attempts per scope in fixed windows.

One item per (scope, window) in the game table, ``ATTEMPTS#<scope>`` / ``WINDOW#<start>``:
``tries`` is raised by one ``UpdateItem`` whose condition is ``tries < limit``, so two
concurrent attempts can never both take the last try; the item expires (``expires_at``,
the table's TTL) one window after its own ends. Used for failed joins of private games
(functions/usecases/players/join_limits.py). ``ClientError`` leaves only as ``AttemptCounterError``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from infra import aws_errors


class AttemptCounterError(Exception):
    """The table refused or was unreachable."""


class DynamoAttemptCounter:
    def __init__(self, client: Callable[[], Any], table_name: str) -> None:
        self._client = client
        self._table = table_name

    @staticmethod
    def _key(scope: str, now: float, window: int) -> dict[str, Any]:
        start = int(now) // window * window
        return {"pk": {"S": f"ATTEMPTS#{scope}"}, "sk": {"S": f"WINDOW#{start}"}}

    def count(self, scope: str, *, now: float, window: int) -> int:
        try:
            answer = self._client().get_item(
                TableName=self._table, Key=self._key(scope, now, window), ConsistentRead=True
            )
        except (aws_errors.ClientError, aws_errors.BotoCoreError) as exc:
            raise AttemptCounterError(f"get_item: {exc}") from exc
        return int(answer.get("Item", {}).get("tries", {}).get("N", "0"))

    def add(self, scope: str, *, now: float, window: int, limit: int) -> bool:
        expires = int(now) // window * window + 2 * window
        try:
            self._client().update_item(
                TableName=self._table,
                Key=self._key(scope, now, window),
                UpdateExpression="ADD tries :one SET expires_at = :expires",
                ConditionExpression="attribute_not_exists(tries) OR tries < :limit",
                ExpressionAttributeValues={
                    ":one": {"N": "1"}, ":limit": {"N": str(limit)}, ":expires": {"N": str(expires)},
                },
            )
        except aws_errors.ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "ConditionalCheckFailedException":
                return False
            raise AttemptCounterError(f"update_item: {exc}") from exc
        except aws_errors.BotoCoreError as exc:
            raise AttemptCounterError(f"update_item: {exc}") from exc
        return True
