"""The WebSocket API's one message from a client (issue 33; docs/notifications.md, "Live updates").

The route is chosen by API Gateway from ``action`` (the API's route selection expression
``$request.body.action``); the body is then validated here. ``game_id`` is bounded so a frame
cannot carry a long string into a key. ``token`` is the caller's bearer token (the socket has
no other way to carry it: there is no ``$connect`` route and no subprotocol); it is bounded
generously, a Cognito ID token with many claims runs to a few KB.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class Subscribe(BaseModel):
    """``{"action": "subscribe", "game_id": "...", "token": "..."}``: follow one game (beside any
    other this connection follows); no ``token``: as an observer."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["subscribe"]
    game_id: str = Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")
    token: str | None = Field(default=None, min_length=1, max_length=8192)
