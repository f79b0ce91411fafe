"""The game as one caller sees it, wherever it is shown: the REST view (``GET /games/{id}``)
and every live frame of the WebSocket API (functions/usecases/reach/live_updates.py).

One function so there is one redaction: the game's kind builds the view for the actor
(functions/usecases/turns/views.py for Diplomacy: a power sees its own pending orders, of the others
only whether they submitted), and the caller's unread press is added. A socket never gets a
view that differs from what the same caller's ``GET /games/{id}`` answers at that moment.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from functions.ports import GameRecord, PowerPress, PressStore
from functions.usecases.kinds.kind_registry import kind_of
from functions.usecases.players import Actor
from functions.usecases.press import with_unread


def view_for(game: GameRecord, actor: Actor, press: PressStore,
             ledgers: Mapping[str, PowerPress] | None = None) -> dict[str, Any]:
    """``game`` as ``actor`` may see it, with the actor's unread press (from ``ledgers`` when
    they were read with the game, issue 29: a view is one query; else from ``press``)."""
    return with_unread(kind_of(game).view(game, actor), press, game, actor, ledgers)
