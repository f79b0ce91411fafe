"""Live updates over the WebSocket API (issue 33 item 1): subscribe to a game, and the frames
the notifier posts to a game's connections for each of its outbox messages.

Who a subscriber is: the socket opens with no subprotocol and nothing the server checks (the
API has no ``$connect`` route, so opening costs no invocation and no write: issue 29), and the
client's first frame carries its bearer token: ``{"action": "subscribe", "game_id", "token"}``
(a browser cannot set ``Authorization`` on a socket, a token in the URL or in
``Sec-WebSocket-Protocol`` would sit in access logs; the frame's body is in none: the stage's
access-log format names no body and its data trace stays off). An ID token is verified in full
and the subscription remembers the account (``user_id``); a bad one is refused with its 401
code and nothing is written. Any other token is a seat, creator or operator token of some game
and the subscription remembers only its SHA-256; no token at all is an observer. The token
itself is never stored or logged.

What is stored: one item per (game, connection), written by ``subscribe``, with the identity
and ``expires_at`` = the connection's ``connectedAt`` + ``CONNECTION_SECONDS`` (after API
Gateway's 2-hour limit, when the TTL may drop it). There is no ``$disconnect`` route either: a
closed connection is forgotten lazily, when a post to it answers 410 (``post_frames``), or by
the TTL if no frame comes. A connection that subscribes to a second game follows both until it
closes (a bot may watch several games on one socket; the web client opens one socket per game
and closes it when the page leaves the game).

What a connection gets: ``subscribe`` answers the game's view, and from then on every outbox
message of that game is turned into one frame per connection *for that connection's actor,
resolved against the game as it is when the frame is built* (a seat that changed hands since
the connection subscribed is no longer shown to it):

- a message of the game (phase processed, a submission, a join, ...): ``{"type": "view",
  "kind", "game_id", "view"}`` where ``view`` is ``player_view.view_for`` — the same function
  ``GET /games/{id}`` answers with, so a socket sees exactly what the same caller's REST view
  shows: its own pending orders, of the others only whether they submitted;
- press (``MESSAGE``): ``{"type": "message", "game_id", "message", "unread"}`` only to members
  of the channel (everyone for ``ALL``), the message as ``GET /games/{id}/messages`` shows it.
  The outbox item never holds private text: it is read from the press store here.

Frames are a hint, not the record: a frame lost with its connection is made good by the
view ``subscribe`` answers on reconnect, and a client that sees nothing polls (docs/web.md).
So a post is not logged for exactly-once delivery; a closed connection (410) is forgotten.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any, NamedTuple

from functions.errors import AuthRejected, GameNotFound, NotAPlayer
from functions.ports import GameRecord, GameStore, IdentityRejected, PressStore
from functions.ports.accounts import TokenVerifier
from functions.ports.notifications import OutboxMessage
from functions.ports.reach import Connection, ConnectionGone, ConnectionStore, LivePoster
from functions.usecases.accounts import User, actor_of
from functions.usecases.game import load
from functions.usecases.kinds import view_for
from functions.usecases.players import ANONYMOUS, Actor, hash_token, identify_digest
from functions.usecases.press import MESSAGE, PUBLIC, has_press, message_view, unread_total

_log = logging.getLogger(__name__)

# API Gateway closes a WebSocket connection 2 hours after it opened; a subscription kept a little
# longer is harmless (a post to it answers 410 and forgets it), one dropped early would go silent.
CONNECTION_SECONDS = 2 * 3600 + 600
# Kinds that concern one chat or the game's own targets only: no frame.
NOT_LIVE = frozenset({"CHAT_REPLY", "CHAT_PHOTO", "NOTIFY_TARGET_PARKED"})


def looks_like_jwt(token: str) -> bool:
    """An ID token (the API's own rule: functions/api/identity.py ``looks_like_jwt``)."""
    return token.count(".") == 2 and token.startswith("eyJ")


# --- subscribe ------------------------------------------------------------------------------


def identify(verifier: TokenVerifier, connection_id: str, token: str | None,
             connected_at: float) -> Connection:
    """Who the subscribe frame's ``token`` is, as a subscription to store (its game not yet set):
    an ID token that does not verify is refused (401); any other token is kept as its hash only.
    ``connected_at`` (epoch seconds, the event's ``connectedAt``) dates the TTL."""
    user_id = token_hash = None
    if token and looks_like_jwt(token):
        try:
            user_id = str(verifier.verify(token)["sub"])
        except IdentityRejected as error:
            raise AuthRejected(error.code, error.message) from None
    elif token:
        token_hash = hash_token(token)
    return Connection(connection_id, user_id, token_hash, None, int(connected_at) + CONNECTION_SECONDS)


def subscribe(
    connections: ConnectionStore, store: GameStore, press: PressStore, connection: Connection,
    game_id: str, operator_token: str | None = None,
) -> dict[str, Any]:
    """Follow ``game_id`` (one write): the answer is the game's view for this subscriber (a
    reconnecting client catches up with it). A token that is not one of this game's:
    ``NOT_A_PLAYER``, and nothing is written."""
    game = load(store, game_id)
    actor = connection_actor(game, connection, operator_token)
    connections.subscribe(connection, game_id)
    return {"type": "subscribed", "game_id": game_id, "view": view_for(game, actor, press)}


def connection_actor(game: GameRecord, connection: Connection, operator_token: str | None = None) -> Actor:
    """Who the connection is in ``game`` now (the API's rules: an account's seat, a token's seat)."""
    if connection.user_id:
        return actor_of(game, User(connection.user_id, ""))
    if connection.token_hash:
        operator = hash_token(operator_token) if operator_token else None
        return identify_digest(game, connection.token_hash, operator)
    return ANONYMOUS


# --- the frames of one outbox message ---------------------------------------------------------


class Frame(NamedTuple):
    connection_id: str
    data: bytes


def is_live(message: OutboxMessage) -> bool:
    """Whether ``message`` makes frames: a game's own notices, not a chat's or a target's."""
    return bool(message.game_id) and message.target is None and message.kind not in NOT_LIVE


def frames_for(
    message: OutboxMessage, store: GameStore, press: PressStore, subscribed: Sequence[Connection],
    operator_token: str | None = None,
) -> list[Frame]:
    """One frame per connection that may see something of ``message`` (one game read, and for
    press one read of the message)."""
    if not subscribed or not is_live(message):
        return []
    try:
        game = load(store, str(message.game_id))
    except GameNotFound:
        return []
    if message.kind == MESSAGE:
        return _press_frames(message, game, press, subscribed, operator_token)
    frames = []
    for connection in subscribed:
        actor = _actor_or_none(game, connection, operator_token)
        if actor is not None:
            body = {"type": "view", "kind": message.kind, "game_id": game.game_id,
                    "view": view_for(game, actor, press)}
            frames.append(Frame(connection.connection_id, _encode(body)))
    return frames


def _press_frames(
    message: OutboxMessage, game: GameRecord, press: PressStore, subscribed: Sequence[Connection],
    operator_token: str | None,
) -> list[Frame]:
    channel, seq = str(message.payload.get("channel", "")), int(message.payload.get("seq", 0))
    found = press.channel_messages(game.game_id, channel, seq - 1, 1) if has_press(game) and seq else []
    if not found or found[0].seq != seq:
        return []
    record = found[0]
    frames = []
    for connection in subscribed:
        actor = _actor_or_none(game, connection, operator_token)
        reader = actor.power if actor is not None and actor.kind == "player" else None
        if actor is None or (record.channel != PUBLIC and reader not in record.members):
            continue
        body = {"type": "message", "game_id": game.game_id, "message": message_view(game, record, seq),
                "unread": unread_total(press, game, actor)}
        frames.append(Frame(connection.connection_id, _encode(body)))
    return frames


def _actor_or_none(game: GameRecord, connection: Connection, operator_token: str | None) -> Actor | None:
    try:
        return connection_actor(game, connection, operator_token)
    except NotAPlayer:  # the token no longer opens a seat here (the seat was reissued)
        return None


def _encode(body: dict[str, Any]) -> bytes:
    return json.dumps(body, separators=(",", ":"), sort_keys=True).encode()


class Posted(NamedTuple):
    sent: int = 0
    gone: int = 0
    failed: int = 0


def post_frames(frames: Sequence[Frame], poster: LivePoster, connections: ConnectionStore,
                game_id: str) -> Posted:
    """Post every frame of ``game_id``; a closed connection's subscription is forgotten (one
    delete: this is where closed connections leave the table, there is no ``$disconnect``), any
    other failure only counted (the client resubscribes or polls: module docstring)."""
    sent = gone = failed = 0
    for frame in frames:
        try:
            poster.post(frame.connection_id, frame.data)
            sent += 1
        except ConnectionGone:
            connections.forget(game_id, frame.connection_id)
            gone += 1
        except Exception as exc:
            _log.warning("live frame not posted: %s", type(exc).__name__)
            failed += 1
    return Posted(sent, gone, failed)


def publish(
    message: OutboxMessage, *, store: GameStore, press: PressStore, connections: ConnectionStore,
    poster: LivePoster, now: float, operator_token: str | None = None,
) -> Posted:
    """The notifier's step for live updates: the game's connections, their frames, posted."""
    if not is_live(message):
        return Posted()
    game_id = str(message.game_id)
    subscribed = connections.of_game(game_id, now)
    frames = frames_for(message, store, press, subscribed, operator_token)
    return post_frames(frames, poster, connections, game_id)
