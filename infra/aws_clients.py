"""AWS clients, created lazily on first use and cached per process.

DynamoDB's, SSM's and SQS's are Convoy's own small clients (``infra/dynamodb/client.py``,
``infra/ssm.py``, ``infra/sqs.py`` over ``infra/aws_json.py``: the JSON protocol, SigV4, botocore's retry
mode and errors, without botocore's client machinery, which was most of a cold start);
the others are botocore clients.

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
    """The cached client for ``service`` (``"dynamodb"``, ``"ssm"``, ``"sqs"``, ``"scheduler"``).

    ``"dynamodb"`` is ``infra.dynamodb.client.DynamoDBClient``, ``"ssm"``
    ``infra.ssm.SSMClient`` (the secrets' one ``GetParameters``), ``"sqs"``
    ``infra.sqs.SQSClient`` (the relay's outlet); the others are built with
    botocore directly, not boto3: boto3 adds nothing to a low-level client but its import
    (with s3transfer) costs tens of ms of a cold start. ``AWS_ENDPOINT_URL`` (the local
    stack) is honoured by both.
    """
    found = _clients.get(service)
    if found is not None:
        return found
    with _lock:
        found = _clients.get(service)
        if found is None and service == "dynamodb":
            from infra.dynamodb.client import DynamoDBClient

            found = _clients[service] = DynamoDBClient(_region())
        if found is None and service == "ssm":
            from infra.ssm import SSMClient

            found = _clients[service] = SSMClient(_region())
        if found is None and service == "sqs":
            from infra.sqs import SQSClient

            found = _clients[service] = SQSClient(_region())
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
