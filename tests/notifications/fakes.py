"""In-memory fakes of the notification ports: small, honest, and inspectable by tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from functions.ports.deadlines import DeadlineInfo, Firing
from functions.ports.notifications import DeliveryTarget, OutboxMessage
from functions.ports.notifier import (
    Deliverer,
    DeliveryLog,
    MessageQueue,
    TargetDirectory,
    TargetHealth,
    TargetStanding,
)
from functions.ports.telegram import Seat, SubmitOutcome


class MemoryDeliveryLog:
    def __init__(self) -> None:
        self.delivered: set[tuple[str, str]] = set()

    def was_delivered(self, dedupe_key: str, target_key: str) -> bool:
        return (dedupe_key, target_key) in self.delivered

    def mark_delivered(self, dedupe_key: str, target_key: str) -> None:
        self.delivered.add((dedupe_key, target_key))


@dataclass
class StaticTargets:
    by_game: dict[str, list[DeliveryTarget]] = field(default_factory=dict)

    def targets_for(self, game_id: str) -> Sequence[DeliveryTarget]:
        return self.by_game.get(game_id, [])


class RecordingDeliverer:
    """Records successful sends; `failures[(dedupe_key, target_key)]` = how many times to fail first."""

    def __init__(
        self, failures: Mapping[tuple[str, str], int] | None = None, always_fail: set[str] | None = None
    ):
        self.failures = dict(failures or {})
        self.always_fail = always_fail or set()
        self.sent: list[tuple[str, str, str]] = []  # (dedupe_key, target_key, text)
        self.attempts = 0
        self.deadlines: list[float | None] = []

    def deliver(
        self, target: DeliveryTarget, message: OutboxMessage, text: str, *, deadline: float | None = None
    ) -> None:
        self.attempts += 1
        self.deadlines.append(deadline)
        key = (message.dedupe_key, target.key)
        if message.dedupe_key in self.always_fail:
            raise ConnectionError("receiver is down for good")
        if self.failures.get(key, 0) > 0:
            self.failures[key] -= 1
            raise ConnectionError("receiver is down for now")
        self.sent.append((message.dedupe_key, target.key, text))


class MemoryTargetHealth:
    """`TargetHealth` in memory, with the DynamoDB adapter's rules (infra/target_health.py)."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], dict[str, int | bool]] = {}

    def standing(self, game_id: str, target_keys: Sequence[str]) -> dict[str, TargetStanding]:
        return {
            key: TargetStanding(int(item["failures"]), int(item.get("parked_until", 0)))
            for (game, key), item in self.items.items() if game == game_id and key in target_keys
        }

    def failed(
        self, game_id: str, target_key: str, *, now: float, park_after: int, park_for: int
    ) -> TargetStanding:
        item = self.items.setdefault((game_id, target_key), {"failures": 0})
        item["failures"] = int(item["failures"]) + 1
        parked_until = int(item.get("parked_until", 0))
        if int(item["failures"]) < park_after or parked_until > now:
            return TargetStanding(int(item["failures"]), parked_until)
        first = "noticed" not in item
        item.update(parked_until=int(now) + park_for, noticed=True)
        return TargetStanding(int(item["failures"]), int(item["parked_until"]), first)

    def succeeded(self, game_id: str, target_key: str) -> None:
        self.items.pop((game_id, target_key), None)


class MemoryQueue:
    """`MessageQueue`: keeps what was sent; ``refuse`` makes every send fail."""

    def __init__(self, refuse: bool = False) -> None:
        self.sent: list[OutboxMessage] = []
        self.delays: list[int] = []
        self.refuse = refuse

    def send_messages(self, messages: Sequence[OutboxMessage], delay_seconds: int = 0) -> set[str]:
        if self.refuse:
            return {m.dedupe_key for m in messages}
        self.sent += list(messages)
        self.delays += [delay_seconds] * len(messages)
        return set()


@dataclass
class Deps:
    """Whatever a handler's dependencies() returns; attributes by name."""

    targets: TargetDirectory | None = None
    deliverer: Deliverer | None = None
    log: DeliveryLog | None = None
    health: TargetHealth | None = None
    queue: MessageQueue | None = None


class FakeScheduler:
    def __init__(self) -> None:
        self.schedules: dict[tuple[str, str], datetime] = {}
        self.calls: list[tuple[str, str, str]] = []
        self.reminders: dict[tuple[str, str], datetime] = {}

    def schedule_deadline(self, game_id: str, phase: str, at: datetime) -> str:
        self.calls.append(("schedule", game_id, phase))
        self.schedules[(game_id, phase)] = at
        return f"dl.{game_id}.{phase}.x"

    def delete_deadline(self, game_id: str, phase: str) -> None:
        self.calls.append(("delete", game_id, phase))
        self.schedules.pop((game_id, phase), None)

    def schedule_reminder(self, game_id: str, phase: str, at: datetime) -> str:
        self.reminders[(game_id, phase)] = at
        return f"rm.{game_id}.{phase}.x"

    def delete_reminder(self, game_id: str, phase: str) -> None:
        self.reminders.pop((game_id, phase), None)


class FakeGames:
    """A game that moves through named phases; processing is exactly-once by a phase check."""

    def __init__(
        self, game_id: str, phases: Sequence[str], deadline: datetime | None, status: str = "ACTIVE"
    ):
        self.game_id = game_id
        self.phases = list(phases)
        self.index = 0
        self.deadline = deadline
        self.status = status
        self.adjudicated: list[str] = []
        self.reminded: list[str] = []

    @property
    def phase(self) -> str:
        return self.phases[self.index]

    def process_if_due(self, game_id: str, phase: str, now: datetime) -> Firing:
        """process_turn as the scheduler with ``due_by=now``: one look at the game, then act."""
        if game_id != self.game_id or phase != self.phase or self.status != "ACTIVE" or self.deadline is None:
            return Firing("STALE")
        if self.deadline > now:
            return Firing("NOT_DUE", self.deadline)
        self.adjudicated.append(phase)
        self.index += 1
        self.deadline = None
        return Firing("PROCESSED")

    def overdue(self, now: datetime) -> Sequence[DeadlineInfo]:
        due = self.deadline is not None and self.deadline <= now and self.status == "ACTIVE"
        return [DeadlineInfo(self.game_id, self.phase, self.deadline, self.status)] if due else []

    def remind_if_in_phase(self, game_id: str, phase: str) -> str:
        if game_id != self.game_id or phase != self.phase or self.status != "ACTIVE":
            return "STALE"
        if phase in self.reminded:
            return "ALREADY_SENT"
        self.reminded.append(phase)
        return "SENT"


class MemoryTelegramStore:
    def __init__(self) -> None:
        self.updates: set[int] = set()
        self.codes: dict[str, tuple[Seat, datetime]] = {}
        self.users: dict[int, Seat] = {}
        self.chats: dict[tuple[str, str], dict[int | str, int]] = {}

    def snapshot(self) -> tuple[frozenset[int], int, int]:
        return frozenset(self.updates), len(self.codes), len(self.users)

    def claim_update(self, update_id: int) -> bool:
        if update_id in self.updates:
            return False
        self.updates.add(update_id)
        return True

    def release_update(self, update_id: int) -> None:
        self.updates.discard(update_id)

    def save_link_code(self, code_hash: str, seat: Seat, expires_at: datetime) -> None:
        self.codes[code_hash] = (seat, expires_at)

    def redeem_link_code(self, code_hash: str, now: datetime) -> Seat | None:
        found = self.codes.pop(code_hash, None)
        return found[0] if found and found[1] > now else None

    def link_user(self, user_id: int, seat: Seat) -> None:
        self.users[user_id] = seat

    def seat_of(self, user_id: int) -> Seat | None:
        return self.users.get(user_id)

    def link_chat(self, user_id: int, seat: Seat, chat_id: int | str) -> None:
        self.chats[(seat.game_id, seat.power)] = {**self.chats.get((seat.game_id, seat.power), {}),
                                                  chat_id: user_id}

    def chats_of(self, game_id: str, power: str, linked_since: float = 0.0) -> list[int | str]:
        linked = self.chats.get((game_id, power), {})
        return sorted((c for c, u in linked.items() if self.users.get(u) == Seat(game_id, power)
                       and str(c) == str(u)), key=str)  # the user's private chat only


class FakeGameActions:
    def __init__(self) -> None:
        self.orders: dict[tuple[str, str], list[str]] = {}
        self.submissions = 0
        self.sent: dict[str, tuple[str, str | Sequence[str], str]] = {}

    def submit_orders(self, seat: Seat, orders: Sequence[str]) -> SubmitOutcome:
        self.submissions += 1
        good = tuple(o for o in orders if not o.startswith("X"))
        bad = tuple((o, "unparseable") for o in orders if o.startswith("X"))
        self.orders[(seat.game_id, seat.power)] = list(good)
        return SubmitOutcome("S1901M", good, bad)

    def my_orders(self, seat: Seat) -> tuple[str, Sequence[str]]:
        return "S1901M", self.orders.get((seat.game_id, seat.power), [])

    def orders_status(self, seat: Seat) -> tuple[str, Mapping[str, bool]]:
        return "S1901M", {"FRANCE": (seat.game_id, "FRANCE") in self.orders, "ENGLAND": False}

    def last_resolution(self, seat: Seat) -> Sequence[str]:
        return ["A PAR - BUR: OK"]

    def send_message(
        self, seat: Seat, to: str | Sequence[str], text: str, dedupe_key: str
    ) -> tuple[str, int]:
        self.sent.setdefault(dedupe_key, (seat.power, to, text))
        channel = "ALL" if to == "ALL" else ",".join(sorted({seat.power, *to}))
        return channel, list(self.sent).index(dedupe_key) + 1


class MemoryReplyOutbox:
    """`ReplyOutbox`: text replies and picture replies, each kept once per dedupe key."""

    def __init__(self) -> None:
        self.replies: dict[str, tuple[int | str, str]] = {}
        self.photos: dict[str, tuple[int | str, str, dict[str, str]]] = {}

    def reply(self, chat_id: int | str, text: str, dedupe_key: str) -> None:
        self.replies.setdefault(dedupe_key, (chat_id, text))

    def reply_photo(
        self, chat_id: int | str, caption: str, picture: Mapping[str, str], dedupe_key: str
    ) -> None:
        self.photos.setdefault(dedupe_key, (chat_id, caption, dict(picture)))
