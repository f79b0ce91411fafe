"""Press between the powers: its rules and the messages, channels and ledgers.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.press.press import MESSAGE, send_message
from functions.usecases.press.press_rules import PUBLIC, has_press, press_mode, validate_mode
from functions.usecases.press.reading import message_view, unread_total, with_unread

__all__ = [
    "MESSAGE",
    "PUBLIC",
    "has_press",
    "message_view",
    "press_mode",
    "send_message",
    "unread_total",
    "validate_mode",
    "with_unread",
]
