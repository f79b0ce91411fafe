"""The ports: the Protocols the use cases talk through, and every value they exchange.

The lowest layer of Convoy's own code after ``engine``: standard library only. Use cases take
these Protocols, never boto3; the adapters (``infra/``; ``functions/adapters.py``) implement
them and ``composition/`` builds them; tests pass in-memory fakes. The records and the
storage errors live here, not in ``infra``: they are the port's vocabulary (``GameStore.load``
returns a ``GameRecord`` or raises ``ItemNotFound``, whatever the store), and an adapter
depends on the port it implements (docs/architecture.md, "Why the ports sit below infra").

This module holds the game's records and store; the storage errors, press and what requests
lean on (clock, idempotency, schedules, counters) are submodules whose names it exports too.
The notification path's ports (``notifications``), accounts' and reaching players' are
imported from their own submodules (issue 30 item 4: no lazy re-exports; a cold API serving a
view imports none of them).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from functions.ports.identity_errors import IdentityRejected as IdentityRejected
from functions.ports.press import ChannelRecord as ChannelRecord
from functions.ports.press import InboxEntry as InboxEntry
from functions.ports.press import MessageRecord as MessageRecord
from functions.ports.press import PowerPress as PowerPress
from functions.ports.press import PressNotice as PressNotice
from functions.ports.press import PressStore as PressStore
from functions.ports.services import COMPLETED as COMPLETED
from functions.ports.services import IN_PROGRESS as IN_PROGRESS
from functions.ports.services import AttemptCounter as AttemptCounter
from functions.ports.services import Clock as Clock
from functions.ports.services import DeadlineScheduler as DeadlineScheduler
from functions.ports.services import IdempotencyRecord as IdempotencyRecord
from functions.ports.services import IdempotencyStore as IdempotencyStore
from functions.ports.services import PowerChats as PowerChats
from functions.ports.services import RateCounter as RateCounter
from functions.ports.services import SystemClock as SystemClock
from functions.ports.storage_errors import AlreadyExists as AlreadyExists
from functions.ports.storage_errors import ItemNotFound as ItemNotFound
from functions.ports.storage_errors import StaleVersion as StaleVersion
from functions.ports.storage_errors import StorageError as StorageError
from functions.ports.storage_errors import StorageUnavailable as StorageUnavailable

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
        phases: Sequence[PhaseRecord] = (),
        events: Sequence[EventRecord] = (),
        outbox: Sequence[OutboxRecord] = (),
    ) -> GameRecord:
        """META + PHASEs + EVENTs + OUTBOX, all or nothing; ``StaleVersion`` if raced. A turn
        writes its phase and those nobody can order that follow it (none: a moved deadline)."""
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


# ---------------------------------------------------------------- messages


# The kinds the use cases write (upper case, like event types). Unknown kinds are still
# delivered, with a generic text: a new kind must never turn into a poison message.
PHASE_PROCESSED = "PHASE_PROCESSED"
DEADLINE_APPROACHING = "DEADLINE_APPROACHING"
GAME_ENDED = "GAME_ENDED"
PLAYER_JOINED = "PLAYER_JOINED"
CHAT_REPLY = "CHAT_REPLY"
CHAT_PHOTO = "CHAT_PHOTO"  # a bot answer that is a picture: payload "map" names it, "text" is the caption
