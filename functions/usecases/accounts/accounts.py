"""Player accounts (issue 15): sign-up and sign-in over the user pool, seats bound to accounts,
"my games", and who a signed-in caller is in a game.

What a seat bound to an account is: the seat's entry in the game's META
(``players[power]``) carries ``user_id`` (the pool's ``sub``) and the account's
``display_name`` at the time it was bound. The META is the truth (its writes are
conditional on the version, so "at most one seat per user per game" holds under races);
the account's ``GAME#`` index items (``AccountStore.remember_game``) are written first and
only tell ``my_games`` where to look. The creator's rights follow the account through
``GameRecord.creator_user_id``. Seat tokens keep working for bots and for seats joined
without an account. What this module does not do: talk to Cognito or check a JWT (the
ports do: infra/cognito.py, infra/jwt_verifier.py).
"""

from __future__ import annotations

import hmac
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from functions.errors import AlreadySeated, AuthRejected, NotAPlayer, SeatAlreadyBound
from functions.ports import Clock, GameRecord, GameStore, IdentityRejected, PressStore
from functions.ports.accounts import AccountStore, AuthTokens, IdentityProvider, Profile, TokenVerifier
from functions.ports.telegram import Seat
from functions.usecases.game import DIPLOMACY, iso, kind_name, load, load_active, retrying
from functions.usecases.kinds import WAITING, listing_fields
from functions.usecases.players import Actor, hash_token
from functions.usecases.press import unread_total
from functions.usecases.turns import powers_to_wait_on

MAX_GAMES = 100  # /me/games lists at most this many (newest first)


@dataclass(frozen=True)
class User:
    """A signed-in caller: the pool's subject and the account's display name."""

    user_id: str
    display_name: str


def rejected(error: IdentityRejected) -> AuthRejected:
    return AuthRejected(error.code, error.message)


# --- sign-up, confirmation, sign-in --------------------------------------------------------


# The pool's password policy (template.yaml UserPool Policies; a contract test holds them equal),
# checked here first so that a weak password is refused whether or not the address has an
# account (Cognito's SignUp looks the address up before the password).
PASSWORD_MIN_LENGTH = 8
PASSWORD_RULE = "8 or more characters, with upper case, lower case and a digit"


def check_password_policy(password: str) -> None:
    if not (len(password) >= PASSWORD_MIN_LENGTH and any(c.islower() for c in password)
            and any(c.isupper() for c in password) and any(c.isdigit() for c in password)):
        raise AuthRejected("WEAK_PASSWORD", f"the password needs {PASSWORD_RULE}")


def sign_up(identity: IdentityProvider, accounts: AccountStore, clock: Clock,
            email: str, password: str, display_name: str) -> tuple[str, bool]:
    """(user id, confirmed already). The profile is written once the pool has the user.

    No enumeration (issue 28 item 11; docs/accounts.md): an address that has an account gets
    the answer a new one gets, ``confirmation: "required"``, with a fresh random id that names
    no account, and never ``USER_EXISTS``. If that account is still unconfirmed, its owner is
    mailed a new code (so signing up again is how one asks for it); the existing account, its
    password and its profile are left as they were."""
    check_password_policy(password)
    try:
        done = identity.sign_up(email, password, display_name)
    except IdentityRejected as error:
        if error.code != "USER_EXISTS":
            raise rejected(error) from None
        _quietly(lambda: identity.resend_code(email))
        return str(uuid.uuid4()), False
    accounts.save_profile(Profile(done.user_id, display_name, iso(clock.now())))
    return done.user_id, done.confirmed


def confirm(identity: IdentityProvider, email: str, code: str) -> None:
    """A wrong, expired or locked-out code, an unknown address and an account confirmed
    already all answer ``BAD_CONFIRMATION_CODE`` (infra/cognito.py ``CODE_REFUSALS``)."""
    try:
        identity.confirm(email, code)
    except IdentityRejected as error:
        raise rejected(error) from None


def forgot_password(identity: IdentityProvider, email: str) -> None:
    """Ask the pool to mail a reset code. The same answer whatever happens (an unknown address,
    one without a verified email, a mail limit): the caller learns nothing of the account."""
    _quietly(lambda: identity.forgot_password(email))


def reset_password(identity: IdentityProvider, email: str, code: str, password: str) -> None:
    """A new password with the mailed code; a wrong code, an unknown address or a lockout after
    wrong codes are all ``BAD_CONFIRMATION_CODE``."""
    check_password_policy(password)
    try:
        identity.reset_password(email, code, password)
    except IdentityRejected as error:
        raise rejected(error) from None


def _quietly(call: Callable[[], None]) -> None:
    """A pool call whose refusal must not reach the caller (it would tell an account's state)."""
    try:
        call()
    except IdentityRejected:
        return


def sign_in(identity: IdentityProvider, verifier: TokenVerifier, accounts: AccountStore, clock: Clock,
            email: str, password: str) -> tuple[AuthTokens, User]:
    try:
        tokens = identity.sign_in(email, password)
    except IdentityRejected as error:
        raise rejected(error) from None
    return tokens, user_of(verifier, accounts, clock, tokens.id_token)


def refresh(identity: IdentityProvider, verifier: TokenVerifier, accounts: AccountStore, clock: Clock,
            refresh_token: str) -> tuple[AuthTokens, User]:
    try:
        tokens = identity.refresh(refresh_token)
    except IdentityRejected as error:
        raise rejected(error) from None
    return tokens, user_of(verifier, accounts, clock, tokens.id_token)


def user_of(verifier: TokenVerifier, accounts: AccountStore, clock: Clock, id_token: str) -> User:
    """The user an ID token stands for, verified; the name from the profile. An account made
    through Cognito directly (docs/accounts.md allows it) has no profile yet: it gets one at
    its first call, named by its ``name`` claim and created now (issue 28 item 4: it was
    written with ``created_at=""``, which the table's ``by_kind`` index refuses as a key, so
    every call of such an account was a 500)."""
    try:
        claims = verifier.verify(id_token)
    except IdentityRejected as error:
        raise rejected(error) from None
    user_id = str(claims["sub"])
    profile = accounts.profile(user_id)
    if profile is None:
        name = str(claims.get("name") or "").strip()[:40] or f"player-{user_id[:6]}"
        profile = Profile(user_id, name, iso(clock.now()))
        accounts.save_profile(profile)
    return User(user_id, profile.display_name)


# --- who a signed-in caller is in a game ---------------------------------------------------


def seat_of(game: GameRecord, user_id: str) -> str | None:
    for power, player in sorted(game.players.items()):
        if player.get("user_id") == user_id:
            return power
    return None


def actor_of(game: GameRecord, user: User) -> Actor:
    """The seat the account holds (with the creator's rights if it created the game), else the
    creator, else a known observer (``user``)."""
    creator = game.creator_user_id == user.user_id
    power = seat_of(game, user.user_id)
    if power is not None:
        return Actor("player", power, creator=creator, user_id=user.user_id)
    if creator:
        return Actor("creator", user_id=user.user_id)
    return Actor("user", user_id=user.user_id)


def seat_fields(game: GameRecord, user: User) -> dict[str, Any]:
    """What a seat taken by ``user`` carries; ``ALREADY_SEATED`` if the account has one here."""
    held = seat_of(game, user.user_id)
    if held is not None:
        raise AlreadySeated(f"this account already plays {held} in this game", power=held)
    return {"user_id": user.user_id, "display_name": user.display_name}


# --- binding an existing seat token ----------------------------------------------------------


def bind_seat(store: GameStore, accounts: AccountStore, clock: Clock, user: User,
              game_id: str, token: str) -> str:
    """Bind the seat a token opens to the account, once: the power. A seat already bound (to
    anyone) is ``SEAT_ALREADY_BOUND``; a second seat in the same game ``ALREADY_SEATED``."""
    digest = hash_token(token)
    accounts.remember_game(user.user_id, game_id, iso(clock.now()))

    def attempt() -> str:
        game = load_active(store, game_id)
        power = next((p for p, info in sorted(game.players.items())
                      if hmac.compare_digest(digest, str(info.get("token_hash", "")))), None)
        if power is None:
            raise NotAPlayer("this token is not a seat token of this game")
        owner = game.players[power].get("user_id")
        if owner is not None:
            raise SeatAlreadyBound(f"{power}'s seat is already bound to an account")
        fields = seat_fields(game, user)
        version = game.version
        game.players[power] = {**game.players[power], **fields}
        store.save(game, expected_version=version)
        return power

    return retrying(attempt)


# --- my games --------------------------------------------------------------------------------


def my_games(store: GameStore, press: PressStore, accounts: AccountStore, user: User) -> list[dict[str, Any]]:
    """The account's games, newest first: only games whose META names the account (a seat or
    the creator's rights); an index item left by a failed join is skipped."""
    found = []
    for game_id in accounts.games_of(user.user_id, MAX_GAMES):
        try:
            game = load(store, game_id)
        except Exception as error:
            if getattr(error, "code", "") == "GAME_NOT_FOUND":
                continue
            raise
        actor = actor_of(game, user)
        if actor.kind == "user":
            continue
        found.append(_entry(game, actor, press))
    return found


def _entry(game: GameRecord, actor: Actor, press: PressStore) -> dict[str, Any]:
    """One /me/games item: orders are due when the seat has a decision to make this phase and
    has not ordered yet (Diplomacy; other kinds say false) — never while the game still waits
    for players, whose clock has not started; the unread press of the seat. The name, seats
    and stage are the lobby's (``lobby.listing_fields``)."""
    power, kind = actor.power, kind_name(game)
    listed = listing_fields(game)
    diplomacy_seat = power is not None and kind == DIPLOMACY
    due = bool(diplomacy_seat and game.status == "ACTIVE" and listed["stage"] != WAITING
               and power in powers_to_wait_on(game) and power not in game.pending_orders)
    unread = unread_total(press, game, actor) if diplomacy_seat else 0
    return {
        "game_id": game.game_id, **listed, "game": kind, "power": power,
        "phase": game.phase, "orders_due": due, "unread_press": unread,
        "is_creator": actor.is_creator, "status": game.status,
    }


# --- Telegram (item 4): a chat linked to a seat of an account is linked to the account --------


@dataclass(frozen=True)
class AccountDirectory:
    """What the bot needs of accounts: which account a linked seat belongs to, that account's
    games (the seed's per-Telegram-user listing) and its seat in one of them."""

    store: GameStore
    press: PressStore
    accounts: AccountStore

    def link_telegram(self, telegram_user_id: int, seat: Seat) -> User | None:
        """After ``/link``: if the seat is bound to an account, the Telegram user now is too."""
        game = load(self.store, seat.game_id)
        user_id = (game.players.get(seat.power) or {}).get("user_id")
        if not user_id:
            return None
        self.accounts.link_telegram(telegram_user_id, str(user_id))
        profile = self.accounts.profile(str(user_id))
        return User(str(user_id), profile.display_name if profile else "")

    def games_of(self, telegram_user_id: int) -> list[dict[str, Any]] | None:
        """The linked account's games (``/me/games`` items); None when no account is linked."""
        user = self._user(telegram_user_id)
        return None if user is None else my_games(self.store, self.press, self.accounts, user)

    def seat_in(self, telegram_user_id: int, game_id: str) -> Seat | None:
        """The linked account's seat in ``game_id`` (``/use``), or None."""
        user = self._user(telegram_user_id)
        if user is None:
            return None
        power = seat_of(load(self.store, game_id), user.user_id)
        return Seat(game_id, power) if power else None

    def _user(self, telegram_user_id: int) -> User | None:
        user_id = self.accounts.telegram_account(telegram_user_id)
        return User(user_id, "") if user_id else None
