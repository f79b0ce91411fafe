"""Adapter tests run against moto's in-memory AWS (mock_aws), tables built from template.yaml."""

from __future__ import annotations

import os
from collections.abc import Iterator

import boto3
import pytest
from moto import mock_aws

from infra.dynamodb.game_store import DynamoGameStore
from local_stack.template import create_resources


@pytest.fixture
def aws() -> Iterator[dict[str, str]]:
    saved = {k: os.environ.get(k) for k in ("AWS_ENDPOINT_URL", "AWS_DEFAULT_REGION")}
    os.environ.pop("AWS_ENDPOINT_URL", None)
    os.environ["AWS_DEFAULT_REGION"] = "us-east-1"
    with mock_aws():
        dynamodb = boto3.client("dynamodb", region_name="us-east-1")
        sqs = boto3.client("sqs", region_name="us-east-1")
        yield create_resources(dynamodb, sqs)
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture
def dynamo_store(aws: dict[str, str]) -> DynamoGameStore:
    return DynamoGameStore(aws["GAME_TABLE"], client=boto3.client("dynamodb", region_name="us-east-1"))
