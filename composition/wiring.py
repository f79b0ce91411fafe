"""The composition root's shared core: the one settings model, the one cache of built adapters,
and the adapters several functions share (the game store and clock behind ``services()``, press,
deadline schedules, the outbox queue).

It sits above the layers it composes (composition/ is a package of its own: every import
points down from here) and the Lambda entry points beside it (composition/api.py, ...) hand
what it builds to the handlers. The rest of the root is split by area in
``composition/factories/`` (accounts, tokens, community, reach, connections, notifier,
deadlines, telegram, live), and each entry point imports only the areas its function uses:
the build ships what a handler's imports reach (deploy/build_artifacts.py), so this module
imports none of them, and the relay's artifact carries no JWT, renderer or web push library.

Nothing here runs at import time. Every factory is a ``@once`` function: built on first call,
cached per process (thread-safe), and forgotten by ``reset()`` — the one reset, for every
area's factories, for tests and for the local stack after it changes endpoints. Tests swap
the API's services with ``override(...)``. Which adapter implements which port:

- ``services()``: the API's game store (``infra.dynamodb.game_store``), clock, idempotency
  store and, when ``DEADLINE_FUNCTION_ARN`` is set, the deadline scheduler; its other adapters
  are built on first use by the factory an area module ``provide``s (``_Lazy``);
- ``deadline_scheduler()``: EventBridge Scheduler (``infra.scheduler``);
- ``outbox_queue()``: SQS (``infra.queue``), the relay's outlet;
- ``composition.factories.*``: the other functions' ports, partly over the use cases
  (``functions.adapters``).

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
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, TypeVar, cast

from composition.settings import load_settings
from functions.api.services import LazyAdapters, Services
from functions.ports import DeadlineScheduler, PressStore, SystemClock
from functions.settings import Settings

if TYPE_CHECKING:  # the lazy part of the ports (functions/ports/__init__.py): annotations only here
    from functions.ports.accounts import AccountStore, IdentityProvider, TokenVerifier
    from functions.ports.community import CommunityStore
    from functions.ports.notifier import MessageQueue
    from functions.ports.reach import PushSender, ReachStore
    from functions.ports.telegram import TelegramStore

T = TypeVar("T")

# ---------------------------------------------------------------- the one cache

_lock = threading.RLock()  # re-entrant: factories call each other
_built: dict[str, Any] = {}
# the lazy adapters of ``services()`` that an area module provides: name -> factory
_providers: dict[str, Callable[[], object]] = {}


def _key(factory: Callable[..., Any]) -> str:
    """The cache key of a factory: its module and name (two areas may name factories alike)."""
    return f"{factory.__module__}.{factory.__qualname__}"


def once(build: Callable[[], T]) -> Callable[[], T]:
    """Build on first call, then answer the cached value until ``reset()`` (every area's factories
    share this one cache, so one ``reset()`` forgets them all)."""
    key = _key(build)

    @functools.wraps(build)
    def cached() -> T:
        if key not in _built:
            with _lock:
                if key not in _built:
                    _built[key] = build()
        return cast(T, _built[key])  # the value ``build`` returned under its key

    return cached


def reset() -> None:
    """Forget every built adapter and the settings (the next call reads the environment again)."""
    with _lock:
        _built.clear()


def override(replacement: Services) -> None:
    """Make ``services()`` answer ``replacement`` (tests); its unset adapters are this root's."""
    with _lock:
        _built[_key(services)] = replacement if replacement.lazy else replace(replacement, lazy=LAZY)


def provide(name: str, factory: Callable[[], object]) -> None:
    """Let ``services()`` answer its lazy adapter ``name`` with ``factory()`` (an area module, when
    imported: composition/factories/)."""
    _providers[name] = factory


def _provided(name: str) -> object:
    factory = _providers.get(name)
    if factory is None:
        raise LookupError(
            f"services().{name} is not wired in this function: its entry point imports no "
            "composition.factories module that provides it"
        )
    return factory()


@once
def settings() -> Settings:
    """The environment's settings, with the secrets read from SSM once (infra/secrets.py)."""
    from infra.secrets import with_secrets

    return with_secrets(load_settings())


# ---------------------------------------------------------------- the API


@once
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


@once
def press_store() -> PressStore:
    """Press in the game table (infra/dynamodb/press_store.py); its client is built on first call."""
    from infra.dynamodb.press_store import DynamoPressStore

    return DynamoPressStore(settings().game_table)


# ---------------------------------------------------------------- shared by several functions


@once
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


@once
def outbox_queue() -> MessageQueue:
    from infra import aws_clients
    from infra.queue import SqsMessageQueue

    return SqsMessageQueue(aws_clients.sqs, settings().queue_url)


def prime_clients() -> None:
    """SnapStart priming (functions/snapstart.py): every AWS client built before the snapshot."""
    from infra import aws_clients

    aws_clients.prime()


def renew_clients() -> None:
    """After a SnapStart restore: the clients stay, their connections are renewed."""
    from infra import aws_clients

    aws_clients.renew()


class _Lazy:
    """The adapters a ``Services`` leaves unset, built on first use: the press store by this
    module, the others by the factory a ``composition.factories`` module ``provide``s when the
    function's entry point imports it (a function that does not import it never reaches that
    adapter's libraries; asking for it anyway is a ``LookupError``, not a silent import)."""

    def press_store(self) -> PressStore:
        return press_store()

    def account_store(self) -> AccountStore:
        return cast("AccountStore", _provided("account_store"))

    def identity_provider(self) -> IdentityProvider:
        return cast("IdentityProvider", _provided("identity_provider"))

    def token_verifier(self) -> TokenVerifier:
        return cast("TokenVerifier", _provided("token_verifier"))

    def reach_store(self) -> ReachStore:
        return cast("ReachStore", _provided("reach_store"))

    def telegram_store(self) -> TelegramStore:
        return cast("TelegramStore", _provided("telegram_store"))

    def push_sender(self) -> PushSender | None:
        return cast("PushSender | None", _provided("push_sender"))

    def community_store(self) -> CommunityStore:
        return cast("CommunityStore", _provided("community_store"))


LAZY: LazyAdapters = _Lazy()
