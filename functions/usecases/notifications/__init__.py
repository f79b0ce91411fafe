"""The game's notification targets (webhooks, Discord, Telegram) and the outbox's delivery to them.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.notifications.delivery_budget import Budget
from functions.usecases.notifications.notice_preferences import (
    DAILY,
    KIND_OF_OUTBOX,
    mode_of,
    unsubscribe_url,
)
from functions.usecases.notifications.notifications import deliver_batch
from functions.usecases.notifications.notify_targets import claim_webhook_hosts, validate_targets
from functions.usecases.notifications.outbox_items import (
    message_from_event_item,
    message_from_outbox_item,
    relay_outbox,
)
from functions.usecases.notifications.rendering import webhook_document
from functions.usecases.notifications.webhook_secrets import rotate_webhook_secret

__all__ = [
    "Budget",
    "DAILY",
    "KIND_OF_OUTBOX",
    "claim_webhook_hosts",
    "deliver_batch",
    "message_from_event_item",
    "message_from_outbox_item",
    "mode_of",
    "relay_outbox",
    "rotate_webhook_secret",
    "unsubscribe_url",
    "validate_targets",
    "webhook_document",
]
