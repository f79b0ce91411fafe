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


def _error(name: str, code: str, status: int, doc: str) -> type[DomainError]:
    return type(name, (DomainError,), {"code": code, "status": status, "__doc__": doc})


GameNotFound = _error("GameNotFound", "GAME_NOT_FOUND", 404, "No game with this id.")
GameNotActive = _error("GameNotActive", "GAME_NOT_ACTIVE", 409, "The game is over.")
StalePhase = _error("StalePhase", "STALE_PHASE", 409, "The request names a phase that is no longer current.")
NotAPlayer = _error("NotAPlayer", "NOT_A_PLAYER", 401, "No valid player token.")
Forbidden = _error("Forbidden", "FORBIDDEN", 403, "The caller may not do this.")
PowerTaken = _error("PowerTaken", "POWER_TAKEN", 409, "Someone already plays this power.")
GameFull = _error("GameFull", "GAME_FULL", 409, "Every power is taken.")
BadPassword = _error("BadPassword", "BAD_PASSWORD", 403, "Wrong or missing join password.")
UnknownPower = _error("UnknownPower", "UNKNOWN_POWER", 400, "No such power in this variant.")
UnknownVariant = _error("UnknownVariant", "UNKNOWN_VARIANT", 400, "No such variant or rulebook.")
OrdersMissing = _error("OrdersMissing", "ORDERS_MISSING", 409, "require_all: some powers owe orders.")
ValidationFailed = _error("ValidationFailed", "VALIDATION_ERROR", 422, "The request is malformed.")
GamePaused = _error(
    "GamePaused", "GAME_PAUSED", 409, "The game is paused: deadlines and auto-processing wait for resume."
)
GameNotFull = _error(
    "GameNotFull", "GAME_NOT_FULL", 409, "The creator may not process a turn before every power has a player."
)
DeadlineNotReached = _error(
    "DeadlineNotReached", "DEADLINE_NOT_REACHED", 409,
    "The creator may not process before the deadline unless every power has submitted.",
)
NoDeadline = _error("NoDeadline", "NO_DEADLINE", 409, "The phase has no running deadline to extend.")
Conflict = _error("Conflict", "CONFLICT", 409, "Too many concurrent writers; retry.")
StoredOrderUnreadable = _error(
    "StoredOrderUnreadable", "STORED_ORDER_UNREADABLE", 500,
    "An accepted order no longer parses; the turn is not processed rather than lose it.",
)
IdempotencyKeyReused = _error(
    "IdempotencyKeyReused", "IDEMPOTENCY_KEY_REUSED", 422, "The key was used with another body."
)
IdempotentReplaySecret = _error(
    "IdempotentReplaySecret", "IDEMPOTENT_REPLAY_SECRET", 409,
    "The first answer to this Idempotency-Key carried a secret, which is never sent twice.",
)
TooManyTargets = _error(
    "TooManyTargets", "TOO_MANY_TARGETS", 422, "A game has at most 5 notify targets (issue 11)."
)
TooManyTargetsPerHost = _error(
    "TooManyTargetsPerHost", "TOO_MANY_TARGETS_PER_HOST", 422,
    "At most 2 of a game's notify targets may name one host (issue 11).",
)
HostTargetLimit = _error(
    "HostTargetLimit", "HOST_TARGET_LIMIT", 429,
    "This webhook host is named by as many new games today as allowed; wait for Retry-After seconds.",
)
NotifyTargetNotFound = _error(
    "NotifyTargetNotFound", "NOTIFY_TARGET_NOT_FOUND", 404, "The game has no webhook target at that index."
)
TooManyJoinAttempts = _error(
    "TooManyJoinAttempts", "TOO_MANY_JOIN_ATTEMPTS", 429,
    "Too many wrong passwords for this game from this caller; wait for Retry-After seconds.",
)
BadCursor = _error("BadCursor", "BAD_CURSOR", 400, "The cursor was not given by this game's history.")
BadImport = _error("BadImport", "BAD_IMPORT", 422, "The export document is malformed or does not replay.")
TooManyImports = _error(
    "TooManyImports", "TOO_MANY_IMPORTS", 429, "This account imported as many games this hour as allowed."
)
FogOfWar = _error(
    "FogOfWar", "FOG_OF_WAR", 409, "A fog-of-war game's whole record is public once the game has ended."
)
PhaseNotFound = _error(
    "PhaseNotFound", "PHASE_NOT_FOUND", 404, "No adjudicated phase of that name in this game."
)

# --- game kinds (functions/usecases/game_kinds.py; backgammon: docs/backgammon.md) -----------
UnknownGame = _error("UnknownGame", "UNKNOWN_GAME", 400, "No such game kind (diplomacy, backgammon).")
WrongGameKind = _error("WrongGameKind", "WRONG_GAME_KIND", 409, "This call is for another kind of game.")
GameNotStarted = _error("GameNotStarted", "GAME_NOT_STARTED", 409, "Waiting for every seat to be taken.")
NotYourTurn = _error("NotYourTurn", "NOT_YOUR_TURN", 409, "The other side is to play.")


class InvalidMove(DomainError):
    """A backgammon input the rules refuse: ``code`` is the seed's InvalidMoveCode name."""

    status = 422

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message, **extra)
        self.code = code

# --- press (issue 13; functions/usecases/press.py, docs/api.md "Press") ---

PressDisabled = _error("PressDisabled", "PRESS_DISABLED", 409, "This game has no press (press: none).")
PrivatePressDisabled = _error(
    "PrivatePressDisabled", "PRIVATE_PRESS_DISABLED", 409, "This game allows public press only."
)
PressClosed = _error(
    "PressClosed", "PRESS_CLOSED", 409, "press: rulebook - press is open during movement phases only."
)
PowerCannotTalk = _error(
    "PowerCannotTalk", "POWER_NOT_ACTIVE", 403, "Only seated, active powers may send press."
)
RateLimited = _error("RateLimited", "RATE_LIMITED", 429, "Too many messages; wait for Retry-After seconds.")
TooManyChannels = _error(
    "TooManyChannels", "TOO_MANY_CHANNELS", 409, "This power has opened as many channels as a game allows."
)
ChannelNotFound = _error("ChannelNotFound", "CHANNEL_NOT_FOUND", 404, "No such channel among the caller's.")
BadRecipients = _error("BadRecipients", "BAD_RECIPIENTS", 422, "Recipients must be powers of this game.")
MessageEmpty = _error("MessageEmpty", "MESSAGE_EMPTY", 422, "The text is empty once trimmed.")
MessageTooLong = _error(
    "MessageTooLong", "MESSAGE_TOO_LONG", 422, "The text is longer than 4,000 characters."
)
MessageNotPrintable = _error(
    "MessageNotPrintable", "MESSAGE_NOT_PRINTABLE", 422, "The text holds control or unassigned characters."
)

# --- the stateless sandbox (issue 19; functions/usecases/sandbox.py, docs/api.md "Sandbox") ---

BadPosition = _error(
    "BadPosition", "BAD_POSITION", 422,
    "The position is unreadable or impossible on the variant's map (state, compact or phase).",
)

# --- accounts (issue 15; functions/usecases/accounts.py, docs/accounts.md) -------------------

AlreadySeated = _error(
    "AlreadySeated", "ALREADY_SEATED", 409, "This account already holds a seat in this game (one per game)."
)
SeatAlreadyBound = _error(
    "SeatAlreadyBound", "SEAT_ALREADY_BOUND", 409, "This seat token is already bound to an account."
)
NotSignedIn = _error(
    "NotSignedIn", "NOT_SIGNED_IN", 401,
    "An Authorization: Bearer <ID token> of a signed-in user is required."
)


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
BadUnsubscribeLink = _error(
    "BadUnsubscribeLink", "BAD_UNSUBSCRIBE_LINK", 400,
    "The unsubscribe link is malformed or its signature is wrong.",
)
PushEndpointNotAllowed = _error(
    "PushEndpointNotAllowed", "PUSH_ENDPOINT_NOT_ALLOWED", 422,
    "A push subscription must name a known push service over https.",
)
TooManyDevices = _error(
    "TooManyDevices", "TOO_MANY_DEVICES", 409, "An account may register at most 10 push devices."
)
