"""The live connections table (issue 33): written by the live function, read by the notifier's
reach; an area of its own so neither pulls in the other's libraries."""

from __future__ import annotations

from typing import TYPE_CHECKING

from composition import wiring

if TYPE_CHECKING:
    from functions.ports.reach import ConnectionStore


@wiring.once
def connection_store() -> ConnectionStore:
    from infra.live_connections import DynamoConnectionStore

    return DynamoConnectionStore(wiring.settings().connections_table)
