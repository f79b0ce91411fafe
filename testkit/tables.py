"""The game table's shape for tests under moto: the key schema template.yaml gives it (pk, sk),
on demand, with the stream the relay reads when a test needs it. One definition, so a test's
table cannot drift from the deployed one's keys."""

from __future__ import annotations

from typing import Any

import boto3

KEYS = [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}]
ATTRIBUTES = [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]


def make_table(name: str = "games", streams: bool = False, client: Any = None) -> Any:
    """Create the table (with a NEW_IMAGE stream if asked) and return the client that made it."""
    ddb = client if client is not None else boto3.client("dynamodb", region_name="us-east-1")
    extra = {"StreamSpecification": {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}} if streams else {}
    ddb.create_table(TableName=name, KeySchema=KEYS, AttributeDefinitions=ATTRIBUTES,
                     BillingMode="PAY_PER_REQUEST", **extra)
    return ddb
