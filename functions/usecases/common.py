"""What the use cases share: identity, secrets, the engine bridge, events, retries.

The engine is used only through its façade (``import engine``). Maps are cached
per variant (they are immutable values).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar

import engine
from functions.errors import (
    Conflict,
    Forbidden,
    GameNotActive,
    GameNotFound,
    NotAPlayer,
    UnknownVariant,
    WrongGameKind,
)
from functions.ports import (
    EventRecord,
    GameRecord,
    GameStore,
    ItemNotFound,
    OutboxRecord,
    PowerPress,
    StaleVersion,
)
from functions.usecases.deadline_grid import grid_deadline

T = TypeVar("T")
MAX_ATTEMPTS = 8


# --- identity and secrets ------------------------------------------------------------------


class Actor(NamedTuple):
    """Who is calling: a seated ``player`` (with ``power``), the game's ``creator``,
    the ``operator`` (env token), the deadline ``scheduler``, or ``anonymous``; a signed-in
    account (issue 15) with no role in the game is a ``user`` (an observer who is known).
    ``creator`` is also set on a signed-in player whose account created the game: the
    creator's rights follow the account (functions/usecases/accounts.py)."""

    kind: str
    power: str | None = None
    creator: bool = False
    user_id: str | None = None  # the account's Cognito subject, when signed in

    @property
    def is_creator(self) -> bool:
        return self.kind == "creator" or self.creator

    @property
    def controls(self) -> bool:
        """May pause, resume, extend, open seats, choose dummies: the creator or the operator."""
        return self.is_creator or self.kind == "operator"

    @property
    def may_process(self) -> bool:
        return self.is_creator or self.kind in ("operator", "scheduler")


ANONYMOUS = Actor("anonymous")
SCHEDULER = Actor("scheduler")


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> dict[str, str]:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    return {"salt": salt.hex(), "hash": digest.hex(), "kdf": "scrypt-n14-r8-p1"}


def check_password(password: str, stored: dict[str, str]) -> bool:
    salt = bytes.fromhex(stored["salt"])
    digest = hashlib.scrypt(password.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    return hmac.compare_digest(digest.hex(), stored["hash"])


def identify(game: GameRecord, token: str | None, operator_token: str | None = None) -> Actor:
    """The actor a bearer token stands for in ``game`` (constant-time comparisons)."""
    if not token:
        return ANONYMOUS
    return identify_digest(game, hash_token(token), hash_token(operator_token) if operator_token else None)


def identify_digest(game: GameRecord, digest: str, operator_digest: str | None = None) -> Actor:
    """``identify`` for a token known only by its SHA-256 (a live connection keeps the hash of
    the token it opened with, never the token: functions/usecases/live_updates.py)."""
    if operator_digest and hmac.compare_digest(digest, operator_digest):
        return Actor("operator")
    if hmac.compare_digest(digest, game.creator_token_hash):
        return Actor("creator")
    found: str | None = None
    for power, player in sorted(game.players.items()):
        if hmac.compare_digest(digest, str(player.get("token_hash", ""))):
            found = power
    if found is not None:
        return Actor("player", found)
    raise NotAPlayer("this token is not valid for this game")


def require_player(actor: Actor) -> str:
    if actor.kind == "anonymous":
        raise NotAPlayer("an Authorization: Bearer <player token> header is required")
    if actor.kind != "player" or actor.power is None:
        raise Forbidden("only a seated player may do this (the creator token is not a player token)")
    return actor.power


# --- engine bridge -------------------------------------------------------------------------


DIPLOMACY = "diplomacy"  # the kind of a record without settings["game"] (usecases/game_kinds.py)


def kind_name(game: GameRecord) -> str:
    return str(game.settings.get("game") or DIPLOMACY)


@lru_cache(maxsize=8)
def game_map(variant: str) -> engine.MapData:
    try:
        return engine.load_map(variant)
    except (KeyError, FileNotFoundError, engine.MapDataError, ValueError) as exc:
        raise UnknownVariant(f"unknown variant {variant!r}") from exc


def state_of(game: GameRecord) -> engine.GameState:
    """The Diplomacy state of ``game``; another kind of game is ``WRONG_GAME_KIND`` (409), so every
    Diplomacy-only call (orders, process_turn, ...) refuses, say, a backgammon game cleanly."""
    if kind_name(game) != DIPLOMACY:
        raise WrongGameKind(f"game {game.game_id} is {kind_name(game)}: this call is for Diplomacy games")
    return engine.state_from_dict(game.state)


def order_key(order: engine.Order) -> str:
    """Orders of one power are keyed by the province they concern (unit or build site)."""
    where = getattr(order, "unit", None) or getattr(order, "location", None)
    return where.province if where is not None else f"{order.order_type}"


# --- loading, events, outbox ---------------------------------------------------------------


def load(store: GameStore, game_id: str) -> GameRecord:
    try:
        return store.load(game_id)
    except ItemNotFound as exc:
        raise GameNotFound(f"no game {game_id!r}") from exc


def load_with_press(store: GameStore, game_id: str) -> tuple[GameRecord, dict[str, PowerPress] | None]:
    """The game and its powers' press ledgers, in one read (a player's view)."""
    try:
        return store.load_with_press(game_id)
    except ItemNotFound as exc:
        raise GameNotFound(f"no game {game_id!r}") from exc


def load_active(store: GameStore, game_id: str) -> GameRecord:
    """The game, for a change: ``GAME_NOT_FOUND`` if absent, ``GAME_NOT_ACTIVE`` once it is over."""
    game = load(store, game_id)
    if game.status != "ACTIVE":
        raise GameNotActive("the game is over")
    return game


def iso(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def deadline_for(game: GameRecord, phase_type: str, now: datetime) -> str | None:
    """The deadline of a phase starting ``now``: on the ``deadline_at`` grid if the game has
    one (functions/usecases/deadline_grid.py), else ``phase_seconds`` later, else none."""
    grid = game.settings.get("deadline_at")
    if grid:
        return iso(grid_deadline(grid, phase_type, now))
    seconds = (game.settings.get("phase_seconds") or {}).get(phase_type)
    return iso(now + timedelta(seconds=int(seconds))) if seconds else None


def add_event(
    game: GameRecord, type_: str, data: dict[str, Any], at: datetime, phase: str | None = None
) -> EventRecord:
    """Next event of ``game`` (bumps ``event_seq`` on the working copy)."""
    game.event_seq += 1
    return EventRecord(seq=game.event_seq, type=type_, phase=phase or game.phase, data=data, at=iso(at))


def add_outbox(game: GameRecord, kind: str, payload: dict[str, Any], dedupe: str) -> OutboxRecord:
    game.outbox_seq += 1
    return OutboxRecord(
        seq=game.outbox_seq,
        kind=kind,
        game_id=game.game_id,
        dedupe_key=f"{game.game_id}:{dedupe}",
        payload=payload,
    )


def retrying(attempt: Callable[[], T], attempts: int = MAX_ATTEMPTS) -> T:
    """Run load-modify-save ``attempt`` again while another writer wins the race."""
    for _ in range(attempts):
        try:
            return attempt()
        except StaleVersion:
            continue
    raise Conflict("the game kept changing under this request; retry it")
