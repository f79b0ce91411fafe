"""A small SSM Parameter Store client: the service's JSON protocol (``AmazonSSM.<Operation>``,
``application/x-amz-json-1.1``), SigV4-signed, over ``infra/aws_json.py``.

Why not Powertools' parameters utility or botocore's SSM client (issue 9 item 6): each
function reads its SecureStrings once, on its first request, in one ``GetParameters``
call; building a boto3/botocore client for that one call was ~200 ms of every handler's
cold start. The answers are botocore's JSON (``LastModifiedDate`` stays a number).
Endpoint: ``AWS_ENDPOINT_URL_SSM`` or ``AWS_ENDPOINT_URL`` (the local stack), else
``https://ssm.<region>.amazonaws.com``.
"""

from __future__ import annotations

from infra.aws_json import JsonServiceClient


class SSMClient(JsonServiceClient):
    """botocore's SSM client interface (``get_parameters``, ``put_parameter``, ...)."""

    SERVICE = "ssm"
    TARGET_PREFIX = "AmazonSSM."
    CONTENT_TYPE = "application/x-amz-json-1.1"
