"""The ports: the Protocols the use cases talk through, and every value they exchange.

This is the lowest layer of Convoy's own code after ``engine``: it imports only the
standard library. Use cases take these Protocols, never boto3; the adapters that
implement them (``infra/``: DynamoDB, SQS, Scheduler, webhooks; ``functions/adapters.py``:
adapters over use cases) import this module for the shapes they read and write, and
``functions/wiring.py`` (the one composition root) builds them. Tests pass in-memory fakes.

Import direction (tests/contracts/test_boundaries.py encodes it, without exceptions)::

    local_stack, bench      compose everything; nothing of ours imports them
    functions.wiring        builds adapters: infra + functions.adapters
    functions.<fn>.handler  handlers: use cases, schemas, wiring
    functions.adapters      ports implemented over the use cases
    functions.usecases      the use cases: ports + engine + functions.errors
    infra                   adapters over AWS: ports + engine, never another functions module
    functions.ports         this module: stdlib only  <- the port layer
    engine                  pure rules: stdlib only

Why the records and the storage errors live here and not in ``infra``: they are the
port's vocabulary (``GameStore.load`` returns a ``GameRecord`` or raises ``ItemNotFound``,
whatever the store), and adapters depend on the port they implement, not the other way
round. So ``infra`` may import ``functions.ports`` and nothing else of ``functions``.

Message shape: an ``OutboxMessage`` is what travels OUTBOX item -> stream -> relay ->
SQS -> notifier. Its ``dedupe_key`` (``<pk>|<sk>`` of the OUTBOX item) is stable across
redeliveries, so the notifier can refuse to notify twice.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

JSON = Any

# ---------------------------------------------------------------- stored shapes of a game


@dataclass
class GameRecord:
    """The META item: the live game. Bounded in size: history lives in PhaseRecords."""

    game_id: str
    variant: str
    rules: str
    created_at: str
    creator_token_hash: str
    state: dict[str, JSON]
    phase: str
    phase_started_at: str
    status: str = "ACTIVE"
    version: int = 0
    phase_index: int = 0  # how many phases were adjudicated
    event_seq: int = 0  # seq of the last event written
    outbox_seq: int = 0
    pending_orders: dict[str, list[str]] = field(default_factory=dict)
    players: dict[str, dict[str, JSON]] = field(default_factory=dict)
    settings: dict[str, JSON] = field(default_factory=dict)
    deadline: str | None = None
    wait_flags: dict[str, bool] = field(default_factory=dict)  # power -> raised; cleared each phase
    paused: bool = False  # the deadline clock is stopped (no schedule)
    paused_remaining: int | None = None  # whole seconds that were left when paused
    reminded_phase: str | None = None  # the last phase whose DEADLINE_APPROACHING was written
    # lifecycle (functions/usecases/lifecycle.py): votes of this phase, per-seat NMR state,
    # when the game first had every seat filled, and how it ended
    votes: dict[str, dict[str, bool]] = field(default_factory=dict)  # power -> {"draw", "concede"}
    seats: dict[str, dict[str, JSON]] = field(default_factory=dict)  # power -> missed/extended/status
    started_at: str | None = None
    result: dict[str, JSON] | None = None
    # accounts (issue 15): the Cognito subject of the signed-in user who created the game
    creator_user_id: str | None = None

    def copy(self) -> GameRecord:
        return copy.deepcopy(self)


@dataclass(frozen=True)
class PhaseRecord:
    """One adjudicated phase, immutable: the state before, every order, the resolution."""

    n: int
    phase: str
    state_before: dict[str, JSON]
    orders: dict[str, list[str]]
    resolution: dict[str, JSON]
    processed_at: str


@dataclass(frozen=True)
class EventRecord:
    """One entry of the game's ordered event log (``seq`` monotonic, no gaps)."""

    seq: int
    type: str
    phase: str
    data: dict[str, JSON]
    at: str


@dataclass(frozen=True)
class OutboxRecord:
    """A notification to deliver, committed with the state change that caused it."""

    seq: int
    kind: str
    game_id: str
    dedupe_key: str
    payload: dict[str, JSON]


# ---------------------------------------------------------------- storage errors
# Adapters translate their own failures (botocore ClientError: infra/errors.py) into these;
# use cases and fakes raise and catch the same classes.


class StorageError(Exception):
    """A storage operation failed for a reason the caller cannot fix by retrying."""


class StorageUnavailable(StorageError):
    """The store could not be reached, timed out or throttled us: nothing was decided,
    and the same request (same Idempotency-Key) may simply be sent again."""


class StaleVersion(StorageError):
    """Someone else wrote the game first: the version we read is no longer current."""

    def __init__(self, game_id: str, expected_version: int) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version


class ItemNotFound(StorageError):
    """The game (or item) does not exist."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id} not found")
        self.game_id = game_id


class AlreadyExists(StorageError):
    """A create found an item already there (id collision)."""


# ---------------------------------------------------------------- the game store


class GameStore(Protocol):
    """The single game table. Every write is conditional on the version read."""

    def load(self, game_id: str) -> GameRecord:
        """The META item; raises ``ItemNotFound``."""
        ...

    def create(
        self, game: GameRecord, events: Sequence[EventRecord] = (), outbox: Sequence[OutboxRecord] = ()
    ) -> GameRecord: ...

    def save(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        """Write META (version becomes expected+1) and append items; ``StaleVersion`` if raced."""
        ...

    def commit_turn(
        self,
        game: GameRecord,
        *,
        expected_version: int,
        phase: PhaseRecord,
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        """META + PHASE + EVENTs + OUTBOX, all or nothing; ``StaleVersion`` if raced."""
        ...

    def list_games(self, limit: int = 50) -> list[GameRecord]: ...

    def due_games(self, now_iso: str, limit: int = 1000) -> list[tuple[str, str, str]]:
        """(game id, phase, deadline) of active, unpaused games whose deadline is at or
        before ``now_iso`` (same ISO format as ``GameRecord.deadline``); any order."""
        ...

    def phases(self, game_id: str) -> list[PhaseRecord]: ...

    def last_phase(self, game_id: str) -> PhaseRecord | None: ...

    def events_after(self, game_id: str, after: int, limit: int = 100) -> list[EventRecord]: ...


# ---------------------------------------------------------------- press (issue 13)


@dataclass(frozen=True)
class MessageRecord:
    """One message of one channel; ``seq`` counts within the channel (1, 2, ...)."""

    message_id: str
    channel: str
    seq: int
    sender: str
    members: tuple[str, ...]
    text: str
    sent_at: str
    phase: str
    client_timestamp: str | None = None


@dataclass(frozen=True)
class ChannelRecord:
    """A channel: its members, its last seq and a copy of its last message."""

    channel: str
    members: tuple[str, ...]
    last_seq: int = 0
    opened_by: str | None = None
    opened_at: str | None = None
    last: MessageRecord | None = None


@dataclass
class PowerPress:
    """One power's press ledger in one game: its inbox counter, read marks, limits.

    ``channels`` maps channel -> {"last": last seq seen there, "read": read up to};
    unread of a channel is ``last - read``. ``version`` guards every write.
    """

    power: str
    version: int = 0
    inbox_seq: int = 0
    channels: dict[str, dict[str, int]] = field(default_factory=dict)
    opened: int = 0  # channels this power opened (the channel cap counts these)
    rate_window: int = 0  # epoch second the current rate window began
    rate_count: int = 0  # messages sent in that window

    def unread(self, channel: str) -> int:
        marks = self.channels.get(channel) or {}
        return max(0, int(marks.get("last", 0)) - int(marks.get("read", 0)))

    def unread_total(self) -> int:
        return sum(self.unread(c) for c in self.channels)


@dataclass(frozen=True)
class InboxEntry:
    """A message as it sits in one member's inbox: ``n`` is that member's inbox position."""

    n: int
    message: MessageRecord


@dataclass(frozen=True)
class PressNotice:
    """A notification a message causes, written with the message (an OUTBOX item).

    ``target`` set: only that chat gets it (a recipient's linked Telegram chat, with the
    text); unset: the game's own targets get it (webhooks: never private text).
    """

    kind: str
    dedupe_key: str
    payload: dict[str, JSON]
    target: dict[str, JSON] | None = None


class PressStore(Protocol):
    """Press under the game's partition (infra/dynamodb/press_store.py says how it is keyed)."""

    def ledger(self, game_id: str, power: str) -> PowerPress:
        """The power's ledger; a fresh one (version 0) before its first message."""
        ...

    def ledgers(self, game_id: str, powers: Sequence[str]) -> dict[str, PowerPress]: ...

    def channel(self, game_id: str, channel: str) -> ChannelRecord | None: ...

    def channels(self, game_id: str, names: Sequence[str]) -> list[ChannelRecord]: ...

    def applied(self, game_id: str, dedupe_key: str) -> dict[str, Any] | None:
        """The answer of a send already applied under ``dedupe_key``, if any."""
        ...

    def inbox(self, game_id: str, power: str, after: int, limit: int) -> list[InboxEntry]:
        """The power's inbox after position ``after``, oldest first: one range read."""
        ...

    def channel_messages(self, game_id: str, channel: str, after: int, limit: int) -> list[MessageRecord]: ...

    def commit_message(
        self,
        game_id: str,
        *,
        message: MessageRecord,
        channel: ChannelRecord,
        expected_last_seq: int,
        ledgers: Sequence[tuple[PowerPress, int]],
        notices: Sequence[PressNotice] = (),
        dedupe_key: str | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """Channel + message + members' inboxes and ledgers + notices, all or nothing;
        ``StaleVersion`` when the channel's seq or any ledger's version moved."""
        ...

    def save_ledger(self, game_id: str, ledger: PowerPress, *, expected_version: int) -> PowerPress: ...


class PowerChats(Protocol):
    """Where a power's own notices go: the chats its player linked (Telegram ``/link``)."""

    def chats_of(self, game_id: str, power: str, linked_since: float = 0.0) -> list[int | str]:
        """Chats linked since ``linked_since`` (epoch seconds: when the seat's player joined)."""
        ...


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


# ---------------------------------------------------------------- idempotent intents

IN_PROGRESS = "IN_PROGRESS"
COMPLETED = "COMPLETED"


@dataclass(frozen=True)
class IdempotencyRecord:
    """What is remembered of one Idempotency-Key (scoped): its payload hash and, once done, the answer."""

    status: str  # IN_PROGRESS or COMPLETED
    payload_hash: str
    outcome: Mapping[str, Any] | None = None  # {"status": int, "body": JSON} when COMPLETED


class IdempotencyStore(Protocol):
    """Conditional writes that let exactly one request per key apply its intent."""

    def claim(
        self, key: str, payload_hash: str, *, now: int, in_progress_until: int, expires_at: int
    ) -> IdempotencyRecord | None:
        """Write an IN_PROGRESS record unless a live one exists: None if this caller now holds
        the key, else the record that is there (a record past ``expires_at``, or IN_PROGRESS
        past ``in_progress_until``, counts as absent)."""
        ...

    def complete(self, key: str, outcome: Mapping[str, Any], *, expires_at: int) -> None:
        """Remember the answer; later claims of ``key`` get it back."""
        ...

    def release(self, key: str) -> None:
        """Forget the claim (the intent failed), so the same key may be sent again."""
        ...


# ---------------------------------------------------------------- messages


# The kinds the use cases write (upper case, like event types). Unknown kinds are still
# delivered, with a generic text: a new kind must never turn into a poison message.
PHASE_PROCESSED = "PHASE_PROCESSED"
DEADLINE_APPROACHING = "DEADLINE_APPROACHING"
GAME_ENDED = "GAME_ENDED"
PLAYER_JOINED = "PLAYER_JOINED"
CHAT_REPLY = "CHAT_REPLY"
CHAT_PHOTO = "CHAT_PHOTO"  # a bot answer that is a picture: payload "map" names it, "text" is the caption


@dataclass(frozen=True)
class OutboxMessage:
    """One notification to deliver; `target` set means "only to this chat" (a bot reply)."""

    dedupe_key: str
    kind: str
    game_id: str | None = None
    payload: Mapping[str, Any] = field(default_factory=dict)
    target: DeliveryTarget | None = None

    def to_json(self) -> str:
        """Serialize for the queue; sorted keys so equal messages are equal bytes."""
        body: dict[str, Any] = {
            "dedupe_key": self.dedupe_key,
            "kind": self.kind,
            "game_id": self.game_id,
            "payload": dict(self.payload),
            "target": target_to_dict(self.target) if self.target else None,
        }
        return json.dumps(body, sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> OutboxMessage:
        """Parse a queue body; raises ValueError on anything malformed (a poison message)."""
        raw = json.loads(text)
        if not isinstance(raw, dict):
            raise ValueError("message body is not an object")
        key, kind = raw.get("dedupe_key"), raw.get("kind")
        if not isinstance(key, str) or not key or not isinstance(kind, str) or not kind:
            raise ValueError(f"bad message: dedupe_key={key!r} kind={kind!r}")
        payload = raw.get("payload") or {}
        if not isinstance(payload, dict):
            raise ValueError("payload is not an object")
        target = raw.get("target")
        return cls(
            dedupe_key=key,
            kind=kind.upper(),
            game_id=raw.get("game_id"),
            payload=payload,
            target=target_from_dict(target) if target else None,
        )


# ---------------------------------------------------------------- delivery targets


@dataclass(frozen=True)
class WebhookTarget:
    """A generic HTTPS webhook; bodies are signed with the game's `secret` (docs/notifications.md)."""

    url: str
    secret: str
    type: Literal["webhook"] = "webhook"

    @property
    def key(self) -> str:
        """Identity for the delivery log (never contains the secret)."""
        return f"webhook:{self.url}"


@dataclass(frozen=True)
class DiscordTarget:
    """A Discord channel webhook URL."""

    url: str
    type: Literal["discord"] = "discord"

    @property
    def key(self) -> str:
        return f"discord:{self.url}"


@dataclass(frozen=True)
class TelegramTarget:
    """A Telegram chat; the bot token is a deployment setting, not per game."""

    chat_id: int | str
    type: Literal["telegram"] = "telegram"

    @property
    def key(self) -> str:
        return f"telegram:{self.chat_id}"


DeliveryTarget = WebhookTarget | DiscordTarget | TelegramTarget


def target_to_dict(target: DeliveryTarget) -> dict[str, Any]:
    """Plain dict form, as stored in game settings and carried on bot replies."""
    if isinstance(target, WebhookTarget):
        return {"type": "webhook", "url": target.url, "secret": target.secret}
    if isinstance(target, DiscordTarget):
        return {"type": "discord", "url": target.url}
    return {"type": "telegram", "chat_id": target.chat_id}


def target_from_dict(raw: Mapping[str, Any]) -> DeliveryTarget:
    """Inverse of `target_to_dict`; ValueError for an unknown or incomplete target."""
    kind = raw.get("type")
    if kind == "webhook" and isinstance(raw.get("url"), str) and isinstance(raw.get("secret"), str):
        return WebhookTarget(url=raw["url"], secret=raw["secret"])
    if kind == "discord" and isinstance(raw.get("url"), str):
        return DiscordTarget(url=raw["url"])
    if kind == "telegram" and isinstance(raw.get("chat_id"), int | str):
        return TelegramTarget(chat_id=raw["chat_id"])
    raise ValueError(f"bad delivery target: {dict(raw)!r}")


# ---------------------------------------------------------------- notifier ports


class Deliverer(Protocol):
    """Sends one rendered text to one target; raises `infra.webhooks.DeliveryError` on failure."""

    def deliver(self, target: DeliveryTarget, message: OutboxMessage, text: str) -> None: ...


class DeliveryLog(Protocol):
    """Remembers (dedupe_key, target) pairs already delivered, so a redelivery sends nothing."""

    def was_delivered(self, dedupe_key: str, target_key: str) -> bool: ...

    def mark_delivered(self, dedupe_key: str, target_key: str) -> None: ...


class TargetDirectory(Protocol):
    """Where a game's notifications go (its configured webhook / Discord / Telegram targets)."""

    def targets_for(self, game_id: str) -> Sequence[DeliveryTarget]: ...


class MessageQueue(Protocol):
    """The relay's outlet: sends messages, returns the dedupe keys that could NOT be sent."""

    def send_messages(self, messages: Sequence[OutboxMessage]) -> set[str]: ...


# ---------------------------------------------------------------- deadline ports


@dataclass(frozen=True)
class DeadlineInfo:
    """What the deadline logic needs to know of a game: its phase, deadline and status."""

    game_id: str
    phase: str
    deadline: datetime | None
    status: str  # "ACTIVE", "PAUSED", "FINISHED", ... only "ACTIVE" games are processed


class DeadlineScheduler(Protocol):
    """One-time schedules that fire the deadline function with {game_id, phase}
    (deadlines) or {game_id, phase, kind: "reminder"} (DEADLINE_APPROACHING)."""

    def schedule_deadline(self, game_id: str, phase: str, at: datetime) -> str: ...

    def delete_deadline(self, game_id: str, phase: str) -> None: ...

    def schedule_reminder(self, game_id: str, phase: str, at: datetime) -> str: ...

    def delete_reminder(self, game_id: str, phase: str) -> None: ...


class DeadlineGames(Protocol):
    """The slice of the game store + process_turn that deadlines use."""

    def deadline_info(self, game_id: str) -> DeadlineInfo | None: ...

    def process_if_in_phase(self, game_id: str, phase: str) -> bool:
        """Adjudicate `phase` if the game is still in it; False if someone else already did."""
        ...

    def overdue(self, now: datetime) -> Sequence[DeadlineInfo]:
        """Active games whose deadline is <= now (the sweeper's backstop query)."""
        ...

    def remind_if_in_phase(self, game_id: str, phase: str) -> str:
        """Write the phase's DEADLINE_APPROACHING notice at most once; returns the outcome's name."""
        ...


# ---------------------------------------------------------------- Telegram ports


@dataclass(frozen=True)
class Seat:
    """A linked chat user: which power of which game they play, and where to answer."""

    game_id: str
    power: str


@dataclass(frozen=True)
class SubmitOutcome:
    phase: str
    accepted: tuple[str, ...]
    rejected: tuple[tuple[str, str], ...]  # (order, message)


class TelegramStore(Protocol):
    """Bot bookkeeping: seen update ids, one-time link codes, and who plays which seat."""

    def claim_update(self, update_id: int) -> bool:
        """True the first time an update id is seen, False for a redelivery."""
        ...

    def release_update(self, update_id: int) -> None:
        """Forget a claim so Telegram's retry is processed (used when handling failed)."""
        ...

    def save_link_code(self, code_hash: str, seat: Seat, expires_at: datetime) -> None: ...

    def redeem_link_code(self, code_hash: str, now: datetime) -> Seat | None:
        """Consume a link code exactly once; None if unknown, used or expired."""
        ...

    def link_user(self, user_id: int, seat: Seat) -> None: ...

    def seat_of(self, user_id: int) -> Seat | None: ...

    def link_chat(self, user_id: int, seat: Seat, chat_id: int | str) -> None:
        """The chat the user linked from: the seat's press is relayed there (issue 13)."""
        ...

    def chats_of(self, game_id: str, power: str, linked_since: float = 0.0) -> list[int | str]:
        """Chats of users who still play this seat, linked since its player joined (PowerChats)."""
        ...


class GameActions(Protocol):
    """What a player can do through the bot (the same use cases as the REST API)."""

    def submit_orders(self, seat: Seat, orders: Sequence[str]) -> SubmitOutcome: ...

    def my_orders(self, seat: Seat) -> tuple[str, Sequence[str]]: ...

    def orders_status(self, seat: Seat) -> tuple[str, Mapping[str, bool]]: ...

    def last_resolution(self, seat: Seat) -> Sequence[str]: ...

    def send_message(
        self, seat: Seat, to: str | Sequence[str], text: str, dedupe_key: str
    ) -> tuple[str, int]:
        """Press from the bot (``/msg``): the channel and seq; a repeated ``dedupe_key`` sends once."""
        ...


class ReplyOutbox(Protocol):
    """Writes a bot answer as an OUTBOX item, so it goes out through the notifier like the rest."""

    def reply(self, chat_id: int | str, text: str, dedupe_key: str) -> None: ...

    def reply_photo(
        self, chat_id: int | str, caption: str, picture: Mapping[str, str], dedupe_key: str
    ) -> None:
        """A picture answer (``/map``). Only a reference travels (``picture``: game_id, power):
        the PNG is drawn when the notifier delivers it, as outbox items are small."""
        ...


# --- per-caller request counters (issue 19: the sandbox's rate limit) ------------------------


class RateCounter(Protocol):
    """Fixed-window request counters, one per (caller key, window): the policy (limit, window
    length, who the caller is) belongs to the use case; the store only counts, atomically."""

    def take(self, key: str, window_start: int, limit: int, expires_at: int) -> bool:
        """Count one request against ``key``'s window starting at ``window_start`` (epoch s)
        unless it has reached ``limit`` already; True if counted. Two racing callers never
        both take the last slot. ``expires_at``: when the counter may be forgotten."""
        ...


# ---------------------------------------------------------------- accounts (issue 15, docs/accounts.md)


class IdentityRejected(Exception):
    """The identity service or a token check said no: ``code`` is the stable API code
    (``USER_EXISTS``, ``BAD_CREDENTIALS``, ``TOKEN_EXPIRED``, ...; functions/usecases/accounts.py
    gives each its HTTP status)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class SignedUp:
    user_id: str  # the Cognito subject (``sub``)
    confirmed: bool  # True when the pool confirmed the user at once (a pre-sign-up trigger)


@dataclass(frozen=True)
class AuthTokens:
    id_token: str
    access_token: str
    expires_in: int
    refresh_token: str | None = None  # only sign-in issues one


class IdentityProvider(Protocol):
    """The user pool (Amazon Cognito; moto's cognito-idp locally): infra/cognito.py.
    Every refusal is an ``IdentityRejected``."""

    def sign_up(self, email: str, password: str, display_name: str) -> SignedUp: ...

    def confirm(self, email: str, code: str) -> None: ...

    def sign_in(self, email: str, password: str) -> AuthTokens: ...

    def refresh(self, refresh_token: str) -> AuthTokens: ...


class TokenVerifier(Protocol):
    """Checks a pool's JWT completely (signature on the cached JWKS, issuer, audience, expiry,
    ``token_use``) and returns its claims; ``IdentityRejected`` with a ``TOKEN_*`` code if not."""

    def verify(self, token: str) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Profile:
    user_id: str
    display_name: str
    created_at: str


class AccountStore(Protocol):
    """Profiles and the user -> games index (infra/dynamodb/account_store.py). The index only
    says where to look: a game's META is the truth about who holds its seats."""

    def profile(self, user_id: str) -> Profile | None: ...

    def save_profile(self, profile: Profile) -> None: ...

    def remember_game(self, user_id: str, game_id: str, at: str) -> None:
        """Idempotent: the user has (or is about to have) a seat or the creator's rights in the game."""
        ...

    def games_of(self, user_id: str, limit: int = 100) -> list[str]:
        """Game ids remembered for the user, newest first."""
        ...

    def link_telegram(self, telegram_user_id: int, user_id: str) -> None:
        """The Telegram user linked a seat of this account (the bot's /games lists its games)."""
        ...

    def telegram_account(self, telegram_user_id: int) -> str | None: ...
