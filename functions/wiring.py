"""The composition root: the one place that builds real adapters, lazily, from one settings model.

Nothing here runs at import time. Every factory below is a ``@_once`` function: built on
first call, cached per process (thread-safe), and forgotten by ``reset()`` — the one
reset, for tests and for the local stack after it changes endpoints. Tests swap the API's
services with ``override(...)``. Which adapter implements which port:

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
import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from functions import ports
from functions.ports import (
    AttemptCounter,
    Clock,
    DeadlineScheduler,
    GameStore,
    IdempotencyStore,
    PressStore,
    RateCounter,
    SystemClock,
)

if TYPE_CHECKING:  # the lazy part of the ports (functions/ports/__init__.py): annotations only here
    from functions.ports import (
        AccountStore,
        DeadlineGames,
        Deliverer,
        DeliveryLog,
        GameActions,
        IdentityProvider,
        MessageQueue,
        ReplyOutbox,
        TargetDirectory,
        TargetHealth,
        TelegramStore,
        TokenVerifier,
    )
    from functions.ports.community import CommunityStore
    from functions.usecases.accounts import AccountDirectory
    from functions.usecases.reach_players import Reach

T = TypeVar("T")

DEFAULT_GAME_TABLE = "convoy-games"
DEFAULT_IDEMPOTENCY_TABLE = "convoy-idempotency"

# ---------------------------------------------------------------- settings


class Settings(NamedTuple):
    """Everything configurable, for every function: one model, read once per process.

    A ``NamedTuple`` (immutable; ``_replace`` for a changed copy), not a frozen dataclass:
    on Python 3.11 the dataclass compiled six generated methods at every cold import, ~2.5 ms
    for these 21 fields (issue 9; tests/contracts/test_cold_start_rules.py)."""

    game_table: str = DEFAULT_GAME_TABLE
    idempotency_table: str = DEFAULT_IDEMPOTENCY_TABLE
    operator_token: str | None = None
    idempotency_ttl_seconds: int = 24 * 3600
    allow_loopback_webhooks: bool = False  # CONVOY_ALLOW_LOOPBACK_WEBHOOKS=1: local runs and tests only
    queue_url: str = ""
    scheduler_group: str = "convoy-deadlines"
    deadline_function_arn: str = ""
    scheduler_role_arn: str = ""
    failed_work_queue_arn: str = ""  # schedules dead-letter here (template.yaml FailedWorkQueue)
    telegram_bot_token: str = ""
    telegram_webhook_secret: str = ""
    telegram_api_base: str = "https://api.telegram.org"
    sweep_scan_limit: int = 500
    sweep_grace_seconds: int = 60  # a due phase is its schedule's for this long (deadlines.SCHEDULE_GRACE)
    public_url: str = ""  # the API's base URL, for links in notices (resolution maps)
    sandbox_rate_limit: int = 60  # SANDBOX_RATE_LIMIT: sandbox requests per caller per minute (issue 19)
    # accounts (issue 15, docs/accounts.md): the user pool and its app client
    cognito_user_pool_id: str = ""
    cognito_client_id: str = ""
    cognito_region: str = "us-east-1"
    cognito_jwks_url: str = ""
    # reaching players (issue 33, docs/notifications.md "Reaching players")
    connections_table: str = "convoy-connections"  # the WebSocket API's connections (TTL)
    live_url: str = ""  # where clients open the socket (GET /games/{id}/live); "" = poll only
    live_management_url: str = ""  # the WebSocket API's Management API endpoint (PostToConnection)
    mail_from: str = ""  # SES sender (on the identity the template names); "" = no mail
    mail_configuration_set: str = ""
    mail_link_key: str = ""  # signs unsubscribe links (secret: MAIL_LINK_KEY_PARAMETER)
    web_push_private_key: str = ""  # VAPID (secret: WEB_PUSH_KEY_PARAMETER); "" = no push
    web_push_subject: str = "mailto:admin@example.org"
    press_mail_delay: int = 600  # PRESS_MAIL_DELAY_SECONDS: press received while away, batched

    @property
    def cognito_issuer(self) -> str:
        return f"https://cognito-idp.{self.cognito_region}.amazonaws.com/{self.cognito_user_pool_id}"


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    e = os.environ if env is None else env
    return Settings(
        game_table=e.get("GAME_TABLE", DEFAULT_GAME_TABLE),
        idempotency_table=e.get("IDEMPOTENCY_TABLE", DEFAULT_IDEMPOTENCY_TABLE),
        operator_token=e.get("CONVOY_OPERATOR_TOKEN") or None,
        allow_loopback_webhooks=e.get("CONVOY_ALLOW_LOOPBACK_WEBHOOKS", "") in ("1", "true", "yes"),
        queue_url=e.get("OUTBOX_QUEUE_URL", ""),
        scheduler_group=e.get("SCHEDULER_GROUP", "convoy-deadlines"),
        deadline_function_arn=e.get("DEADLINE_FUNCTION_ARN", ""),
        scheduler_role_arn=e.get("SCHEDULER_ROLE_ARN", ""),
        failed_work_queue_arn=e.get("FAILED_WORK_QUEUE_ARN", ""),
        telegram_bot_token=e.get("TELEGRAM_BOT_TOKEN", ""),
        telegram_webhook_secret=e.get("TELEGRAM_WEBHOOK_SECRET", ""),
        telegram_api_base=e.get("TELEGRAM_API_BASE", "https://api.telegram.org"),
        sweep_scan_limit=int(e.get("SWEEP_SCAN_LIMIT", "500")),
        sweep_grace_seconds=int(e.get("SWEEP_GRACE_SECONDS", "60")),
        public_url=e.get("CONVOY_PUBLIC_URL", "").rstrip("/"),
        sandbox_rate_limit=int(e.get("SANDBOX_RATE_LIMIT", "60")),
        cognito_user_pool_id=e.get("COGNITO_USER_POOL_ID", ""),
        cognito_client_id=e.get("COGNITO_CLIENT_ID", ""),
        cognito_region=e.get("COGNITO_REGION") or e.get("AWS_REGION") or e.get("AWS_DEFAULT_REGION")
        or "us-east-1",
        cognito_jwks_url=e.get("COGNITO_JWKS_URL", ""),
        connections_table=e.get("CONNECTIONS_TABLE", "convoy-connections"),
        live_url=e.get("LIVE_URL", ""),
        live_management_url=e.get("LIVE_MANAGEMENT_URL", "").rstrip("/"),
        mail_from=e.get("MAIL_FROM", ""),
        mail_configuration_set=e.get("MAIL_CONFIGURATION_SET", ""),
        mail_link_key=e.get("MAIL_LINK_KEY", ""),
        web_push_private_key=e.get("WEB_PUSH_PRIVATE_KEY", ""),
        web_push_subject=e.get("WEB_PUSH_SUBJECT") or "mailto:admin@example.org",
        press_mail_delay=int(e.get("PRESS_MAIL_DELAY_SECONDS", "600")),
    )


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
        return _built[name]  # type: ignore[no-any-return]

    return cached


def reset() -> None:
    """Forget every built adapter and the settings (the next call reads the environment again)."""
    with _lock:
        _built.clear()


def override(replacement: Services) -> None:
    """Make ``services()`` answer ``replacement`` (tests)."""
    with _lock:
        _built["services"] = replacement


@_once
def settings() -> Settings:
    """The environment's settings, with the secrets read from SSM once (infra/secrets.py)."""
    from infra.secrets import with_secrets

    return with_secrets(load_settings())


# ---------------------------------------------------------------- the API


@dataclass
class Services:
    """The API's adapters, built once per process by ``services()`` (tests pass fakes)."""

    settings: Settings
    store: GameStore
    clock: Clock
    idempotency: IdempotencyStore | None  # None: Idempotency-Key is ignored (tests)
    # EventBridge deadline schedules; None when DEADLINE_FUNCTION_ARN is unset: deadlines are
    # then kept in META only (and the sweeper's job)
    scheduler: DeadlineScheduler | None = None
    # press (issue 13): messages, channels and ledgers in the game table; None: press_store()
    press: PressStore | None = None
    # failed joins of private games per game and caller (issue 11); None: not limited (tests)
    attempts: AttemptCounter | None = None
    # the sandbox's per-caller counters (issue 19); None: the sandbox is not rate-limited (tests)
    rate_counter: RateCounter | None = None

    # accounts (issue 15): None means the real adapters below (tests pass fakes)
    accounts: AccountStore | None = None
    identity: IdentityProvider | None = None
    verifier: TokenVerifier | None = None
    # issue 33: notice preferences and push devices; None: reach_store()
    reach: ports.ReachStore | None = None
    # issue 34: ratings, profiles, the archive, tournaments; None: community_store()
    community: CommunityStore | None = None

    @property
    def community_store(self) -> CommunityStore:
        return self.community if self.community is not None else community_store()

    @property
    def reach_store(self) -> ports.ReachStore:
        return self.reach if self.reach is not None else reach_store()

    @property
    def press_store(self) -> PressStore:
        return self.press if self.press is not None else press_store()

    @property
    def account_store(self) -> AccountStore:
        return self.accounts if self.accounts is not None else account_store()

    @property
    def identity_provider(self) -> IdentityProvider:
        return self.identity if self.identity is not None else identity_provider()

    @property
    def token_verifier(self) -> TokenVerifier:
        return self.verifier if self.verifier is not None else token_verifier()


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
    from functions.usecases.map_view import seat_board_png

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
        health=DynamoTargetHealth(aws_clients.dynamodb, s.game_table, ports.TargetStanding),
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
    """The notifier's step for GAME_ENDED (functions/usecases/player_records.py)."""
    from functions.usecases.player_records import record_finished_game

    return record_finished_game(services().store, community_store(), game_id)


# ---------------------------------------------------------------- reaching players (issue 33)


@_once
def reach_store() -> ports.ReachStore:
    from infra.dynamodb.reach_store import DynamoReachStore

    return DynamoReachStore(settings().game_table)


@_once
def connection_store() -> ports.ConnectionStore:
    from infra.live_connections import DynamoConnectionStore

    return DynamoConnectionStore(settings().connections_table)


@_once
def push_sender() -> ports.PushSender | None:
    """VAPID web push, when the deployment has a key (WEB_PUSH_KEY_PARAMETER)."""
    from functions.usecases.push_subscriptions import endpoint_allowed
    from infra.web_push import VapidPushSender

    s = settings()
    if not s.web_push_private_key:
        return None
    loopback = s.allow_loopback_webhooks
    return VapidPushSender(s.web_push_private_key, s.web_push_subject,
                           lambda endpoint: endpoint_allowed(endpoint, loopback))


def _resolution_png(game_id: str, phase: str, power: str) -> bytes | None:
    """A turn result's mail picture: the phase's resolution map as the seat's power sees it (the
    public one, but for a fog game's: functions/usecases/map_view)."""
    from functions.usecases.common import Actor
    from functions.usecases.map_view import MapRequest, map_picture

    request = MapRequest("resolution", "png", 800, "standard", phase)
    return map_picture(services().store, game_id, Actor("player", power), request).body


@_once
def reach() -> Reach:
    """The notifier's ports for reaching players; a channel without its setting is off."""
    from functions.usecases.reach_players import Reach
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

    connections: ports.ConnectionStore
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

    return DynamoTelegramStore(aws_clients.dynamodb, settings().game_table, ports.Seat)


@_once
def telegram_dependencies() -> TelegramDependencies:
    from functions.adapters import StoreGameActions
    from functions.usecases.accounts import AccountDirectory
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


def stream_item(image: Mapping[str, Any]) -> dict[str, Any]:
    """An OUTBOX or EVENT item's stream image as plain values, decoded by the store's own codec
    (infra/dynamodb/items.py, its payload or data unpacked) so the relay needs no boto3 for it."""
    from infra.dynamodb.items import EVENT_PACKED, OUTBOX_PACKED, from_item

    return from_item(dict(image), OUTBOX_PACKED | EVENT_PACKED)


def removed_game(record: Mapping[str, Any]) -> str | None:
    """The id of the game whose META a stream record says was removed (its TTL expired), if
    it says so (infra/dynamodb/keys.py knows the keys)."""
    from infra.dynamodb import keys

    if record.get("eventName") != "REMOVE":
        return None
    found = (record.get("dynamodb") or {}).get("Keys") or {}
    sort_key, partition = (found.get("sk") or {}).get("S"), str((found.get("pk") or {}).get("S", ""))
    prefix = keys.game_pk("")
    return partition[len(prefix):] if sort_key == keys.META and partition.startswith(prefix) else None


def prime_clients() -> None:
    """SnapStart priming (functions/snapstart.py): every AWS client built before the snapshot."""
    from infra import aws_clients

    aws_clients.prime()


def renew_clients() -> None:
    """After a SnapStart restore: the clients stay, their connections are renewed."""
    from infra import aws_clients

    aws_clients.renew()
