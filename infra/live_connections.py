"""The WebSocket API's adapters (issue 33): its connections table, and posting to a connection
through API Gateway's Management API.

Connections table (template.yaml ``ConnectionsTable``; TTL on ``expires_at``):

| pk | sk | item |
|---|---|---|
| ``CONN#<connection id>`` | ``CONN`` | who opened it (``user_id``, or ``token_hash``), the game it follows |
| ``GAME#<game id>`` | ``CONN#<connection id>`` | the subscription: the same fields, read by the fan-out |

A game's connections are one ``Query`` on ``GAME#<game id>``. API Gateway drops a connection
after 2 hours; ``$disconnect`` deletes both items, and the TTL removes those whose
``$disconnect`` never ran (TTL deletion can lag, so reads skip items past ``expires_at``).
The token a connection opened with is never stored, only its SHA-256.

``ApiGatewayPoster`` posts with ``PostToConnection`` on the Management API endpoint
(``https://<api id>.execute-api.<region>.amazonaws.com/<stage>``; the local stack points it at
its emulator); a ``GoneException`` (410) becomes ``ConnectionGone``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from functions.ports.reach import Connection, ConnectionGone
from infra.dynamodb import items
from infra.dynamodb.table import TableAdapter


def _conn_key(connection_id: str) -> dict[str, Any]:
    return items.to_item({"pk": f"CONN#{connection_id}", "sk": "CONN"})


def _fields(connection: Connection) -> dict[str, Any]:
    found: dict[str, Any] = {"connection_id": connection.connection_id, "expires_at": connection.expires_at}
    if connection.user_id:
        found["user_id"] = connection.user_id
    if connection.token_hash:
        found["token_hash"] = connection.token_hash
    if connection.game_id:
        found["game_id"] = connection.game_id
    return found


def _connection(attrs: dict[str, Any]) -> Connection:
    return Connection(str(attrs["connection_id"]), attrs.get("user_id"), attrs.get("token_hash"),
                      attrs.get("game_id"), int(attrs.get("expires_at", 0)))


class DynamoConnectionStore(TableAdapter):
    """``ConnectionStore`` over the connections table."""

    def open(self, connection: Connection) -> None:
        self._call("put_item", TableName=self.table_name,
                   Item=items.to_item({"pk": f"CONN#{connection.connection_id}", "sk": "CONN",
                                       **_fields(connection)}))

    def get(self, connection_id: str) -> Connection | None:
        answer = self._call("get_item", TableName=self.table_name, Key=_conn_key(connection_id),
                            ConsistentRead=True)
        return _connection(items.from_item(answer["Item"])) if "Item" in answer else None

    def subscribe(self, connection: Connection, game_id: str) -> Connection:
        if connection.game_id and connection.game_id != game_id:
            self._call("delete_item", TableName=self.table_name,
                       Key=items.to_item({"pk": f"GAME#{connection.game_id}",
                                          "sk": f"CONN#{connection.connection_id}"}))
        following = connection._replace(game_id=game_id)
        self.open(following)
        self._call("put_item", TableName=self.table_name,
                   Item=items.to_item({"pk": f"GAME#{game_id}", "sk": f"CONN#{connection.connection_id}",
                                       **_fields(following)}))
        return following

    def close(self, connection_id: str) -> None:
        known = self.get(connection_id)
        if known is not None and known.game_id:
            self._call("delete_item", TableName=self.table_name,
                       Key=items.to_item({"pk": f"GAME#{known.game_id}", "sk": f"CONN#{connection_id}"}))
        self._call("delete_item", TableName=self.table_name, Key=_conn_key(connection_id))

    def of_game(self, game_id: str, now: float) -> list[Connection]:
        found: list[Connection] = []
        start: dict[str, Any] | None = None
        while True:
            extra = {"ExclusiveStartKey": start} if start else {}
            answer = self._call(
                "query", TableName=self.table_name, KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues=items.to_item({":pk": f"GAME#{game_id}"}), **extra)
            found += [_connection(items.from_item(i)) for i in answer.get("Items", [])]
            start = answer.get("LastEvaluatedKey")
            if not start:
                break
        return sorted((c for c in found if c.expires_at > now), key=lambda c: c.connection_id)


class ApiGatewayPoster:
    """``LivePoster`` over ``apigatewaymanagementapi`` (built lazily by ``client``)."""

    def __init__(self, client: Callable[[], Any]) -> None:
        self._client = client

    def post(self, connection_id: str, data: bytes) -> None:
        from infra import aws_errors

        try:
            self._client().post_to_connection(ConnectionId=connection_id, Data=data)
        except aws_errors.ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in ("GoneException", "410"):
                raise ConnectionGone(connection_id) from None
            raise
