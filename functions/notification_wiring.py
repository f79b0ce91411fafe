"""Composition root for the deadline, relay, notifier and Telegram functions, plus thin adapters.

Like `functions/wiring.py` (the API's root), nothing is built at import: each
`*_dependencies()` builds its adapters on first use and caches them; `reset()`
forgets them (tests, the local stack after it changes endpoints).

The adapters here translate between the small notification ports and the game
store / use cases of the REST API, so both paths share one process_turn, one
order submission and one view of orders status.

Environment:
  GAME_TABLE, OUTBOX_QUEUE_URL              (shared with the API)
  SCHEDULER_GROUP, DEADLINE_FUNCTION_ARN, SCHEDULER_ROLE_ARN
  TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET, TELEGRAM_API_BASE
  CONVOY_ALLOW_LOOPBACK_WEBHOOKS=1          local runs and tests only
  SWEEP_SCAN_LIMIT                          games the backstop sweeper scans (default 500)
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from functions.notification_ports import (
    DeadlineGames,
    DeadlineInfo,
    DeadlineScheduler,
    DeliveryLog,
    DeliveryTarget,
    DiscordTarget,
    GameActions,
    MessageQueue,
    OutboxMessage,
    ReplyOutbox,
    Seat,
    SubmitOutcome,
    TargetDirectory,
    TelegramStore,
    TelegramTarget,
    WebhookTarget,
    target_from_dict,
)
from functions.ports import Clock, GameStore, PowerChats, PressStore
from functions.usecases.notifications import webhook_document
from infra.webhooks import HttpDelivery, HttpSettings

# ---------------------------------------------------------------- adapters


class HttpDeliverer:
    """`Deliverer` port: picks the right HTTP call for each kind of target."""

    def __init__(self, delivery: HttpDelivery) -> None:
        self._http = delivery

    def deliver(self, target: DeliveryTarget, message: OutboxMessage, text: str) -> None:
        if isinstance(target, WebhookTarget):
            self._http.send_webhook(
                target.url, target.secret, webhook_document(message, text), message.dedupe_key
            )
        elif isinstance(target, DiscordTarget):
            self._http.send_discord(target.url, text)
        elif isinstance(target, TelegramTarget):
            self._http.send_telegram(target.chat_id, text)
        else:  # pragma: no cover - the union is closed
            raise TypeError(f"unknown target {target!r}")


class StoreTargetDirectory:
    """`TargetDirectory` from the game's settings: ``settings["notify"]`` is a list of target dicts."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    def targets_for(self, game_id: str) -> Sequence[DeliveryTarget]:
        from functions.ports import ItemNotFound

        try:
            game = self._store.load(game_id)
        except ItemNotFound:
            return []
        found: list[DeliveryTarget] = []
        for raw in game.settings.get("notify") or []:
            try:
                found.append(target_from_dict(raw))
            except (ValueError, AttributeError):
                continue  # validated when the game was set up; never let one bad entry block the rest
        return found


class StoreDeadlineGames:
    """`DeadlineGames` over the game store and the API's own `process_turn` (exactly-once by version)."""

    def __init__(
        self,
        store: GameStore,
        clock: Clock,
        scan_limit: int = 500,
        scheduler: DeadlineScheduler | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._scan_limit = scan_limit
        self._scheduler = scheduler  # the processed phase's successor gets its schedule

    def deadline_info(self, game_id: str) -> DeadlineInfo | None:
        from functions.ports import ItemNotFound

        try:
            game = self._store.load(game_id)
        except ItemNotFound:
            return None
        return _info(game)

    def process_if_in_phase(self, game_id: str, phase: str) -> bool:
        from functions.errors import GameNotActive, GameNotFound, GamePaused, StalePhase
        from functions.usecases.common import SCHEDULER
        from functions.usecases.process_turn import process_turn

        try:
            process_turn(
                self._store, self._clock, game_id, SCHEDULER, expected_phase=phase, scheduler=self._scheduler
            )
        except (StalePhase, GameNotActive, GameNotFound, GamePaused):
            return False
        return True

    def remind_if_in_phase(self, game_id: str, phase: str) -> str:
        from functions.usecases.reminders import send_reminder

        return str(send_reminder(self._store, self._clock, game_id, phase, scheduler=self._scheduler))

    def overdue(self, now: datetime) -> Sequence[DeadlineInfo]:
        """Scans the game listing (newest first, bounded): fine as a backstop at small scale.

        At scale this wants a sparse index on `deadline`; see docs/notifications.md.
        """
        infos = [_info(game) for game in self._store.list_games(limit=self._scan_limit)]
        return [i for i in infos if i.status == "ACTIVE" and i.deadline is not None and i.deadline <= now]


def _info(game: Any) -> DeadlineInfo:
    from functions.usecases.common import parse_iso

    deadline = parse_iso(game.deadline) if game.deadline else None
    status = "PAUSED" if game.paused and game.status == "ACTIVE" else str(game.status).upper()
    return DeadlineInfo(game.game_id, game.phase, deadline, status)


class StoreGameActions:
    """`GameActions` for the bot: the same use cases the REST API calls."""

    def __init__(
        self, store: GameStore, clock: Clock, scheduler: DeadlineScheduler | None = None,
        press: PressStore | None = None, chats: PowerChats | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._scheduler = scheduler
        self._press = press  # None: the API's press store and the bot's chat links (built lazily)
        self._chats = chats

    def submit_orders(self, seat: Seat, orders: Sequence[str]) -> SubmitOutcome:
        from functions.usecases.common import Actor
        from functions.usecases.submit_orders import submit_orders

        done = submit_orders(
            self._store, self._clock, seat.game_id, Actor("player", seat.power), list(orders),
            scheduler=self._scheduler,
        )
        return SubmitOutcome(
            phase=done.phase,
            accepted=tuple(done.accepted),
            rejected=tuple((r.order, r.message) for r in done.rejected),
        )

    def my_orders(self, seat: Seat) -> tuple[str, Sequence[str]]:
        from functions.usecases.common import load

        game = load(self._store, seat.game_id)
        return game.phase, list(game.pending_orders.get(seat.power, []))

    def orders_status(self, seat: Seat) -> tuple[str, Mapping[str, bool]]:
        from functions.usecases.common import load
        from functions.usecases.views import orders_status

        status = orders_status(load(self._store, seat.game_id))
        return str(status["phase"]), dict(status["submitted"])

    def last_resolution(self, seat: Seat) -> Sequence[str]:
        from functions.usecases.views import last_resolution

        results = last_resolution(self._store, seat.game_id).get("results", [])
        return [f"{r.get('order_str', '?')}: {r.get('result', '?')}" for r in results]

    def send_message(
        self, seat: Seat, to: str | Sequence[str], text: str, dedupe_key: str
    ) -> tuple[str, int]:
        from functions.usecases.common import Actor
        from functions.usecases.press import send_message
        from functions.wiring import services

        sent = send_message(
            self._store, self._press or services().press_store, self._clock, seat.game_id,
            Actor("player", seat.power), to, text, dedupe_key=dedupe_key,
            chats=self._chats or telegram_store(),
        )
        return sent.channel, sent.seq


# ---------------------------------------------------------------- settings and builders


@dataclass(frozen=True)
class NotificationSettings:
    game_table: str
    queue_url: str
    scheduler_group: str
    deadline_function_arn: str
    scheduler_role_arn: str
    telegram_bot_token: str
    telegram_webhook_secret: str
    telegram_api_base: str
    allow_loopback: bool
    sweep_scan_limit: int


def load_notification_settings(env: Mapping[str, str] | None = None) -> NotificationSettings:
    e = os.environ if env is None else env
    return NotificationSettings(
        game_table=e.get("GAME_TABLE", "convoy-games"),
        queue_url=e.get("OUTBOX_QUEUE_URL", ""),
        scheduler_group=e.get("SCHEDULER_GROUP", "convoy-deadlines"),
        deadline_function_arn=e.get("DEADLINE_FUNCTION_ARN", ""),
        scheduler_role_arn=e.get("SCHEDULER_ROLE_ARN", ""),
        telegram_bot_token=e.get("TELEGRAM_BOT_TOKEN", ""),
        telegram_webhook_secret=e.get("TELEGRAM_WEBHOOK_SECRET", ""),
        telegram_api_base=e.get("TELEGRAM_API_BASE", "https://api.telegram.org"),
        allow_loopback=e.get("CONVOY_ALLOW_LOOPBACK_WEBHOOKS", "") in ("1", "true", "yes"),
        sweep_scan_limit=int(e.get("SWEEP_SCAN_LIMIT", "500")),
    )


@dataclass(frozen=True)
class NotifierDependencies:
    targets: TargetDirectory
    deliverer: HttpDeliverer
    log: DeliveryLog


@dataclass(frozen=True)
class DeadlineDependencies:
    games: DeadlineGames
    scheduler: DeadlineScheduler


@dataclass(frozen=True)
class TelegramDependencies:
    secret: str
    store: TelegramStore
    games: GameActions
    outbox: ReplyOutbox


@functools.cache
def settings() -> NotificationSettings:
    return load_notification_settings()


def _game_services() -> Any:
    from functions.wiring import services

    return services()


@functools.cache
def outbox_queue() -> MessageQueue:
    from infra import aws_clients
    from infra.queue import SqsMessageQueue

    return SqsMessageQueue(aws_clients.sqs, settings().queue_url)


@functools.cache
def deadline_scheduler() -> Any:
    """The EventBridge adapter (also used by process_turn/create to set the next deadline)."""
    from infra import aws_clients
    from infra.scheduler import EventBridgeDeadlineScheduler, SchedulerSettings

    s = settings()
    return EventBridgeDeadlineScheduler(
        lambda: aws_clients.client("scheduler"),
        SchedulerSettings(s.scheduler_group, s.deadline_function_arn, s.scheduler_role_arn),
    )


@functools.cache
def notifier_dependencies() -> NotifierDependencies:
    from infra import aws_clients
    from infra.notification_store import DynamoDeliveryLog

    s = settings()
    http = HttpDelivery(
        HttpSettings(
            allow_loopback=s.allow_loopback,
            telegram_bot_token=s.telegram_bot_token,
            telegram_api_base=s.telegram_api_base,
        )
    )
    return NotifierDependencies(
        targets=StoreTargetDirectory(_game_services().store),
        deliverer=HttpDeliverer(http),
        log=DynamoDeliveryLog(aws_clients.dynamodb, s.game_table),
    )


@functools.cache
def deadline_dependencies() -> DeadlineDependencies:
    services = _game_services()
    return DeadlineDependencies(
        games=StoreDeadlineGames(
            services.store, services.clock, settings().sweep_scan_limit, scheduler=deadline_scheduler()
        ),
        scheduler=deadline_scheduler(),
    )


@functools.cache
def telegram_store() -> TelegramStore:
    """Link codes and chat links (the API issues codes; the bot redeems them)."""
    from infra import aws_clients
    from infra.notification_store import DynamoTelegramStore

    return DynamoTelegramStore(aws_clients.dynamodb, settings().game_table, Seat)


@functools.cache
def telegram_dependencies() -> TelegramDependencies:
    from infra import aws_clients
    from infra.notification_store import DynamoReplyOutbox

    s = settings()
    services = _game_services()
    return TelegramDependencies(
        secret=s.telegram_webhook_secret,
        store=telegram_store(),
        games=StoreGameActions(services.store, services.clock, services.scheduler),
        outbox=DynamoReplyOutbox(aws_clients.dynamodb, s.game_table),
    )


def reset() -> None:
    """Forget every cached adapter and setting."""
    for cached in (
        settings,
        outbox_queue,
        deadline_scheduler,
        notifier_dependencies,
        deadline_dependencies,
        telegram_dependencies,
        telegram_store,
    ):
        cached.cache_clear()
