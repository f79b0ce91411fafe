"""Seed the local stack's secrets into the emulator's SSM Parameter Store (issue 11, item 5).

On AWS the functions read their secrets from SecureString parameters (infra/secrets.py);
the local stack does the same: each plain variable that is set (``CONVOY_OPERATOR_TOKEN``,
``TELEGRAM_BOT_TOKEN``, ``TELEGRAM_WEBHOOK_SECRET``, ``MAIL_LINK_KEY``,
``WEB_PUSH_PRIVATE_KEY``) is written to a SecureString under
``/convoy/local/…`` and the matching ``*_PARAMETER`` variable names it, so the API workers,
pumps and bot read it with one ``GetParameters`` call (infra/secrets.py) like a deployed
function does.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from typing import Any

from infra.secrets import PARAMETER_VARIABLES

PLAIN_VARIABLES = {
    "operator_token": "CONVOY_OPERATOR_TOKEN",
    "telegram_bot_token": "TELEGRAM_BOT_TOKEN",
    "telegram_webhook_secret": "TELEGRAM_WEBHOOK_SECRET",
    "mail_link_key": "MAIL_LINK_KEY",
    "web_push_private_key": "WEB_PUSH_PRIVATE_KEY",
}
PREFIX = "/convoy/local/"


def seed_parameters(ssm: Any, env: MutableMapping[str, str] | None = None) -> dict[str, str]:
    """Write the set secrets as SecureStrings; returns {parameter variable: parameter name}."""
    e = os.environ if env is None else env
    named: dict[str, str] = {}
    for field, plain in sorted(PLAIN_VARIABLES.items()):
        value = e.get(plain)
        if not value:
            if e.get(PARAMETER_VARIABLES[field], "").startswith(PREFIX):
                del e[PARAMETER_VARIABLES[field]]  # left by an earlier local stack of this process
            continue
        name = PREFIX + field.replace("_", "-")
        ssm.put_parameter(Name=name, Value=value, Type="SecureString", Overwrite=True)
        e[PARAMETER_VARIABLES[field]] = name
        named[PARAMETER_VARIABLES[field]] = name
    return named


def ensure_local_keys(env: MutableMapping[str, str] | None = None) -> None:
    """Keys a deployment's operator makes once (docs/notifications.md), made here when unset:
    the unsubscribe links' signing key and a VAPID key pair for web push (issue 33). Fresh on
    every start unless set in the environment: a browser's push subscription made under one
    ``make run`` is refused by the next (subscribe again from the settings)."""
    import base64
    import secrets

    e = os.environ if env is None else env
    e.setdefault("MAIL_LINK_KEY", secrets.token_urlsafe(32))
    if not e.get("WEB_PUSH_PRIVATE_KEY"):
        from cryptography.hazmat.primitives.asymmetric import ec

        value = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
        e["WEB_PUSH_PRIVATE_KEY"] = base64.urlsafe_b64encode(value.to_bytes(32, "big")).decode().rstrip("=")
