"""A small SQS client: the service's JSON protocol (``AmazonSQS.<Operation>``,
``application/x-amz-json-1.0``), SigV4-signed, over ``infra/aws_json.py``.

Why not botocore's SQS client (issue 9 item 6): building it (botocore's session, the
endpoint rule set, the SQS model) was most of the relay's cold start, for a
``SendMessageBatch`` per batch. SQS speaks the same JSON protocol as DynamoDB and SSM
(botocore itself uses it), and the answers are botocore's JSON (``Successful``,
``Failed``, ``Messages``...). Errors are botocore's ``ClientError`` with the JSON
protocol's codes (``QueueDoesNotExist``; botocore would also map them to the old
query-protocol names, which Convoy never reads). Endpoint: ``AWS_ENDPOINT_URL_SQS`` or
``AWS_ENDPOINT_URL`` (the local stack), else ``https://sqs.<region>.amazonaws.com``.
"""

from __future__ import annotations

from infra.aws_json import JsonServiceClient


class SQSClient(JsonServiceClient):
    """botocore's SQS client interface (``send_message_batch``, ``receive_message``, ...)."""

    SERVICE = "sqs"
    TARGET_PREFIX = "AmazonSQS."
    CONTENT_TYPE = "application/x-amz-json-1.0"
