"""Convoy's small SSM client (infra/ssm.py, issue 9 item 6): the calls the secrets and the
local stack make answer as botocore's SSM client does, against moto's server over HTTP.
Signing, retries and errors are the shared JSON-protocol client's (infra/aws_json.py),
checked in tests/infra/test_dynamodb_client.py; here only what SSM adds: its names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from unittest import mock

import boto3
import pytest
from botocore.exceptions import ClientError

from infra.ssm import SSMClient


@pytest.fixture
def clients(moto_endpoint: str) -> Iterator[tuple[SSMClient, Any]]:
    with mock.patch.dict("os.environ", {"AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s"}):
        yield SSMClient("us-east-1", moto_endpoint), boto3.client(
            "ssm", region_name="us-east-1", endpoint_url=moto_endpoint)


def test_securestrings_are_written_and_read_decrypted_as_botocore_reads_them(
    clients: tuple[SSMClient, Any],
) -> None:
    ours, reference = clients
    ours.put_parameter(Name="/t/ssm-client/a", Value="secret-a", Type="SecureString", Overwrite=True)
    reference.put_parameter(Name="/t/ssm-client/b", Value="secret-b", Type="SecureString", Overwrite=True)
    names = ["/t/ssm-client/a", "/t/ssm-client/b", "/t/ssm-client/absent"]

    mine = ours.get_parameters(Names=names, WithDecryption=True)
    theirs = reference.get_parameters(Names=names, WithDecryption=True)

    def shape(answer: dict[str, Any]) -> Any:
        return ({p["Name"]: (p["Type"], p["Value"], p["Version"]) for p in answer["Parameters"]},
                answer["InvalidParameters"])

    assert shape(mine) == shape(theirs) == (
        {"/t/ssm-client/a": ("SecureString", "secret-a", 1),
         "/t/ssm-client/b": ("SecureString", "secret-b", 1)},
        ["/t/ssm-client/absent"])
    assert mine["ResponseMetadata"]["HTTPStatusCode"] == 200


def test_errors_are_botocore_s_client_errors(clients: tuple[SSMClient, Any]) -> None:
    ours, reference = clients
    for client in (ours, reference):
        with pytest.raises(ClientError) as failed:
            client.get_parameter(Name="/t/ssm-client/never", WithDecryption=True)
        assert failed.value.response["Error"]["Code"] == "ParameterNotFound"
        assert failed.value.operation_name == "GetParameter"
