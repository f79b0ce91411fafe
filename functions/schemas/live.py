"""The WebSocket API's one message from a client (issue 33; docs/notifications.md, "Live updates").

The route is chosen by API Gateway from ``action`` (the API's route selection expression
``$request.body.action``); the body is then validated here. ``game_id`` is bounded so a frame
cannot carry a long string into a key.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Subscribe(BaseModel):
    """``{"action": "subscribe", "game_id": "..."}``: follow one game (instead of the one before)."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["subscribe"]
    game_id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
