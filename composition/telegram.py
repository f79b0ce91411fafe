"""The Telegram bot's webhook entry point (template.yaml ``TelegramFunction``)."""

from __future__ import annotations

from composition import wiring
from functions import snapstart
from functions.telegram.handler import make_handler

handler = make_handler(wiring.telegram_dependencies)
snapstart.prime(wiring.prime_clients, wiring.telegram_dependencies, snapstart.warm_engine,
                renew=(wiring.renew_clients,))
