"""Who is calling, in a game: a seat, the creator, the operator, the scheduler or nobody, told
apart by the hash of a bearer token; and the tokens and passwords themselves."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import NamedTuple

from functions.errors import Forbidden, NotAPlayer
from functions.ports import GameRecord


class Actor(NamedTuple):
    """Who is calling: a seated ``player`` (with ``power``), the game's ``creator``,
    the ``operator`` (env token), the deadline ``scheduler``, or ``anonymous``; a signed-in
    account (issue 15) with no role in the game is a ``user`` (an observer who is known).
    ``creator`` is also set on a signed-in player whose account created the game: the
    creator's rights follow the account (functions/usecases/accounts/accounts.py)."""

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
    the token it opened with, never the token: functions/usecases/reach/live_updates.py)."""
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
