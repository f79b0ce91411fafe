"""AWS clients (botocore), created lazily on first use and cached per process.

Importing this module never builds a client (cold starts stay cheap and tests can
point ``AWS_ENDPOINT_URL`` at an emulator before the first call). ``reset()``
drops the cache, e.g. after the local stack changes the endpoint.
"""

from __future__ import annotations

import os
import threading
from typing import Any

_lock = threading.Lock()
_clients: dict[str, Any] = {}
_session: list[Any] = []  # the one botocore session (its loaders cache the service models)


def _region() -> str:
    return os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"


def client(service: str) -> Any:
    """The cached client for ``service`` (``"dynamodb"``, ``"sqs"``, ``"scheduler"``).

    Built with botocore directly, not boto3: boto3 adds nothing to a low-level client but
    its import (with s3transfer) costs tens of ms of a cold start. ``AWS_ENDPOINT_URL``
    (the local stack) is honoured by botocore itself.
    """
    found = _clients.get(service)
    if found is not None:
        return found
    with _lock:
        found = _clients.get(service)
        if found is None:
            from botocore.config import Config
            from botocore.session import get_session

            if not _session:
                _session.append(get_session())
            config = Config(retries={"max_attempts": 3, "mode": "standard"})
            found = _session[0].create_client(service, region_name=_region(), config=config)
            _clients[service] = found
        return found


def dynamodb() -> Any:
    return client("dynamodb")


def sqs() -> Any:
    return client("sqs")


def reset() -> None:
    """Forget every cached client and the session (the next call reads the environment again)."""
    with _lock:
        _clients.clear()
        _session.clear()
