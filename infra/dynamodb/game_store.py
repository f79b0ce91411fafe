"""The game store on DynamoDB: one table, conditional writes on ``version``.

- ``load`` returns the META item with its ``version``.
- ``save`` writes META conditional on the version read (plus any EVENT/OUTBOX items,
  in one transaction when there are any).
- ``commit_turn`` writes META + PHASE + EVENTs + OUTBOX in one TransactWriteItems.
- A failed condition becomes ``StaleVersion``; a missing game ``ItemNotFound``.
  ``ClientError`` never leaves this module.

Metering (consumed capacity per route) is the benchmark's business: bench/capacity.py
hooks the boto3 client from outside, so this adapter carries no benchmark code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from functions.ports import (
    AlreadyExists,
    EventRecord,
    GameRecord,
    ItemNotFound,
    OutboxRecord,
    PhaseRecord,
    StaleVersion,
    StorageError,
)
from infra import aws_errors
from infra.dynamodb import items, keys
from infra.dynamodb.table import TableAdapter
from infra.errors import is_conditional_failure


class DynamoGameStore(TableAdapter):
    """``functions.ports.GameStore`` over the single DynamoDB game table."""

    CONDITIONAL = frozenset({"put_item", "transact_write_items"})  # a lost race: StaleVersion

    # --- reads ---------------------------------------------------------------------------

    def load(self, game_id: str) -> GameRecord:
        response = self._call(
            "get_item",
            TableName=self.table_name,
            Key=items.to_item({"pk": keys.game_pk(game_id), "sk": keys.META}),
            ConsistentRead=True,
        )
        item = response.get("Item")
        if item is None:
            raise ItemNotFound(game_id)
        return items.game_from_item(item)

    def list_games(self, limit: int = 50) -> list[GameRecord]:
        """Listing records, newest first (``items.listing_from_item``: no state, no secrets)."""
        response = self._call(
            "query",
            TableName=self.table_name,
            IndexName=keys.LIST_INDEX,
            KeyConditionExpression="#k = :k",
            ExpressionAttributeNames={"#k": "kind"},
            ExpressionAttributeValues=items.to_item({":k": keys.GAME_KIND}),
            ScanIndexForward=False,
            Limit=limit,
        )
        return [items.listing_from_item(i) for i in response.get("Items", [])]

    def due_games(self, now_iso: str, limit: int = 1000) -> list[tuple[str, str, str]]:
        """(game id, phase, deadline) of every game whose deadline is at or before ``now_iso``,
        from the sparse ``by_due`` index, bucket by bucket (eventually consistent: the
        sweeper re-reads each game before acting)."""
        found: list[tuple[str, str, str]] = []
        for bucket in keys.due_buckets():
            kwargs: dict[str, Any] = dict(
                TableName=self.table_name, IndexName=keys.DUE_INDEX,
                KeyConditionExpression="due_bucket = :b AND due_at <= :now",
                ExpressionAttributeValues=items.to_item({":b": bucket, ":now": now_iso}),
            )
            while len(found) < limit:
                response = self._call("query", **kwargs)
                for item in response.get("Items", []):
                    attrs = items.from_item(item)
                    found.append((attrs["game_id"], attrs["phase"], attrs["due_at"]))
                if "LastEvaluatedKey" not in response:
                    break
                kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]
        return found[:limit]

    def phases(self, game_id: str, *, after: int = -1, limit: int | None = None) -> list[PhaseRecord]:
        """One page of PHASE items: their sort keys are zero-padded ``n``, so ``n > after`` is a
        key range and ``limit`` a query Limit (issue 11: history is read page by page)."""
        if after < 0 and limit is None:
            return [items.phase_from_item(i) for i in self._query_prefix(game_id, keys.PHASE_PREFIX)]
        kwargs: dict[str, Any] = dict(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :lo AND :hi",
            ExpressionAttributeValues=items.to_item({
                ":pk": keys.game_pk(game_id),
                ":lo": keys.phase_sk(after + 1, ""),
                ":hi": keys.PHASE_PREFIX + "9" * 6 + "#~",
            }),
            ConsistentRead=True,
        )
        found: list[dict[str, Any]] = []
        while limit is None or len(found) < limit:
            if limit is not None:
                kwargs["Limit"] = limit - len(found)
            response = self._call("query", **kwargs)
            found.extend(response.get("Items", []))
            if not response.get("LastEvaluatedKey"):
                break
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]
        return [items.phase_from_item(i) for i in found]

    def last_phase(self, game_id: str) -> PhaseRecord | None:
        found = self._query_prefix(game_id, keys.PHASE_PREFIX, forward=False, limit=1)
        return items.phase_from_item(found[0]) if found else None

    def events_after(self, game_id: str, after: int, limit: int = 100) -> list[EventRecord]:
        response = self._call(
            "query",
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :lo AND :hi",
            ExpressionAttributeValues=items.to_item(
                {
                    ":pk": keys.game_pk(game_id),
                    ":lo": keys.event_sk(after + 1),
                    ":hi": keys.EVENT_PREFIX + "9" * 10,
                }
            ),
            ConsistentRead=True,
            Limit=limit,
        )
        return [items.event_from_item(i) for i in response.get("Items", [])]

    def outbox(self, game_id: str) -> list[OutboxRecord]:
        return [items.outbox_from_item(i) for i in self._query_prefix(game_id, keys.OUTBOX_PREFIX)]

    def _query_prefix(
        self, game_id: str, prefix: str, *, forward: bool = True, limit: int | None = None
    ) -> list[dict[str, Any]]:
        kwargs: dict[str, Any] = dict(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :p)",
            ExpressionAttributeValues=items.to_item({":pk": keys.game_pk(game_id), ":p": prefix}),
            ScanIndexForward=forward,
            ConsistentRead=True,
        )
        if limit is not None:
            kwargs["Limit"] = limit
        found: list[dict[str, Any]] = []
        while True:
            response = self._call("query", **kwargs)
            found.extend(response.get("Items", []))
            last = response.get("LastEvaluatedKey")
            if not last or (limit is not None and len(found) >= limit):
                return found
            kwargs["ExclusiveStartKey"] = last

    # --- writes --------------------------------------------------------------------------

    def create(
        self, game: GameRecord, events: Sequence[EventRecord] = (), outbox: Sequence[OutboxRecord] = ()
    ) -> GameRecord:
        stored = replace(game, version=1)
        meta = {
            "Put": {
                "TableName": self.table_name,
                "Item": items.game_item(stored),
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
        try:
            self._transact([meta, *self._appends(game.game_id, events, outbox)])
        except StaleVersion as exc:
            raise AlreadyExists(f"game {game.game_id} already exists") from exc
        return stored

    def save(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        stored = replace(game, version=expected_version + 1)
        meta = self._conditional_meta(stored, expected_version)
        self._transact([meta, *self._appends(game.game_id, events, outbox)])
        return stored

    def commit_turn(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        phase: PhaseRecord,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        stored = replace(game, version=expected_version + 1)
        phase_put = {
            "Put": {
                "TableName": self.table_name,
                "Item": items.phase_item(game.game_id, phase),
                "ConditionExpression": "attribute_not_exists(sk)",
            }
        }
        actions = [self._conditional_meta(stored, expected_version), phase_put]
        self._transact([*actions, *self._appends(game.game_id, events, outbox)])
        return stored

    def _conditional_meta(self, stored: GameRecord, expected_version: int) -> dict[str, Any]:
        return {
            "Put": {
                "TableName": self.table_name,
                "Item": items.game_item(stored),
                "ConditionExpression": "#v = :v",
                "ExpressionAttributeNames": {"#v": "version"},
                "ExpressionAttributeValues": items.to_item({":v": expected_version}),
            }
        }

    def _appends(
        self, game_id: str, events: Sequence[EventRecord], outbox: Sequence[OutboxRecord]
    ) -> list[dict[str, Any]]:
        puts = [items.event_item(game_id, e) for e in events]
        puts += [items.outbox_item(o) for o in outbox]
        return [
            {
                "Put": {
                    "TableName": self.table_name,
                    "Item": item,
                    "ConditionExpression": "attribute_not_exists(sk)",
                }
            }
            for item in puts
        ]

    def _transact(self, actions: list[dict[str, Any]]) -> None:
        game_id = actions[0]["Put"]["Item"]["game_id"]["S"]
        expected = -1
        if len(actions) == 1:
            put = dict(actions[0]["Put"])
            try:
                self._call("put_item", **put)
            except aws_errors.ClientError as exc:
                if is_conditional_failure(exc):
                    raise StaleVersion(game_id, expected) from exc
                raise StorageError(str(exc)) from exc
            return
        try:
            self._call("transact_write_items", TransactItems=actions)
        except aws_errors.ClientError as exc:
            if is_conditional_failure(exc):
                raise StaleVersion(game_id, expected) from exc
            raise StorageError(str(exc)) from exc
