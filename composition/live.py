"""The WebSocket Lambda's entry point (template.yaml ``LiveFunction``)."""

from __future__ import annotations

from composition import wiring
from functions import snapstart
from functions.live.handler import make_handler

handler = make_handler(wiring.live_dependencies)
snapstart.prime(wiring.prime_clients, wiring.live_dependencies, renew=(wiring.renew_clients,))
