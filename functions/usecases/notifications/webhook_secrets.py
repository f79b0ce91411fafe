"""Rotate one webhook target's signing secret (issue 11), without a gap for its receiver.

The creator (or the operator) asks for a new secret for the target at ``index`` of the
game's ``notify`` list. The new secret signs from now on; the old one keeps signing
beside it for ``ROTATION_WINDOW_SECONDS`` (deliveries carry both signatures,
comma-separated, new first: docs/notifications.md), so the receiver can switch to the
new one at any time within the window. A second rotation inside the window drops the
oldest secret. The answer shows the new secret once; the write is conditional on the
game's version like every META write.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta

from functions.errors import Forbidden, NotAPlayer, NotifyTargetNotFound
from functions.ports import Clock, GameStore
from functions.usecases.game import iso, load, retrying
from functions.usecases.players import Actor

ROTATION_WINDOW_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Rotated:
    target: int
    secret: str
    previous_valid_until: str  # ISO time


def rotate_webhook_secret(store: GameStore, clock: Clock, game_id: str, actor: Actor, index: int) -> Rotated:
    """Give the webhook target at ``index`` a new secret; the old one signs until the window ends."""
    if actor.kind == "anonymous":
        raise NotAPlayer("an Authorization: Bearer <creator or operator token> header is required")
    if actor.kind not in ("creator", "operator"):
        raise Forbidden("only the game's creator or the operator may rotate a webhook secret")
    new_secret = secrets.token_urlsafe(32)

    def attempt() -> Rotated:
        game = load(store, game_id)
        notify = [dict(t) for t in game.settings.get("notify") or []]
        if not 0 <= index < len(notify) or notify[index].get("type") != "webhook":
            raise NotifyTargetNotFound(f"no webhook target at index {index}")
        now = clock.now()
        until = now + timedelta(seconds=ROTATION_WINDOW_SECONDS)
        notify[index].update(
            secret=new_secret, previous_secret=notify[index]["secret"], previous_until=int(until.timestamp())
        )
        updated = game.copy()
        updated.settings = {**game.settings, "notify": notify}
        store.save(updated, expected_version=game.version)
        return Rotated(target=index, secret=new_secret, previous_valid_until=iso(until))

    return retrying(attempt)
