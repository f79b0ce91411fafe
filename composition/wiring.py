"""The composition root: the one place that builds real adapters, lazily, from one settings model.

It sits above the layers it composes (composition/ is a package of its own: every import
points down from here) and the Lambda entry points beside it (composition/api.py, ...) hand
what it builds to the handlers. Nothing here runs at import time. Every factory below is a
``@_once`` function: built on first call, cached per process (thread-safe), and forgotten by
``reset()`` — the one reset, for tests and for the local stack after it changes endpoints.
Tests swap the API's services with ``override(...)``. Which adapter implements which port:

- ``services()``: the API's game store (``infra.dynamodb.game_store``), clock, idempotency
  store and, when ``DEADLINE_FUNCTION_ARN`` is set, the deadline scheduler;
- ``deadline_scheduler()``: EventBridge Scheduler (``infra.scheduler``);
- ``outbox_queue()``: SQS (``infra.queue``), the relay's outlet;
- ``notifier_dependencies()`` / ``deadline_dependencies()`` / ``telegram_dependencies()``:
  the other functions' ports, partly over the use cases (``functions.adapters``).

Environment (``load_settings``; local defaults for ``make run`` and tests):
  GAME_TABLE, IDEMPOTENCY_TABLE, CONVOY_OPERATOR_TOKEN, OUTBOX_QUEUE_URL,
  CONVOY_OPERATOR_TOKEN_PARAMETER / TELEGRAM_BOT_TOKEN_PARAMETER /
  TELEGRAM_WEBHOOK_SECRET_PARAMETER (SSM SecureString names that win over the plain
  variables; infra/secrets.py),
  SCHEDULER_GROUP, DEADLINE_FUNCTION_ARN, SCHEDULER_ROLE_ARN,
  TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET, TELEGRAM_API_BASE,
  CONVOY_ALLOW_LOOPBACK_WEBHOOKS=1 (local runs and tests only),
  SWEEP_SCAN_LIMIT (games the backstop sweeper scans, default 500),
  SWEEP_GRACE_SECONDS (how long a due deadline is left to its own schedule before the sweeper
  takes it, default 60; the deploy rehearsal's two-second phases use 0),
  SANDBOX_RATE_LIMIT (sandbox requests per caller per minute, default 60),
  COGNITO_USER_POOL_ID, COGNITO_CLIENT_ID, COGNITO_REGION (default AWS_REGION),
  COGNITO_JWKS_URL (default <issuer>/.well-known/jwks.json; the local stack points it at moto).
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

from composition.settings import load_settings
from functions.api.services import LazyAdapters, Services
from functions.ports import (
    DeadlineScheduler,
    GameStore,
    PressStore,
    SystemClock,
)
from functions.ports.notifier import TargetStanding
from functions.ports.reach import ConnectionStore, PushSender, ReachStore
from functions.ports.telegram import Seat
from functions.settings import Settings

if TYPE_CHECKING:  # the lazy part of the ports (functions/ports/__init__.py): annotations only here
    from functions.ports.accounts import AccountStore, IdentityProvider, TokenVerifier
    from functions.ports.community import CommunityStore
    from functions.ports.deadlines import DeadlineGames
    from functions.ports.notifier import Deliverer, DeliveryLog, MessageQueue, TargetDirectory, TargetHealth
    from functions.ports.telegram import GameActions, ReplyOutbox, TelegramStore
    from functions.usecases.accounts.accounts import AccountDirectory
    from functions.usecases.reach import Reach

T = TypeVar("T")

# ---------------------------------------------------------------- the one cache

_lock = threading.RLock()  # re-entrant: factories call each other
_built: dict[str, Any] = {}


def _once(build: Callable[[], T]) -> Callable[[], T]:
    """Build on first call, then answer the cached value until ``reset()``."""
    name = build.__name__

    @functools.wraps(build)
    def cached() -> T:
        if name not in _built:
            with _lock:
                if name not in _built:
                    _built[name] = build()
        return cast(T, _built[name])  # the value ``build`` returned under its name

    return cached


def reset() -> None:
    """Forget every built adapter and the settings (the next call reads the environment again)."""
    with _lock:
        _built.clear()


def override(replacement: Services) -> None:
    """Make ``services()`` answer ``replacement`` (tests); its unset adapters are this root's."""
    with _lock:
        _built["services"] = replacement if replacement.lazy else replace(replacement, lazy=LAZY)


@_once
def settings() -> Settings:
    """The environment's settings, with the secrets read from SSM once (infra/secrets.py)."""
    from infra.secrets import with_secrets

    return with_secrets(load_settings())


# ---------------------------------------------------------------- the API


@_once
def services() -> Services:
    from infra import aws_clients
    from infra.attempt_counter import DynamoAttemptCounter
    from infra.dynamodb.game_store import DynamoGameStore
    from infra.dynamodb.idempotency_store import DynamoIdempotencyStore
    from infra.dynamodb.rate_counter import DynamoRateCounter

    s = settings()
    return Services(
        settings=s,
        store=DynamoGameStore(s.game_table),  # its client is built on the first call
        clock=SystemClock(),
        idempotency=DynamoIdempotencyStore(s.idempotency_table, aws_clients.dynamodb),
        scheduler=deadline_scheduler() if s.deadline_function_arn else None,
        attempts=DynamoAttemptCounter(aws_clients.dynamodb, s.game_table),
        rate_counter=DynamoRateCounter(s.game_table),
        lazy=LAZY,
    )


@_once
def press_store() -> PressStore:
    """Press in the game table (infra/dynamodb/press_store.py); its client is built on first call."""
    from infra.dynamodb.press_store import DynamoPressStore

    return DynamoPressStore(settings().game_table)


# ---------------------------------------------------------------- accounts (issue 15)


@_once
def account_store() -> AccountStore:
    from infra.dynamodb.account_store import DynamoAccountStore

    return DynamoAccountStore(settings().game_table)


@_once
def identity_provider() -> IdentityProvider:
    from infra import aws_clients
    from infra.cognito import CognitoIdentity

    return CognitoIdentity(lambda: aws_clients.client("cognito-idp"), settings().cognito_client_id)


@_once
def token_verifier() -> TokenVerifier:
    """One verifier per process: its JWKS is fetched once and cached (infra/jwt_verifier.py)."""
    from infra.jwt_verifier import CognitoTokenVerifier

    s = settings()
    return CognitoTokenVerifier(s.cognito_issuer, s.cognito_client_id, s.cognito_jwks_url or None)


# ---------------------------------------------------------------- deadlines, relay, notifier, bot


@_once
def deadline_scheduler() -> DeadlineScheduler:
    """The EventBridge adapter (also used by process_turn/create to set the next deadline)."""
    from infra import aws_clients
    from infra.scheduler import EventBridgeDeadlineScheduler, SchedulerSettings

    s = settings()
    return EventBridgeDeadlineScheduler(
        lambda: aws_clients.client("scheduler"),
        SchedulerSettings(
            s.scheduler_group, s.deadline_function_arn, s.scheduler_role_arn, s.failed_work_queue_arn
        ),
    )


@_once
def outbox_queue() -> MessageQueue:
    from infra import aws_clients
    from infra.queue import SqsMessageQueue

    return SqsMessageQueue(aws_clients.sqs, settings().queue_url)


# The other functions' bundles are NamedTuples, not dataclasses: only attribute reads use
# them, and a NamedTuple costs ~0.3 M instructions to define where a frozen dataclass costs
# ~4 M, at every cold import of every handler (issue 9 item 6).


class NotifierDependencies(NamedTuple):
    """The notifier's ports (``notifier_dependencies()``)."""

    targets: TargetDirectory
    deliverer: Deliverer
    log: DeliveryLog
    public_url: str = ""
    health: TargetHealth | None = None  # parking of targets that keep failing (issue 11)
    queue: MessageQueue | None = None  # deferred messages and parking notices go back here
    reach: Reach | None = None  # issue 33: live frames, mail and push to the players themselves
    records: Callable[[str], bool] | None = None  # issue 34: a finished game into the players' records


class DeadlineDependencies(NamedTuple):
    """The deadline function's ports (``deadline_dependencies()``)."""

    games: DeadlineGames
    scheduler: DeadlineScheduler
    sweep_grace_seconds: int = 60


class TelegramDependencies(NamedTuple):
    """The Telegram bot's ports (``telegram_dependencies()``)."""

    secret: str
    store: TelegramStore
    games: GameActions
    outbox: ReplyOutbox
    accounts: AccountDirectory | None = None  # issue 15: /link binds the account; /games, /use


def _seat_board_png(picture: Mapping[str, Any]) -> bytes:
    """The PNG a bot's /map answer names, drawn when it is delivered (functions/usecases/map_view)."""
    from functions.usecases.turns import seat_board_png

    return seat_board_png(services().store, picture)


@_once
def notifier_dependencies() -> NotifierDependencies:
    from functions.adapters import HttpDeliverer, StoreTargetDirectory
    from infra import aws_clients
    from infra.notification_store import DynamoDeliveryLog
    from infra.target_health import DynamoTargetHealth
    from infra.webhooks import HttpDelivery, HttpSettings

    s = settings()
    http = HttpDelivery(
        HttpSettings(
            allow_loopback=s.allow_loopback_webhooks,
            telegram_bot_token=s.telegram_bot_token,
            telegram_api_base=s.telegram_api_base,
        )
    )
    return NotifierDependencies(
        targets=StoreTargetDirectory(services().store),
        deliverer=HttpDeliverer(http, pictures=_seat_board_png),
        log=DynamoDeliveryLog(aws_clients.dynamodb, s.game_table),
        public_url=s.public_url,
        health=DynamoTargetHealth(aws_clients.dynamodb, s.game_table, TargetStanding),
        queue=outbox_queue() if s.queue_url else None,
        reach=reach(),
        records=record_finished,
    )


# ---------------------------------------------------------------- the community (issue 34)


@_once
def community_store() -> CommunityStore:
    """Ratings, profiles, the archive and tournaments in the game table."""
    from infra.dynamodb.community_store import DynamoCommunityStore

    return DynamoCommunityStore(settings().game_table)


def record_finished(game_id: str) -> bool:
    """The notifier's step for GAME_ENDED (functions/usecases/community/player_records.py)."""
    from functions.usecases.community import record_finished_game

    return record_finished_game(services().store, community_store(), game_id)


# ---------------------------------------------------------------- reaching players (issue 33)


@_once
def reach_store() -> ReachStore:
    from infra.dynamodb.reach_store import DynamoReachStore

    return DynamoReachStore(settings().game_table)


@_once
def connection_store() -> ConnectionStore:
    from infra.live_connections import DynamoConnectionStore

    return DynamoConnectionStore(settings().connections_table)


@_once
def push_sender() -> PushSender | None:
    """VAPID web push, when the deployment has a key (WEB_PUSH_KEY_PARAMETER)."""
    from functions.usecases.reach import endpoint_allowed
    from infra.web_push import VapidPushSender

    s = settings()
    if not s.web_push_private_key:
        return None
    loopback = s.allow_loopback_webhooks
    return VapidPushSender(s.web_push_private_key, s.web_push_subject,
                           lambda endpoint: endpoint_allowed(endpoint, loopback))


def _resolution_png(game_id: str, phase: str, power: str) -> bytes | None:
    """A turn result's mail picture: the phase's resolution map as the seat's power sees it (the
    public one, but for a fog game's: functions/usecases/turns/map_view)."""
    from functions.usecases.players import Actor
    from functions.usecases.turns import MapRequest, map_picture

    request = MapRequest("resolution", "png", 800, "standard", phase)
    return map_picture(services().store, game_id, Actor("player", power), request).body


@_once
def reach() -> Reach:
    """The notifier's ports for reaching players; a channel without its setting is off."""
    from functions.usecases.reach import Reach
    from infra import aws_clients
    from infra.cognito_contacts import CognitoContacts
    from infra.live_connections import ApiGatewayPoster
    from infra.notification_store import DynamoDeliveryLog
    from infra.ses_mail import SesMailSender

    s = settings()
    api = services()
    live = bool(s.live_management_url)
    mail = bool(s.mail_from and s.cognito_user_pool_id)
    return Reach(
        store=api.store, press=api.press_store, prefs=reach_store(),
        log=DynamoDeliveryLog(aws_clients.dynamodb, s.game_table),
        connections=connection_store() if live else None,
        poster=ApiGatewayPoster(lambda: aws_clients.client("apigatewaymanagementapi", s.live_management_url))
        if live else None,
        mail=SesMailSender(lambda: aws_clients.client("sesv2"), s.mail_from, s.mail_configuration_set)
        if mail else None,
        contacts=CognitoContacts(lambda: aws_clients.client("cognito-idp"), s.cognito_user_pool_id)
        if mail else None,
        push=push_sender(),
        queue=outbox_queue() if s.queue_url else None,
        delayed=outbox_queue() if s.queue_url else None,  # type: ignore[arg-type]
        public_url=s.public_url, link_key=s.mail_link_key, operator_token=s.operator_token,
        press_delay=s.press_mail_delay, map_png=_resolution_png,
    )


class LiveDependencies(NamedTuple):
    """The WebSocket function's ports (``live_dependencies()``)."""

    connections: ConnectionStore
    store: GameStore
    press: PressStore
    verifier: TokenVerifier
    operator_token: str | None


@_once
def live_dependencies() -> LiveDependencies:
    api = services()
    return LiveDependencies(connection_store(), api.store, api.press_store, api.token_verifier,
                            settings().operator_token)


@_once
def deadline_dependencies() -> DeadlineDependencies:
    from functions.adapters import StoreDeadlineGames

    api = services()
    return DeadlineDependencies(
        games=StoreDeadlineGames(
            api.store, api.clock, settings().sweep_scan_limit, scheduler=deadline_scheduler()
        ),
        scheduler=deadline_scheduler(),
        sweep_grace_seconds=settings().sweep_grace_seconds,
    )


@_once
def telegram_store() -> TelegramStore:
    """Link codes and chat links (the API issues codes; the bot redeems them)."""
    from infra import aws_clients
    from infra.notification_store import DynamoTelegramStore

    return DynamoTelegramStore(aws_clients.dynamodb, settings().game_table, Seat)


@_once
def telegram_dependencies() -> TelegramDependencies:
    from functions.adapters import StoreGameActions
    from functions.usecases.accounts.accounts import AccountDirectory
    from infra import aws_clients
    from infra.notification_store import DynamoReplyOutbox

    s = settings()
    api = services()
    return TelegramDependencies(
        secret=s.telegram_webhook_secret,
        store=telegram_store(),
        games=StoreGameActions(api.store, api.clock, api.scheduler, press=api.press_store,
                               chats=telegram_store()),
        outbox=DynamoReplyOutbox(aws_clients.dynamodb, s.game_table),
        accounts=AccountDirectory(api.store, api.press_store, api.account_store),
    )


def prime_clients() -> None:
    """SnapStart priming (functions/snapstart.py): every AWS client built before the snapshot."""
    from infra import aws_clients

    aws_clients.prime()


def renew_clients() -> None:
    """After a SnapStart restore: the clients stay, their connections are renewed."""
    from infra import aws_clients

    aws_clients.renew()


class _Lazy:
    """The adapters a ``Services`` leaves unset, built by this root on first use (each looks its
    factory up when called, so a test may swap one: ``monkeypatch.setattr(wiring, ...)``)."""

    def press_store(self) -> PressStore:
        return press_store()

    def account_store(self) -> AccountStore:
        return account_store()

    def identity_provider(self) -> IdentityProvider:
        return identity_provider()

    def token_verifier(self) -> TokenVerifier:
        return token_verifier()

    def reach_store(self) -> ReachStore:
        return reach_store()

    def telegram_store(self) -> TelegramStore:
        return telegram_store()

    def push_sender(self) -> PushSender | None:
        return push_sender()

    def community_store(self) -> CommunityStore:
        return community_store()


LAZY: LazyAdapters = _Lazy()
