"""AWS clients: boto3 low-level clients, built on first use and cached per process.

Every AWS call Convoy makes goes through a client from here (DynamoDB, DynamoDB Streams,
SQS, SSM, EventBridge Scheduler, Cognito): boto3/botocore is the SDK AWS maintains, so
signing, endpoints, retries, errors and new service features are its job, not ours.

One ``boto3.session.Session`` per process, made on the first ``client()`` call: a
session is not safe to share between threads while it builds clients, so building is
serialised by a lock; the clients themselves are thread-safe and shared. Every client
uses botocore's "standard" retry mode with ``max_attempts`` 3 (in a client's config that
counts retries: up to 4 attempts in all). Region: ``AWS_REGION``, else
``AWS_DEFAULT_REGION``, else us-east-1. boto3 itself honours ``AWS_ENDPOINT_URL`` (and
``AWS_ENDPOINT_URL_<SERVICE>``), which the local stack and the tests point at moto.

Importing this module imports no AWS library and builds nothing, so tests can set the
endpoint before the first call; ``reset()`` drops the session and the clients, e.g.
after the local stack changes the endpoint. ``prime()`` builds clients ahead of the
first request (a SnapStart snapshot then holds them).
"""

from __future__ import annotations

import os
import threading
from typing import Any

SERVICES = ("dynamodb", "dynamodbstreams", "sqs", "ssm", "scheduler", "cognito-idp")
RETRIES: dict[str, Any] = {"mode": "standard", "max_attempts": 3}

_lock = threading.Lock()
_clients: dict[str, Any] = {}
_sessions: list[Any] = []  # at most one boto3 session: its loaders cache the service models


def region() -> str:
    """The region every client is built for."""
    return os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or "us-east-1"


def client(service: str, endpoint_url: str | None = None) -> Any:
    """The process's boto3 client for ``service`` (a botocore service name: ``"dynamodb"``,
    ``"sqs"``, ``"ssm"``, ``"scheduler"``, ``"cognito-idp"``, ``"dynamodbstreams"``, ``"sesv2"``),
    or for ``"apigatewaymanagementapi"`` at ``endpoint_url`` (a WebSocket API's stage URL: that
    service has no endpoint of its own)."""
    key = f"{service}@{endpoint_url}" if endpoint_url else service
    found = _clients.get(key)
    if found is not None:
        return found
    with _lock:
        found = _clients.get(key)
        if found is None:
            found = _clients[key] = _build(service, endpoint_url)
        return found


def _build(service: str, endpoint_url: str | None = None) -> Any:
    """A new client on the process's session (call with ``_lock`` held)."""
    from botocore.config import Config

    if not _sessions:
        import boto3.session

        _sessions.append(boto3.session.Session(region_name=region()))
    extra = {"endpoint_url": endpoint_url} if endpoint_url else {}
    return _sessions[0].client(service, config=Config(retries=RETRIES), **extra)


def dynamodb() -> Any:
    return client("dynamodb")


def sqs() -> Any:
    return client("sqs")


def prime(services: tuple[str, ...] = SERVICES) -> None:
    """Build the clients of ``services`` now rather than on the first request that needs one."""
    for service in services:
        client(service)


def reset() -> None:
    """Forget every cached client and the session (the next call reads the environment again)."""
    with _lock:
        _clients.clear()
        _sessions.clear()


def renew() -> None:
    """Close every cached client's pooled connections, keeping the clients (SnapStart: a restored
    environment must not reuse the sockets of the one that took the snapshot; botocore opens new
    ones on the next request, and the service models and endpoint rules stay loaded)."""
    with _lock:
        clients = list(_clients.values())
    for found in clients:
        session = getattr(getattr(found, "_endpoint", None), "http_session", None)
        if session is not None:
            session.close()
