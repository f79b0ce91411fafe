"""The WebSocket Lambda's entry point (template.yaml ``LiveFunction``)."""

from __future__ import annotations

from composition import wiring
from composition.factories.live import live_dependencies
from functions import snapstart
from functions.live.handler import make_handler

handler = make_handler(live_dependencies)
snapstart.prime(wiring.prime_clients, live_dependencies, renew=(wiring.renew_clients,))
