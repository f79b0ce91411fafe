"""The game store on DynamoDB: one table, conditional writes on ``version``.

- ``load`` is one ``Query``: META and the powers' own items (infra/dynamodb/keys.py), folded
  into one record (``functions.ports.apply_turns``); ``load_with_press`` reads the powers'
  press ledgers in the same query, for a player's view.
- ``save`` writes META conditional on the version read, the powers' items whose decisions it
  changed (each conditional on its own version), and any EVENT/OUTBOX items, in one
  transaction when there is more than one item.
- ``save_turn`` writes one power's own item and its EVENTs, never META: an order, a wait flag
  or a vote costs a few hundred bytes, not the whole game.
- ``commit_turn`` writes META + PHASE + EVENTs + OUTBOX in one TransactWriteItems.
- A failed condition becomes ``StaleVersion``; a missing game ``ItemNotFound``.
  ``ClientError`` never leaves this module.

Why a small write cannot slip past a turn (the phase pin). Every EVENT item is put only if
its key is free, and each writer numbers its events from the highest event number it read
(META's and the powers' items'). So of two writers that read the same game, the first to
commit takes the next number and the other's write fails as a whole, whatever items each
touched: an order stored after ``process_turn`` read the game makes its commit fail (it
reloads and adjudicates the order), and an order whose read preceded a committed turn fails
and finds the phase moved on (``STALE_PHASE``). A power's item carries its ``phase``: an
order for an earlier phase is never read as one for the current phase. Two writes of one
power's item are ordered by the item's ``version``.

Metering (consumed capacity per route) is the benchmark's business: bench/capacity.py
hooks the boto3 client from outside, so this adapter carries no benchmark code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from functions.ports import (
    UNSTARTED_GAME_DAYS,
    AlreadyExists,
    EventRecord,
    GameRecord,
    ItemNotFound,
    OutboxRecord,
    PhaseRecord,
    PowerPress,
    PowerTurn,
    StaleVersion,
    StorageError,
    apply_turns,
    changed_turns,
    turn_of,
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
        """META and the powers' items: one strongly consistent query."""
        return self._head(game_id, keys.HEAD_END)[0]

    def load_with_press(self, game_id: str) -> tuple[GameRecord, dict[str, PowerPress] | None]:
        """The game and every power's press ledger, one query (a game of layout 1 keeps its
        ledgers at their old keys: one more read, for that game only)."""
        game, found = self._head(game_id, keys.VIEW_END)
        ledgers = {p: items.ledger_from_attrs(p, raw) for p, raw in found.items()}
        if game.layout < keys.LAYOUT:
            ledgers.update(self._legacy_ledgers(game_id, sorted(set(game.players) - set(ledgers))))
        return game, ledgers

    def _head(self, game_id: str, end: str) -> tuple[GameRecord, dict[str, dict[str, Any]]]:
        """META folded with its powers' items, and the ledgers' attributes found in the range."""
        kwargs: dict[str, Any] = dict(
            TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :lo AND :hi",
            ExpressionAttributeValues=items.to_item({":pk": keys.game_pk(game_id), ":lo": keys.META,
                                                     ":hi": end}),
            ConsistentRead=True,
        )
        meta: dict[str, Any] | None = None
        turns: list[PowerTurn] = []
        ledgers: dict[str, dict[str, Any]] = {}
        while True:
            response = self._call("query", **kwargs)
            for item in response.get("Items", []):
                sort_key = item["sk"]["S"]
                if sort_key == keys.META:
                    meta = item
                elif sort_key.startswith(keys.POWER_PREFIX):
                    turns.append(items.turn_from_item(item))
                elif sort_key.startswith(keys.LEDGER_PREFIX):
                    ledgers[sort_key[len(keys.LEDGER_PREFIX):]] = items.from_item(item)
            if "LastEvaluatedKey" not in response:
                break
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]
        if meta is None:
            raise ItemNotFound(game_id)
        return apply_turns(items.game_from_item(meta), turns), ledgers

    def _legacy_ledgers(self, game_id: str, powers: list[str]) -> dict[str, PowerPress]:
        if not powers:
            return {}
        wanted = [items.to_item({"pk": keys.game_pk(game_id), "sk": keys.LEGACY_LEDGER_PREFIX + p})
                  for p in powers]
        found: dict[str, PowerPress] = {}
        for raw in map(items.from_item, self._get_many(wanted)):
            power = str(raw["sk"])[len(keys.LEGACY_LEDGER_PREFIX):]
            found[power] = items.ledger_from_attrs(power, raw)
        return found

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

    def delete_game(self, game_id: str) -> int:
        """Every item left under the game's key (its META expired: DynamoDB's TTL took it), in
        batches of 25: keys only are read. What an account's index points at is left: /me/games
        skips a game that is gone."""
        kwargs: dict[str, Any] = dict(
            TableName=self.table_name, KeyConditionExpression="pk = :pk", ProjectionExpression="pk, sk",
            ExpressionAttributeValues=items.to_item({":pk": keys.game_pk(game_id)}),
        )
        deleted = 0
        while True:
            response = self._call("query", **kwargs)
            found = response.get("Items", [])
            for start in range(0, len(found), 25):
                request: dict[str, Any] = {self.table_name: [{"DeleteRequest": {"Key": key}}
                                                             for key in found[start:start + 25]]}
                while request:
                    answer = self._call("batch_write_item", RequestItems=request)
                    request = answer.get("UnprocessedItems") or {}
            deleted += len(found)
            if "LastEvaluatedKey" not in response:
                return deleted
            kwargs["ExclusiveStartKey"] = response["LastEvaluatedKey"]

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
        stored = replace(game, version=1, layout=keys.LAYOUT, expires_at=_forming_expiry(game))
        meta = {
            "Put": {
                "TableName": self.table_name,
                "Item": items.game_item(stored),
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
        turns = changed_turns(stored)
        try:
            self._transact([meta, *self._turn_puts(game.game_id, turns),
                            *self._appends(game.game_id, events, outbox)])
        except StaleVersion as exc:
            raise AlreadyExists(f"game {game.game_id} already exists") from exc
        return _written(stored, turns)

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
        turns = changed_turns(stored)
        self._transact([meta, *self._turn_puts(game.game_id, turns),
                        *self._appends(game.game_id, events, outbox)])
        return _written(stored, turns)

    def save_turn(self, game: GameRecord, power: str, *, events: Sequence[EventRecord] = ()) -> GameRecord:
        """The power's own item and ``events``, not META (the module text says why this is safe)."""
        turn = turn_of(game, power)
        self._transact([*self._turn_puts(game.game_id, [turn]), *self._appends(game.game_id, events, ())])
        return _written(replace(game), [turn])

    def _turn_puts(self, game_id: str, turns: Sequence[PowerTurn]) -> list[dict[str, Any]]:
        """Each item conditional on the version it was read at (absent if 0), bumped by one."""
        puts: list[dict[str, Any]] = []
        for turn in turns:
            put: dict[str, Any] = {
                "TableName": self.table_name,
                "Item": items.turn_item(game_id, turn._replace(version=turn.version + 1)),
                "ConditionExpression": "attribute_not_exists(sk)",
            }
            if turn.version:
                put.update(ConditionExpression="#v = :v", ExpressionAttributeNames={"#v": "version"},
                           ExpressionAttributeValues=items.to_item({":v": turn.version}))
            puts.append({"Put": put})
        return puts

    def commit_turn(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        phases: Sequence[PhaseRecord] = (),
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        stored = replace(game, version=expected_version + 1)
        phase_puts = [{
            "Put": {
                "TableName": self.table_name,
                "Item": items.phase_item(game.game_id, phase),
                "ConditionExpression": "attribute_not_exists(sk)",
            }
        } for phase in phases]
        turns = changed_turns(stored)
        actions = [self._conditional_meta(stored, expected_version), *phase_puts,
                   *self._turn_puts(game.game_id, turns), *self._appends(game.game_id, events, outbox)]
        self._transact(actions)
        return _written(stored, turns)

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
        if not actions:
            return
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


def _forming_expiry(game: GameRecord) -> int | None:
    """A game created with seats to fill expires UNSTARTED_GAME_DAYS later unless it starts."""
    if game.started_at is not None:
        return None
    try:
        created = datetime.fromisoformat(game.created_at.replace("Z", "+00:00"))
    except ValueError:  # no creation time to count from: never expire rather than guess
        return None
    return int(created.timestamp()) + UNSTARTED_GAME_DAYS * 86400


def _written(game: GameRecord, turns: Sequence[PowerTurn]) -> GameRecord:
    """``game`` as stored: the powers' items it wrote are at their new versions."""
    game.turns = {**game.turns, **{t.power: t._replace(version=t.version + 1) for t in turns}}
    return game
