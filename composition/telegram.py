"""The Telegram bot's webhook entry point (template.yaml ``TelegramFunction``)."""

from __future__ import annotations

from composition import wiring
from composition.factories.telegram import telegram_dependencies
from functions import snapstart
from functions.telegram.handler import make_handler

handler = make_handler(telegram_dependencies)
snapstart.prime(wiring.prime_clients, telegram_dependencies, snapstart.warm_engine,
                renew=(wiring.renew_clients,))
