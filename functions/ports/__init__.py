"""The ports: the Protocols the use cases talk through, and every value they exchange.

This is the lowest layer of Convoy's own code after ``engine``: it imports only the
standard library. Use cases take these Protocols, never boto3; the adapters that
implement them (``infra/``: DynamoDB, SQS, Scheduler, webhooks; ``functions/adapters.py``:
adapters over use cases) import this module for the shapes they read and write, and
``composition/wiring.py`` (the one composition root) builds them. Tests pass in-memory fakes.

Import direction (tests/contracts/test_boundaries.py encodes it, without exceptions)::

    local_stack, bench      run everything; nothing of ours imports them
    composition             builds adapters (infra + functions.adapters), the Lambda entry points
    functions.<fn>.handler  handlers: use cases, schemas (their dependencies handed in)
    functions.adapters      ports implemented over the use cases
    functions.usecases      the use cases: ports + engine + functions.errors
    infra                   adapters over AWS: ports + engine, never another functions module
    functions.ports         this module: stdlib only  <- the port layer
    engine                  pure rules: stdlib only

Why the records and the storage errors live here and not in ``infra``: they are the
port's vocabulary (``GameStore.load`` returns a ``GameRecord`` or raises ``ItemNotFound``,
whatever the store), and adapters depend on the port they implement, not the other way
round. So ``infra`` may import ``functions.ports`` and nothing else of ``functions``.

One set of ports in one package: the game's records, storage errors, the game, press,
idempotency, scheduler and rate-counter ports here; the notification path's
(``functions/ports/notifications.py``: ``OutboxMessage``, delivery targets, the notifier's,
deadline function's and bot's ports), accounts' (``functions/ports/accounts.py``) and reaching
players' (``functions/ports/reach.py``) in submodules, imported from where they live (issue 30
item 4: no lazy re-exports; a cold API serving a view imports none of them).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol

JSON = Any

# ---------------------------------------------------------------- stored shapes of a game
# Immutable records are NamedTuples (``_replace``, ``_asdict``, ``_fields``); the records
# changed in place (GameRecord, PowerPress) are dataclasses. On Python 3.11 a frozen
# dataclass compiles six generated methods when it is defined, ~1 ms of every cold start
# apiece (docs/performance.md, cold-start rule 11).


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
    # lifecycle (functions/usecases/turns/lifecycle.py): votes of this phase, per-seat NMR state,
    # when the game first had every seat filled, and how it ended
    votes: dict[str, dict[str, bool]] = field(default_factory=dict)  # power -> {"draw", "concede"}
    seats: dict[str, dict[str, JSON]] = field(default_factory=dict)  # power -> missed/extended/status
    started_at: str | None = None
    result: dict[str, JSON] | None = None
    # accounts (issue 15): the Cognito subject of the signed-in user who created the game
    creator_user_id: str | None = None
    # when a game whose seats are never all taken is forgotten (epoch seconds; DynamoDB's TTL):
    # set by the store when the game is created unstarted, dropped once it starts (issue 28)
    expires_at: int | None = None
    # The store's bookkeeping, not game data: each power's own item as it was read (its version
    # guards the power's next small write; ``apply_turns``), and the key layout of the game's
    # items (1: a game stored before power items; infra/dynamodb/keys.py says what changed).
    turns: dict[str, PowerTurn] = field(default_factory=dict)
    layout: int = 1

    def copy(self) -> GameRecord:
        return copy.deepcopy(self)


class PowerTurn(NamedTuple):
    """One power's own item: what it decided in ``phase`` (its orders, None if it submitted
    none; its wait flag; its draw/concede votes). An order submission, a wait flag or a vote
    writes this item alone, never the whole game record. ``version`` guards it; ``event_seq``
    is the last event its writer appended (the game's event counter is the highest of META's
    and its powers', so a small write needs no META write to number its event)."""

    power: str
    phase: str
    orders: tuple[str, ...] | None = None
    wait: bool = False
    vote: dict[str, bool] | None = None
    version: int = 0
    event_seq: int = 0

    def decided(self, phase: str) -> tuple[tuple[str, ...] | None, bool, dict[str, bool] | None]:
        """(orders, wait, vote) this item holds for ``phase``: nothing for another phase."""
        return (self.orders, self.wait, self.vote or None) if self.phase == phase else (None, False, None)


def apply_turns(game: GameRecord, turns: Sequence[PowerTurn]) -> GameRecord:
    """Fold the powers' own items into ``game`` (read with it, in one query): an item of the
    current phase is what that power decided, and wins over a decision a game stored before
    power items still keeps in META; an item of an earlier phase decides nothing. Returns
    ``game``, changed in place, with ``turns`` holding the items as read."""
    game.turns = {t.power: t for t in turns}
    for turn in turns:
        game.event_seq = max(game.event_seq, turn.event_seq)
        if turn.phase != game.phase:
            continue
        orders, wait, vote = turn.decided(game.phase)
        _set(game.pending_orders, turn.power, list(orders) if orders is not None else None)
        _set(game.wait_flags, turn.power, True if wait else None)
        _set(game.votes, turn.power, dict(vote) if vote else None)
    return game


def _set(found: dict[str, Any], key: str, value: Any) -> None:
    if value is None:
        found.pop(key, None)
    else:
        found[key] = value


def turn_of(game: GameRecord, power: str) -> PowerTurn:
    """The power's item as it must now be stored: its decisions in ``game`` for the current
    phase, with the version it was read at (0: none yet)."""
    read = game.turns.get(power)
    orders = game.pending_orders.get(power)
    vote = game.votes.get(power)
    return PowerTurn(
        power=power, phase=game.phase, orders=tuple(orders) if orders is not None else None,
        wait=bool(game.wait_flags.get(power)), vote=dict(vote) if vote else None,
        version=read.version if read else 0, event_seq=game.event_seq,
    )


def changed_turns(game: GameRecord) -> list[PowerTurn]:
    """The powers whose decisions in ``game`` differ from their stored items (a META write
    that also changes them: a seat opened, a game stored before power items), sorted."""
    powers = set(game.turns) | set(game.pending_orders) | set(game.wait_flags) | set(game.votes)
    changed = []
    for power in sorted(powers):
        wanted = turn_of(game, power)
        read = game.turns.get(power)
        stored = read.decided(game.phase) if read else (None, False, None)
        if wanted.decided(game.phase) != stored:
            changed.append(wanted)
    return changed


class PhaseRecord(NamedTuple):
    """One adjudicated phase, immutable: the state before, every order, the resolution."""

    n: int
    phase: str
    state_before: dict[str, JSON]
    orders: dict[str, list[str]]
    resolution: dict[str, JSON]
    processed_at: str


class EventRecord(NamedTuple):
    """One entry of the game's ordered event log (``seq`` monotonic, no gaps)."""

    seq: int
    type: str
    phase: str
    data: dict[str, JSON]
    at: str


class OutboxRecord(NamedTuple):
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


UNSTARTED_GAME_DAYS = 14  # a game not started this long after its creation is forgotten (docs/api.md)


class GameStore(Protocol):
    """The single game table. Every write is conditional on the version read.

    A game created before its seats are all taken (``started_at`` None) expires
    ``UNSTARTED_GAME_DAYS`` after its creation unless it starts: its META carries the time for
    the table's TTL, and once META is gone ``delete_game`` removes what the game left behind."""

    def load(self, game_id: str) -> GameRecord:
        """The game with its powers' decisions folded in (``apply_turns``), in one read;
        raises ``ItemNotFound``."""
        ...

    def load_with_press(self, game_id: str) -> tuple[GameRecord, dict[str, PowerPress] | None]:
        """The game and its powers' press ledgers in the same read (a player's view); None
        for the ledgers when this store does not keep them (then ask the ``PressStore``)."""
        ...

    def save_turn(self, game: GameRecord, power: str, *, events: Sequence[EventRecord] = ()) -> GameRecord:
        """Write only ``power``'s own item (``turn_of``) and ``events``: ``StaleVersion`` if the
        item moved since it was read, or if any event was written since ``game`` was read
        (its events' numbers are taken), which is how a turn committed meanwhile is noticed."""
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
        """Write META (version becomes expected+1), the powers' items whose decisions changed
        (``changed_turns``), and append items; ``StaleVersion`` if raced."""
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

    def delete_game(self, game_id: str) -> int:
        """Delete every item of the game (after its META expired); how many were deleted."""
        ...

    def due_games(self, now_iso: str, limit: int = 1000) -> list[tuple[str, str, str]]:
        """(game id, phase, deadline) of active, unpaused games whose deadline is at or
        before ``now_iso`` (same ISO format as ``GameRecord.deadline``); any order."""
        ...

    def phases(self, game_id: str, *, after: int = -1, limit: int | None = None) -> list[PhaseRecord]:
        """Adjudicated phases with ``n > after`` (the first is n 0), oldest first; at most
        ``limit`` (None: all)."""
        ...

    def last_phase(self, game_id: str) -> PhaseRecord | None: ...

    def events_after(self, game_id: str, after: int, limit: int = 100) -> list[EventRecord]: ...


# ---------------------------------------------------------------- press (issue 13)


class MessageRecord(NamedTuple):
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


class ChannelRecord(NamedTuple):
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


class InboxEntry(NamedTuple):
    """A message as it sits in one member's inbox: ``n`` is that member's inbox position."""

    n: int
    message: MessageRecord


class PressNotice(NamedTuple):
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


class AttemptCounter(Protocol):
    """Counts attempts per scope in fixed time windows, by conditional writes (issue 11:
    failed joins of private games). Scopes are opaque strings the caller builds."""

    def count(self, scope: str, *, now: float, window: int) -> int:
        """Attempts recorded in the window that holds ``now``."""
        ...

    def add(self, scope: str, *, now: float, window: int, limit: int) -> bool:
        """Record one attempt unless ``limit`` were already recorded; False if refused."""
        ...


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


class IdempotencyRecord(NamedTuple):
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


class DeadlineScheduler(Protocol):
    """One-time schedules that fire the deadline function with {game_id, phase}
    (deadlines) or {game_id, phase, kind: "reminder"} (DEADLINE_APPROACHING)."""

    def schedule_deadline(self, game_id: str, phase: str, at: datetime) -> str: ...

    def delete_deadline(self, game_id: str, phase: str) -> None: ...

    def schedule_reminder(self, game_id: str, phase: str, at: datetime) -> str: ...

    def delete_reminder(self, game_id: str, phase: str) -> None: ...


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
    (``USER_EXISTS``, ``BAD_CREDENTIALS``, ``TOKEN_EXPIRED``, ...; functions/usecases/accounts/accounts.py
    gives each its HTTP status)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# ---------------------------------------------------------------- messages


# The kinds the use cases write (upper case, like event types). Unknown kinds are still
# delivered, with a generic text: a new kind must never turn into a poison message.
PHASE_PROCESSED = "PHASE_PROCESSED"
DEADLINE_APPROACHING = "DEADLINE_APPROACHING"
GAME_ENDED = "GAME_ENDED"
PLAYER_JOINED = "PLAYER_JOINED"
CHAT_REPLY = "CHAT_REPLY"
CHAT_PHOTO = "CHAT_PHOTO"  # a bot answer that is a picture: payload "map" names it, "text" is the caption
