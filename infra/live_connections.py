"""The WebSocket API's adapters (issue 33): its connections table, and posting to a connection
through API Gateway's Management API.

Connections table (template.yaml ``ConnectionsTable``; TTL on ``expires_at``), one item per
subscription and nothing else (issue 29: one write a page visit):

| pk | sk | item |
|---|---|---|
| ``GAME#<game id>`` | ``CONN#<connection id>`` | who (``user_id``, or ``token_hash``), ``expires_at`` |

A game's connections are one ``Query`` on ``GAME#<game id>``. There is no ``$connect`` or
``$disconnect`` route, so nothing is written when a socket opens or closes: ``subscribe`` puts
the item, its ``expires_at`` is the connection's ``connectedAt`` plus API Gateway's 2-hour
limit and a margin (the TTL, which is free, removes it once the connection cannot exist any
more), and a closed connection is forgotten lazily, by one ``DeleteItem``, when a post to it
answers 410. TTL deletion can lag, so reads skip items past ``expires_at``. The token a
connection subscribed with is never stored, only its SHA-256.

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


def _key(game_id: str, connection_id: str) -> dict[str, Any]:
    return {"pk": f"GAME#{game_id}", "sk": f"CONN#{connection_id}"}


def _fields(connection: Connection) -> dict[str, Any]:
    found: dict[str, Any] = {"connection_id": connection.connection_id, "expires_at": connection.expires_at}
    if connection.user_id:
        found["user_id"] = connection.user_id
    if connection.token_hash:
        found["token_hash"] = connection.token_hash
    return found


def _connection(attrs: dict[str, Any], game_id: str) -> Connection:
    return Connection(str(attrs["connection_id"]), attrs.get("user_id"), attrs.get("token_hash"),
                      game_id, int(attrs.get("expires_at", 0)))


class DynamoConnectionStore(TableAdapter):
    """``ConnectionStore`` over the connections table: a subscribe is one ``PutItem``, a forget
    one ``DeleteItem``, a game's subscriptions one ``Query`` (paged)."""

    def subscribe(self, connection: Connection, game_id: str) -> None:
        self._call("put_item", TableName=self.table_name,
                   Item=items.to_item({**_key(game_id, connection.connection_id), **_fields(connection)}))

    def forget(self, game_id: str, connection_id: str) -> None:
        self._call("delete_item", TableName=self.table_name, Key=items.to_item(_key(game_id, connection_id)))

    def of_game(self, game_id: str, now: float) -> list[Connection]:
        found: list[Connection] = []
        start: dict[str, Any] | None = None
        while True:
            extra = {"ExclusiveStartKey": start} if start else {}
            answer = self._call(
                "query", TableName=self.table_name, KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues=items.to_item({":pk": f"GAME#{game_id}"}), **extra)
            found += [_connection(items.from_item(i), game_id) for i in answer.get("Items", [])]
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
