"""Where moto keeps the emulated services' state in this process (one account, one region)."""

from __future__ import annotations

from typing import Any

ACCOUNT = "123456789012"  # moto's default account
REGION = "us-east-1"


def dynamodb_backend() -> Any:
    from moto.dynamodb.models import dynamodb_backends

    return dynamodb_backends[ACCOUNT][REGION]


def scheduler_backend() -> Any:
    from moto.scheduler.models import scheduler_backends

    return scheduler_backends[ACCOUNT][REGION]


def backend_dicts() -> dict[str, Any]:
    """The services whose state the data directory keeps, by name."""
    from moto.cognitoidp.models import cognitoidp_backends
    from moto.dynamodb.models import dynamodb_backends
    from moto.scheduler.models import scheduler_backends
    from moto.sqs.models import sqs_backends

    return {"dynamodb": dynamodb_backends, "sqs": sqs_backends, "scheduler": scheduler_backends,
            "cognito-idp": cognitoidp_backends}
