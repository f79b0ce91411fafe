"""A page visit on the live socket, end to end on the connections table (issue 29, the bill):
one invocation and one write to follow a game, nothing when the socket closes, one delete when
the next frame finds it gone; identity rides in the subscribe frame, a bad ID token is refused
before anything is written, and the table keeps only a token's hash.

The live function's handler, the notifier's ``publish`` and the DynamoDB adapter are the real
ones (moto, the table from template.yaml); every call on the table is recorded from botocore's
events, so a call added on any path shows here.
"""

from __future__ import annotations

import json
import time
from typing import Any

import boto3
import pytest

from functions.live.handler import make_handler
from functions.ports import IdentityRejected
from functions.ports.notifications import OutboxMessage
from functions.ports.reach import ConnectionGone
from functions.usecases.accounts.accounts import User
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import hash_token
from functions.usecases.reach.live_updates import CONNECTION_SECONDS, publish
from functions.usecases.seats import join_game
from infra.live_connections import DynamoConnectionStore
from local_stack.live_socket import message_event
from testkit.fakes import FakeClock, InMemoryGameStore, InMemoryPressStore

ID_TOKEN = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1LWZyYW5jZSJ9.c2lnbmVk"  # verifies as u-france
FORGED = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1LWZyYW5jZSJ9.Zm9yZ2Vk"


class Verifier:
    def verify(self, token: str) -> dict[str, Any]:
        if token == ID_TOKEN:
            return {"sub": "u-france", "token_use": "id"}
        raise IdentityRejected("TOKEN_INVALID_SIGNATURE", "the ID token's signature does not verify")


class Sockets:
    """API Gateway's Management API over the sockets that are open: 410 for any other."""

    def __init__(self) -> None:
        self.open: set[str] = set()
        self.frames: list[tuple[str, bytes]] = []

    def post(self, connection_id: str, data: bytes) -> None:
        if connection_id not in self.open:
            raise ConnectionGone(connection_id)
        self.frames.append((connection_id, data))


class Deps:
    def __init__(self, table: str) -> None:
        self.client = boto3.client("dynamodb", region_name="us-east-1")
        self.calls: list[str] = []  # every call on the table, by operation
        self.client.meta.events.register(
            "provide-client-params.dynamodb", lambda params, model, **_: self.calls.append(model.name))
        self.table = table
        self.connections = DynamoConnectionStore(table, client=self.client)
        self.store, self.press, clock = InMemoryGameStore(), InMemoryPressStore(), FakeClock()
        self.verifier, self.operator_token = Verifier(), None
        self.game = create_game(self.store, clock, CreateGame(variant="classical")).game_id
        self.france = join_game(self.store, clock, self.game, "FRANCE", owner=User("u-france", "Ada")).token
        self.italy = join_game(self.store, clock, self.game, "ITALY").token

    def items(self) -> list[dict[str, Any]]:
        return list(boto3.client("dynamodb", region_name="us-east-1").scan(TableName=self.table)["Items"])


@pytest.fixture()
def deps(aws: dict[str, str]) -> Deps:
    return Deps(aws["CONNECTIONS_TABLE"])


def _subscribe(deps: Deps, connection_id: str, token: str | None, connected_at: float) -> dict[str, Any]:
    frame = {"action": "subscribe", "game_id": deps.game, **({"token": token} if token else {})}
    event = message_event(connection_id, json.dumps(frame), "subscribe", connected_at)
    answer = make_handler(lambda: deps)(event, None)
    return {"status": answer["statusCode"], **json.loads(answer["body"])}


def _event(deps: Deps, n: int) -> OutboxMessage:
    return OutboxMessage(f"{deps.game}:joined:{n}", "PLAYER_JOINED", deps.game, {"power": "ITALY"})


def test_a_visit_writes_once_to_follow_and_once_more_when_the_next_frame_finds_it_closed(
    deps: Deps,
) -> None:
    sockets, now = Sockets(), time.time()
    # Given a page opened its socket (nothing invoked, nothing written) and subscribed
    sockets.open.add("visit=")
    answer = _subscribe(deps, "visit=", deps.france, connected_at=now)
    assert answer["status"] == 200 and answer["type"] == "subscribed" and answer["view"]["power"] == "FRANCE"
    assert deps.calls == ["PutItem"]
    # When a game event is published while the page is open: a frame, and no write
    deps.calls.clear()
    assert publish(_event(deps, 1), store=deps.store, press=deps.press, connections=deps.connections,
                   poster=sockets, now=now).sent == 1
    assert deps.calls == ["Query"] and [c for c, _ in sockets.frames] == ["visit="]
    # When the page closes its socket (no $disconnect route: nothing runs) and the next event comes
    sockets.open.clear()
    deps.calls.clear()
    posted = publish(_event(deps, 2), store=deps.store, press=deps.press, connections=deps.connections,
                     poster=sockets, now=now)
    # Then its post met 410 and the subscription went with one delete
    assert posted.gone == 1 and deps.calls == ["Query", "DeleteItem"]
    assert deps.items() == [] and deps.connections.of_game(deps.game, now) == []


def test_a_bad_id_token_in_the_frame_gets_its_401_error_frame_and_nothing_is_written(deps: Deps) -> None:
    answer = _subscribe(deps, "forged=", FORGED, connected_at=time.time())
    assert answer == {"status": 401, "type": "error", "code": "TOKEN_INVALID_SIGNATURE",
                      "message": "the ID token's signature does not verify"}
    assert deps.calls == [] and deps.items() == []


def test_a_token_of_no_seat_here_is_refused_and_nothing_is_written(deps: Deps) -> None:
    answer = _subscribe(deps, "stranger=", "a token of some other game", connected_at=time.time())
    assert (answer["status"], answer["code"]) == (401, "NOT_A_PLAYER")
    assert deps.calls == [] and deps.items() == []


def test_the_stored_item_holds_the_tokens_hash_or_the_account_never_the_token(
    deps: Deps, capsys: pytest.CaptureFixture[str],
) -> None:
    connected_at = 1_800_000_000.123
    assert _subscribe(deps, "seat=", deps.italy, connected_at)["view"]["power"] == "ITALY"
    assert _subscribe(deps, "account=", ID_TOKEN, connected_at)["view"]["power"] == "FRANCE"
    assert _subscribe(deps, "observer=", None, connected_at)["view"]["power"] is None
    found = {i["sk"]["S"]: {k: next(iter(v.values())) for k, v in i.items()} for i in deps.items()}
    expires = str(int(connected_at) + CONNECTION_SECONDS)  # the connection's end, not the subscribe's time
    pk = f"GAME#{deps.game}"
    assert found == {
        "CONN#seat=": {"pk": pk, "sk": "CONN#seat=", "connection_id": "seat=", "expires_at": expires,
                       "token_hash": hash_token(deps.italy)},
        "CONN#account=": {"pk": pk, "sk": "CONN#account=", "connection_id": "account=", "expires_at": expires,
                          "user_id": "u-france"},
        "CONN#observer=": {"pk": pk, "sk": "CONN#observer=", "connection_id": "observer=",
                           "expires_at": expires},
    }
    logged = capsys.readouterr()
    for token in (deps.italy, ID_TOKEN):
        assert token not in json.dumps(found) and token not in logged.out + logged.err
