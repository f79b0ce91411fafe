"""Adapters that implement ports over Convoy's own use cases and game store.

Why here and not in ``infra/``: these call use cases (``process_turn``, ``submit_orders``,
the views), and ``infra`` may import only the ports (functions/ports.py). They sit above
the use cases and below the composition root (composition/factories/), which builds them.
So deadlines, the notifier and the Telegram bot share one process_turn, one order
submission and one view of orders status with the REST API.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from functions.errors import GameNotActive, GameNotFound, GamePaused, StalePhase
from functions.ports import (
    CHAT_PHOTO,
    Clock,
    DeadlineScheduler,
    GameStore,
    ItemNotFound,
    PowerChats,
    PressStore,
)
from functions.ports.deadlines import DeadlineInfo, Firing
from functions.ports.notifications import (
    DeliveryTarget,
    DiscordTarget,
    OutboxMessage,
    TelegramTarget,
    WebhookTarget,
    target_from_dict,
)
from functions.ports.telegram import Seat, SubmitOutcome
from functions.usecases.game import iso, load, parse_iso
from functions.usecases.notifications import webhook_document
from functions.usecases.players import SCHEDULER, Actor
from functions.usecases.turns import (
    LostRace,
    NotDue,
    last_resolution,
    orders_status,
    process_turn,
    send_reminder,
    submit_orders,
)


class HttpSender(Protocol):
    """What ``HttpDeliverer`` needs of the HTTP client (``infra.webhooks.HttpDelivery`` fits)."""

    def send_webhook(
        self, url: str, secret: str, document: Mapping[str, Any], delivery_id: str, *,
        previous_secret: str | None = None, deadline: float | None = None,
    ) -> None: ...

    def send_discord(self, url: str, text: str, *, deadline: float | None = None) -> None: ...

    def send_telegram(self, chat_id: int | str, text: str, *, deadline: float | None = None) -> None: ...

    def send_telegram_photo(
        self, chat_id: int | str, png: bytes, caption: str, *, deadline: float | None = None
    ) -> None: ...


class HttpDeliverer:
    """`Deliverer` port: picks the right HTTP call for each kind of target.

    ``pictures`` draws the PNG a CHAT_PHOTO answer names (its payload's ``map``: game_id and
    power), at delivery time, so no picture ever sits in the outbox."""

    def __init__(
        self,
        delivery: HttpSender,
        pictures: Callable[[Mapping[str, Any]], bytes] | None = None,
        wall_clock: Callable[[], float] = time.time,
    ) -> None:
        self._http = delivery
        self._pictures = pictures
        self._now = wall_clock  # decides whether a rotated-out webhook secret still signs

    def deliver(
        self, target: DeliveryTarget, message: OutboxMessage, text: str, *, deadline: float | None = None
    ) -> None:
        if isinstance(target, WebhookTarget):
            self._http.send_webhook(
                target.url, target.secret, webhook_document(message, text), message.dedupe_key,
                previous_secret=target.previous_at(self._now()), deadline=deadline,
            )
        elif isinstance(target, DiscordTarget):
            self._http.send_discord(target.url, text, deadline=deadline)
        elif isinstance(target, TelegramTarget) and message.kind == CHAT_PHOTO and self._pictures:
            picture = message.payload.get("map")
            if not isinstance(picture, Mapping):
                raise TypeError(f"a {CHAT_PHOTO} without its map reference: {message.dedupe_key}")
            self._http.send_telegram_photo(target.chat_id, self._pictures(picture), text, deadline=deadline)
        elif isinstance(target, TelegramTarget):
            self._http.send_telegram(target.chat_id, text, deadline=deadline)
        else:  # pragma: no cover - the union is closed
            raise TypeError(f"unknown target {target!r}")


class StoreTargetDirectory:
    """`TargetDirectory` from the game's settings: ``settings["notify"]`` is a list of target dicts."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    def targets_for(self, game_id: str) -> Sequence[DeliveryTarget]:
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

    def process_if_due(self, game_id: str, phase: str, now: datetime) -> Firing:
        """process_turn as the scheduler, for `phase`, only if due by `now`: one read."""
        try:
            process_turn(self._store, self._clock, game_id, SCHEDULER, expected_phase=phase,
                         scheduler=self._scheduler, due_by=now)
        except NotDue as early:
            return Firing("NOT_DUE", early.deadline)
        except LostRace:
            return Firing("LOST_RACE")
        except (StalePhase, GameNotActive, GameNotFound, GamePaused):
            return Firing("STALE")
        return Firing("PROCESSED")

    def remind_if_in_phase(self, game_id: str, phase: str) -> str:
        return str(send_reminder(self._store, self._clock, game_id, phase, scheduler=self._scheduler))

    def overdue(self, now: datetime) -> Sequence[DeadlineInfo]:
        """Every game whose running deadline passed, from the store's sparse deadline index
        (all games, not the newest few; docs/scaling.md). At most ``scan_limit`` per sweep:
        the rest are the next sweep's. ``fire_deadline`` re-reads each game before acting."""
        due = self._store.due_games(iso(now), limit=self._scan_limit)
        return [DeadlineInfo(game_id, phase, parse_iso(at), "ACTIVE") for game_id, phase, at in due]


class StoreGameActions:
    """`GameActions` for the bot: the same use cases the REST API calls."""

    def __init__(
        self, store: GameStore, clock: Clock, scheduler: DeadlineScheduler | None = None,
        press: PressStore | None = None, chats: PowerChats | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._scheduler = scheduler
        self._press = press  # press (issue 13): /msg; None: the bot refuses press
        self._chats = chats

    def submit_orders(self, seat: Seat, orders: Sequence[str]) -> SubmitOutcome:
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
        game = load(self._store, seat.game_id)
        return game.phase, list(game.pending_orders.get(seat.power, []))

    def orders_status(self, seat: Seat) -> tuple[str, Mapping[str, bool]]:
        status = orders_status(load(self._store, seat.game_id))
        return str(status["phase"]), dict(status["submitted"])

    def last_resolution(self, seat: Seat) -> Sequence[str]:
        results = last_resolution(self._store, seat.game_id).get("results", [])
        return [f"{r.get('order_str', '?')}: {r.get('result', '?')}" for r in results]

    def send_message(
        self, seat: Seat, to: str | Sequence[str], text: str, dedupe_key: str
    ) -> tuple[str, int]:
        from functions.errors import Forbidden
        from functions.usecases.press.press import send_message

        if self._press is None:
            raise Forbidden("press is not available through this bot")
        sent = send_message(
            self._store, self._press, self._clock, seat.game_id, Actor("player", seat.power),
            to, text, dedupe_key=dedupe_key, chats=self._chats,
        )
        return sent.channel, sent.seq
