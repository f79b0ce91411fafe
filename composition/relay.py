"""The relay Lambda's entry point (template.yaml ``RelayFunction``): the outbox queue, the game
store for expired games, and the table's stream codec (infra/dynamodb/stream_images.py)."""

from __future__ import annotations

from composition import wiring
from functions import snapstart
from functions.ports import GameStore
from functions.relay.handler import make_handler
from infra.dynamodb.stream_images import STREAM_IMAGES


def _games() -> GameStore:
    return wiring.services().store


handler = make_handler(wiring.outbox_queue, STREAM_IMAGES, _games)
snapstart.prime(wiring.prime_clients, wiring.outbox_queue, renew=(wiring.renew_clients,))
