"""The stable error codes of press (issue 13); the API maps them to HTTP like every DomainError."""

from __future__ import annotations

from functions.errors import _error

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
