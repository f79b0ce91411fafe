"""In-memory fakes of the ports that reach players (issue 33): small, honest, inspectable."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from functions.ports.notifications import OutboxMessage
from functions.ports.reach import (
    Connection,
    ConnectionGone,
    MailMessage,
    MailRefused,
    PressBatch,
    PushDevice,
    PushGone,
)


class MemoryReachStore:
    def __init__(self) -> None:
        self.prefs: dict[str, dict[str, dict[str, str]]] = {}
        self.device_list: dict[str, dict[str, PushDevice]] = {}
        self.batches: dict[tuple[str, str], PressBatch] = {}
        self.digests: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self.days: dict[str, set[str]] = {}

    def preferences(self, user_id: str) -> dict[str, dict[str, str]]:
        return {c: dict(k) for c, k in self.prefs.get(user_id, {}).items()}

    def save_preferences(self, user_id: str, choices: Mapping[str, Mapping[str, str]]) -> None:
        self.prefs[user_id] = {c: dict(k) for c, k in choices.items()}

    def devices(self, user_id: str) -> list[PushDevice]:
        return sorted(self.device_list.get(user_id, {}).values())

    def add_device(self, user_id: str, device: PushDevice, limit: int) -> bool:
        mine = self.device_list.setdefault(user_id, {})
        if len(mine) >= limit and device.device_id not in mine:
            return False
        mine[device.device_id] = device
        return True

    def remove_device(self, user_id: str, device_id: str) -> None:
        self.device_list.get(user_id, {}).pop(device_id, None)

    def open_press_batch(self, batch: PressBatch) -> bool:
        key = (batch.user_id, batch.game_id)
        if key in self.batches:
            return False
        self.batches[key] = batch
        return True

    def press_batch(self, user_id: str, game_id: str) -> PressBatch | None:
        return self.batches.get((user_id, game_id))

    def close_press_batch(self, user_id: str, game_id: str) -> None:
        self.batches.pop((user_id, game_id), None)

    def add_digest_line(self, user_id: str, day: str, channel: str, line: str) -> None:
        self.digests.setdefault((user_id, day), []).append((channel, line))
        self.days.setdefault(day, set()).add(user_id)

    def digest_users(self, day: str, limit: int) -> list[str]:
        return sorted(self.days.get(day, set()))[:limit]

    def forget_digest_user(self, day: str, user_id: str) -> None:
        self.days.get(day, set()).discard(user_id)

    def digest_lines(self, user_id: str, day: str) -> list[tuple[str, str]]:
        return list(self.digests.get((user_id, day), []))

    def drop_digest(self, user_id: str, day: str) -> None:
        self.digests.pop((user_id, day), None)


class MemoryConnections:
    """The connections table: one entry per (game, connection) subscription."""

    def __init__(self) -> None:
        self.subscriptions: dict[tuple[str, str], Connection] = {}

    def subscribe(self, connection: Connection, game_id: str) -> None:
        self.subscriptions[(game_id, connection.connection_id)] = connection._replace(game_id=game_id)

    def forget(self, game_id: str, connection_id: str) -> None:
        self.subscriptions.pop((game_id, connection_id), None)

    def of_game(self, game_id: str, now: float) -> list[Connection]:
        return sorted((c for (g, _), c in self.subscriptions.items() if g == game_id and c.expires_at > now),
                      key=lambda c: c.connection_id)


class RecordingPoster:
    def __init__(self, gone: set[str] | None = None) -> None:
        self.frames: list[tuple[str, bytes]] = []
        self.gone = gone or set()

    def post(self, connection_id: str, data: bytes) -> None:
        if connection_id in self.gone:
            raise ConnectionGone(connection_id)
        self.frames.append((connection_id, data))


class RecordingMail:
    def __init__(self, fail: int = 0, refuse: set[str] | None = None) -> None:
        self.sent: list[MailMessage] = []
        self.fail = fail
        self.refuse = refuse or set()

    def send(self, message: MailMessage) -> str:
        if message.to in self.refuse:
            raise MailRefused("MessageRejected")
        if self.fail > 0:
            self.fail -= 1
            raise ConnectionError("SES is busy")
        self.sent.append(message)
        return f"m{len(self.sent)}"


@dataclass
class Contacts:
    addresses: dict[str, str] = field(default_factory=dict)

    def email_of(self, user_id: str) -> str | None:
        return self.addresses.get(user_id)


class RecordingPush:
    def __init__(self, gone: set[str] | None = None) -> None:
        self.sent: list[tuple[str, bytes]] = []
        self.gone = gone or set()

    def send(self, device: PushDevice, payload: bytes, *, ttl: int, timeout: float) -> None:
        if device.endpoint in self.gone:
            raise PushGone(device.device_id)
        self.sent.append((device.device_id, payload))

    def public_key(self) -> str:
        return "BPublicKey"


class DelayedMemoryQueue:
    def __init__(self) -> None:
        self.later: list[tuple[OutboxMessage, int]] = []

    def send_later(self, message: OutboxMessage, delay_seconds: int) -> None:
        self.later.append((message, delay_seconds))
