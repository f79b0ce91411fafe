"""Boto3 clients, created lazily on first use and cached per process.

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


def _region() -> str:
    return os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"


def client(service: str) -> Any:
    """The cached boto3 client for ``service`` (``"dynamodb"``, ``"sqs"``, ``"scheduler"``)."""
    found = _clients.get(service)
    if found is not None:
        return found
    with _lock:
        found = _clients.get(service)
        if found is None:
            import boto3  # deferred: boto3 costs ~100 ms to import
            from botocore.config import Config

            config = Config(retries={"max_attempts": 3, "mode": "standard"})
            found = boto3.session.Session().client(service, region_name=_region(), config=config)
            _clients[service] = found
        return found


def dynamodb() -> Any:
    return client("dynamodb")


def sqs() -> Any:
    return client("sqs")


def reset() -> None:
    """Forget every cached client (the next call builds fresh ones from the environment)."""
    with _lock:
        _clients.clear()
