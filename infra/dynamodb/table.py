"""What every DynamoDB store of the game table shares: its name, a lazily made client, and
one way to call it that turns AWS failures into the ports' storage errors, and one batch read.

The client is made on the first call, not at import or construction, so a Lambda's cold
start pays for it only when a request needs the table (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from functions.ports import StorageError, StorageUnavailable
from infra import aws_clients, aws_errors
from infra.errors import is_conditional_failure, is_retryable


class TableAdapter:
    """Base of the stores over one DynamoDB table; ``CONDITIONAL`` names the operations whose
    failed conditions the store handles itself (they are re-raised as ``ClientError``)."""

    CONDITIONAL: frozenset[str] = frozenset()

    def __init__(self, table_name: str, client: Any | None = None) -> None:
        self.table_name = table_name
        self._client = client

    @property
    def client(self) -> Any:
        if self._client is None:
            self._client = aws_clients.dynamodb()
        return self._client

    def _call(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        try:
            response: dict[str, Any] = getattr(self.client, operation)(**kwargs)
        except aws_errors.ClientError as exc:
            if operation in self.CONDITIONAL and is_conditional_failure(exc):
                raise
            if is_retryable(exc):
                raise StorageUnavailable(f"{operation}: {exc}") from exc
            raise StorageError(f"{operation} failed: {exc}") from exc
        except aws_errors.ParamValidationError as exc:  # refused before sending: our bug, not a busy table
            raise StorageError(f"{operation} failed: {exc}") from exc
        except aws_errors.BotoCoreError as exc:  # no answer at all: connection, timeout, credentials
            raise StorageUnavailable(f"{operation}: {exc}") from exc
        return response

    def _get_many(self, keys: Sequence[dict[str, Any]], *, consistent: bool = True) -> list[dict[str, Any]]:
        """The items of ``keys`` (DynamoDB-typed) that exist, in no particular order: BatchGetItem
        by 100 keys (its limit), unprocessed keys asked again. One request where a loop of
        GetItem made one per key."""
        found: list[dict[str, Any]] = []
        pending = list(keys)
        while pending:
            chunk, pending = pending[:100], pending[100:]
            request: dict[str, Any] = {self.table_name: {"Keys": chunk, "ConsistentRead": consistent}}
            while request:
                response = self._call("batch_get_item", RequestItems=request)
                found += response.get("Responses", {}).get(self.table_name, [])
                request = response.get("UnprocessedKeys") or {}
        return found
