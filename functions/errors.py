"""Domain errors with stable codes; the API turns them into HTTP answers in one place.

Every rejection a client can see is a ``DomainError``: ``code`` is stable (clients
switch on it), ``message`` is for people, ``status`` is the HTTP status, ``extra``
carries additional fields (``engine_code``, ``phase``...).
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    code = "INTERNAL"
    status = 500

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.extra}


class GameNotFound(DomainError):
    """No game with this id."""
    code, status = "GAME_NOT_FOUND", 404

class GameNotActive(DomainError):
    """The game is over."""
    code, status = "GAME_NOT_ACTIVE", 409

class StalePhase(DomainError):
    """The request names a phase that is no longer current."""
    code, status = "STALE_PHASE", 409

class NotAPlayer(DomainError):
    """No valid player token."""
    code, status = "NOT_A_PLAYER", 401

class Forbidden(DomainError):
    """The caller may not do this."""
    code, status = "FORBIDDEN", 403

class PowerTaken(DomainError):
    """Someone already plays this power."""
    code, status = "POWER_TAKEN", 409

class GameFull(DomainError):
    """Every power is taken."""
    code, status = "GAME_FULL", 409

class BadPassword(DomainError):
    """Wrong or missing join password."""
    code, status = "BAD_PASSWORD", 403

class UnknownPower(DomainError):
    """No such power in this variant."""
    code, status = "UNKNOWN_POWER", 400

class UnknownVariant(DomainError):
    """No such variant or rulebook."""
    code, status = "UNKNOWN_VARIANT", 400

class OrdersMissing(DomainError):
    """require_all: some powers owe orders."""
    code, status = "ORDERS_MISSING", 409

class ValidationFailed(DomainError):
    """The request is malformed."""
    code, status = "VALIDATION_ERROR", 422

class GamePaused(DomainError):
    """The game is paused: deadlines and auto-processing wait for resume."""
    code, status = "GAME_PAUSED", 409

class GameNotFull(DomainError):
    """The creator may not process a turn before every power has a player."""
    code, status = "GAME_NOT_FULL", 409

class DeadlineNotReached(DomainError):
    """The creator may not process before the deadline unless every power has submitted."""
    code, status = "DEADLINE_NOT_REACHED", 409

class NoDeadline(DomainError):
    """The phase has no running deadline to extend."""
    code, status = "NO_DEADLINE", 409

class Conflict(DomainError):
    """Too many concurrent writers; retry."""
    code, status = "CONFLICT", 409

class StoredOrderUnreadable(DomainError):
    """An accepted order no longer parses; the turn is not processed rather than lose it."""
    code, status = "STORED_ORDER_UNREADABLE", 500

class IdempotencyKeyReused(DomainError):
    """The key was used with another body."""
    code, status = "IDEMPOTENCY_KEY_REUSED", 422

class IdempotentReplaySecret(DomainError):
    """The first answer to this Idempotency-Key carried a secret, which is never sent twice."""
    code, status = "IDEMPOTENT_REPLAY_SECRET", 409

class TooManyTargets(DomainError):
    """A game has at most 5 notify targets (issue 11)."""
    code, status = "TOO_MANY_TARGETS", 422

class TooManyTargetsPerHost(DomainError):
    """At most 2 of a game's notify targets may name one host (issue 11)."""
    code, status = "TOO_MANY_TARGETS_PER_HOST", 422

class HostTargetLimit(DomainError):
    """This webhook host is named by as many new games today as allowed; wait for Retry-After seconds."""
    code, status = "HOST_TARGET_LIMIT", 429

class NotifyTargetNotFound(DomainError):
    """The game has no webhook target at that index."""
    code, status = "NOTIFY_TARGET_NOT_FOUND", 404

class TooManyJoinAttempts(DomainError):
    """Too many wrong passwords for this game from this caller; wait for Retry-After seconds."""
    code, status = "TOO_MANY_JOIN_ATTEMPTS", 429

class BadCursor(DomainError):
    """The cursor was not given by this game's history."""
    code, status = "BAD_CURSOR", 400

class BadImport(DomainError):
    """The export document is malformed or does not replay."""
    code, status = "BAD_IMPORT", 422

class TooManyImports(DomainError):
    """This account imported as many games this hour as allowed."""
    code, status = "TOO_MANY_IMPORTS", 429

class FogOfWar(DomainError):
    """A fog-of-war game's whole record is public once the game has ended."""
    code, status = "FOG_OF_WAR", 409

class PhaseNotFound(DomainError):
    """No adjudicated phase of that name in this game."""
    code, status = "PHASE_NOT_FOUND", 404

# --- game kinds (functions/usecases/games/game_kinds.py; backgammon: docs/backgammon.md) -----------
class UnknownGame(DomainError):
    """No such game kind (diplomacy, backgammon)."""
    code, status = "UNKNOWN_GAME", 400

class WrongGameKind(DomainError):
    """This call is for another kind of game."""
    code, status = "WRONG_GAME_KIND", 409

class GameNotStarted(DomainError):
    """Waiting for every seat to be taken."""
    code, status = "GAME_NOT_STARTED", 409

class NotYourTurn(DomainError):
    """The other side is to play."""
    code, status = "NOT_YOUR_TURN", 409

class InvalidMove(DomainError):
    """A backgammon input the rules refuse: ``code`` is the seed's InvalidMoveCode name."""

    status = 422

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message, **extra)
        self.code = code

# --- press (issue 13; functions/usecases/press/press.py, docs/api.md "Press") ---

class PressDisabled(DomainError):
    """This game has no press (press: none)."""
    code, status = "PRESS_DISABLED", 409

class PrivatePressDisabled(DomainError):
    """This game allows public press only."""
    code, status = "PRIVATE_PRESS_DISABLED", 409

class PressClosed(DomainError):
    """press: rulebook - press is open during movement phases only."""
    code, status = "PRESS_CLOSED", 409

class PowerCannotTalk(DomainError):
    """Only seated, active powers may send press."""
    code, status = "POWER_NOT_ACTIVE", 403

class RateLimited(DomainError):
    """Too many messages; wait for Retry-After seconds."""
    code, status = "RATE_LIMITED", 429

class TooManyChannels(DomainError):
    """This power has opened as many channels as a game allows."""
    code, status = "TOO_MANY_CHANNELS", 409

class ChannelNotFound(DomainError):
    """No such channel among the caller's."""
    code, status = "CHANNEL_NOT_FOUND", 404

class BadRecipients(DomainError):
    """Recipients must be powers of this game."""
    code, status = "BAD_RECIPIENTS", 422

class MessageEmpty(DomainError):
    """The text is empty once trimmed."""
    code, status = "MESSAGE_EMPTY", 422

class MessageTooLong(DomainError):
    """The text is longer than 4,000 characters."""
    code, status = "MESSAGE_TOO_LONG", 422

class MessageNotPrintable(DomainError):
    """The text holds control or unassigned characters."""
    code, status = "MESSAGE_NOT_PRINTABLE", 422

# --- the stateless sandbox (issue 19; functions/usecases/sandbox/sandbox.py, docs/api.md "Sandbox") ---

class BadPosition(DomainError):
    """The position is unreadable or impossible on the variant's map (state, compact or phase)."""
    code, status = "BAD_POSITION", 422

# --- accounts (issue 15; functions/usecases/accounts/accounts.py, docs/accounts.md) -------------------

class AlreadySeated(DomainError):
    """This account already holds a seat in this game (one per game)."""
    code, status = "ALREADY_SEATED", 409

class SeatAlreadyBound(DomainError):
    """This seat token is already bound to an account."""
    code, status = "SEAT_ALREADY_BOUND", 409

class NotSignedIn(DomainError):
    """An Authorization: Bearer <ID token> of a signed-in user is required."""
    code, status = "NOT_SIGNED_IN", 401

class AuthRejected(DomainError):
    """A refusal of the user pool or of a token check: ``code`` from ``functions.ports.IdentityRejected``,
    the status from ``AUTH_STATUS`` (unknown codes are 400)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.status = AUTH_STATUS.get(code, 400)


AUTH_STATUS: dict[str, int] = {
    "USER_EXISTS": 409, "WEAK_PASSWORD": 400, "INVALID_ACCOUNT_REQUEST": 400,
    "BAD_CONFIRMATION_CODE": 400, "ALREADY_CONFIRMED": 409,
    "BAD_CREDENTIALS": 401, "BAD_REFRESH_TOKEN": 401, "USER_NOT_CONFIRMED": 403,
    "TOO_MANY_REQUESTS": 429, "AUTH_CHALLENGE": 409,
    "TOKEN_MALFORMED": 401, "TOKEN_UNKNOWN_KEY": 401, "TOKEN_INVALID_SIGNATURE": 401,
    "TOKEN_EXPIRED": 401, "TOKEN_WRONG_ISSUER": 401, "TOKEN_WRONG_AUDIENCE": 401, "TOKEN_WRONG_USE": 401,
}

# --- reaching players (issue 33: docs/notifications.md, "Reaching players") ------------------
class BadUnsubscribeLink(DomainError):
    """The unsubscribe link is malformed or its signature is wrong."""
    code, status = "BAD_UNSUBSCRIBE_LINK", 400

class PushEndpointNotAllowed(DomainError):
    """A push subscription must name a known push service over https."""
    code, status = "PUSH_ENDPOINT_NOT_ALLOWED", 422

class TooManyDevices(DomainError):
    """An account may register at most 10 push devices."""

    code = "TOO_MANY_DEVICES"
    status = 409
