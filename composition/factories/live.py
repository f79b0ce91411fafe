"""The WebSocket function's ports (issue 33): the connections, the game and press stores and
the ID token verifier."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from composition import wiring
from composition.factories import (
    connections,
    tokens,  # noqa: F401 - provides services().token_verifier
)

if TYPE_CHECKING:
    from functions.ports import GameStore, PressStore
    from functions.ports.accounts import TokenVerifier
    from functions.ports.reach import ConnectionStore


class LiveDependencies(NamedTuple):
    """The WebSocket function's ports (``live_dependencies()``)."""

    connections: ConnectionStore
    store: GameStore
    press: PressStore
    verifier: TokenVerifier
    operator_token: str | None


@wiring.once
def live_dependencies() -> LiveDependencies:
    api = wiring.services()
    return LiveDependencies(connections.connection_store(), api.store, api.press_store, api.token_verifier,
                            wiring.settings().operator_token)
