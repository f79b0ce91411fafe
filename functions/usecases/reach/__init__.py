"""Reaching players themselves (issue 33): live updates, personal notices, mail, push, press batches,
the Telegram bot.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.reach.live_updates import identify, subscribe
from functions.usecases.reach.mail_notices import KIND_WORDS
from functions.usecases.reach.push_subscriptions import endpoint_allowed
from functions.usecases.reach.reach_players import Reach, Reached, reach_players
from functions.usecases.reach.telegram_bot import handle_update
from functions.usecases.reach.telegram_links import link_code_for

__all__ = [
    "KIND_WORDS",
    "Reach",
    "Reached",
    "endpoint_allowed",
    "handle_update",
    "identify",
    "link_code_for",
    "reach_players",
    "subscribe",
]
