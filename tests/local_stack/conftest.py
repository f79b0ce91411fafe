"""moto in-process (mock_aws) with the local stack's moto patches applied."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import boto3
import pytest

from local_stack import moto_patches
from testkit import tables


def mock_streams_client() -> Any:
    """A DynamoDB Streams client for mock_aws: moto 5.2.5's in-process stub only matches the
    streams endpoint with a trailing slash, which botocore 1.44 no longer sends."""
    return boto3.client("dynamodbstreams", region_name="us-east-1",
                        endpoint_url="https://streams.dynamodb.us-east-1.amazonaws.com/")


@pytest.fixture
def aws() -> Iterator[None]:
    from moto import mock_aws

    saved = {k: os.environ.get(k) for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
                                            "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL")}
    os.environ.pop("AWS_ENDPOINT_URL", None)
    os.environ.update(AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing",
                      AWS_DEFAULT_REGION="us-east-1")
    moto_patches.apply()
    with mock_aws():
        yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def make_table(name: str = "games", streams: bool = True) -> Any:
    """The local stack's tests want the relay's stream by default."""
    return tables.make_table(name, streams=streams)
