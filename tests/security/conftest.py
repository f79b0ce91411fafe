from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from testkit.api_harness import InProcessApi, in_process_api


@pytest.fixture
def api() -> Iterator[InProcessApi]:
    yield from in_process_api()


@pytest.fixture
def aws() -> Iterator[None]:
    """moto in-process, with fake credentials so nothing can reach real AWS."""
    from moto import mock_aws

    saved = {k: os.environ.get(k) for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
                                            "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL")}
    os.environ.update(
        AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing", AWS_DEFAULT_REGION="us-east-1"
    )
    os.environ.pop("AWS_ENDPOINT_URL", None)
    with mock_aws():
        yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
