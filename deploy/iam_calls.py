"""Which AWS calls a function makes, as IAM sees them (issue 27 item 3). The function's own SDK
tells: deploy/lambda_bootstrap.py records each botocore call (service, operation, the parameters
that name resources) through botocore's events, and this module maps each to the IAM actions and
resource ARNs it needs. Nothing here reads the wire protocol."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

ACCOUNT = "123456789012"
REGION = "us-east-1"


@dataclass(frozen=True)
class Call:
    """One AWS request as IAM sees it: who, the IAM action, and the resource ARN it acts on."""

    function: str
    action: str
    resource: str


def iam_calls(
    function: str, service: str, operation: str, params: dict[str, Any], live_stage: str = "*/*"
) -> list[Call]:
    """The IAM (action, resource) pairs one SDK call needs (the documented mapping for what we call).

    ``live_stage`` is ``<api id>/<stage>`` of the WebSocket API whose Management API the function
    calls: its endpoint names them, not the call (the rehearsal's endpoint is moto's)."""
    if service == "dynamodb":
        return [Call(function, f"dynamodb:{a}", r) for a, r in _dynamodb(operation, params)]
    if service == "sqs":
        action = _SQS_BATCH.get(operation, operation)
        return [Call(function, f"sqs:{action}", _queue_arn(params.get("QueueUrl", "")))]
    if service == "ssm":
        names = params.get("Names") or [params.get("Name", "")]
        return [
            Call(function, f"ssm:{operation}", f"arn:aws:ssm:{REGION}:{ACCOUNT}:parameter{n}") for n in names
        ]
    if service == "scheduler":
        return _scheduler(function, operation, params)
    if service == "sesv2" and operation == "SendEmail":  # SES checks the identity and the set
        sender = str(params.get("FromEmailAddress", "")).rstrip(">").rpartition("@")[2]
        calls = [Call(function, "ses:SendEmail", f"arn:aws:ses:{REGION}:{ACCOUNT}:identity/{sender}")]
        if params.get("ConfigurationSetName"):
            calls.append(Call(function, "ses:SendEmail", f"arn:aws:ses:{REGION}:{ACCOUNT}:configuration-set/"
                                                         f"{params['ConfigurationSetName']}"))
        return calls
    if service == "apigatewaymanagementapi":  # every operation is execute-api:ManageConnections
        method = {"PostToConnection": "POST", "GetConnection": "GET", "DeleteConnection": "DELETE"}[operation]
        resource = f"arn:aws:execute-api:{REGION}:{ACCOUNT}:{live_stage}/{method}/@connections/"
        return [Call(function, "execute-api:ManageConnections", resource + str(params.get("ConnectionId")))]
    if service == "cognito-idp":
        pool = str(params.get("UserPoolId", "*"))
        return [
            Call(
                function,
                f"cognito-idp:{operation}",
                f"arn:aws:cognito-idp:{REGION}:{ACCOUNT}:userpool/{pool}",
            )
        ]
    return [Call(function, f"{service}:{operation}", "*")]


_SQS_BATCH = {
    "SendMessageBatch": "SendMessage",
    "DeleteMessageBatch": "DeleteMessage",
    "ChangeMessageVisibilityBatch": "ChangeMessageVisibility",
}
_TRANSACT_WRITES = {
    "Put": "PutItem",
    "Update": "UpdateItem",
    "Delete": "DeleteItem",
    "ConditionCheck": "ConditionCheckItem",
}


def table_arn(table: str, index: str | None = None) -> str:
    arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{table}"
    return f"{arn}/index/{index}" if index else arn


def _dynamodb(operation: str, params: dict[str, Any]) -> list[tuple[str, str]]:
    if operation == "TransactWriteItems":  # IAM checks each item's own action
        return [
            (_TRANSACT_WRITES[kind], table_arn(part["TableName"]))
            for item in params.get("TransactItems", [])
            for kind, part in item.items()
        ]
    if operation == "TransactGetItems":
        return [("GetItem", table_arn(i["Get"]["TableName"])) for i in params.get("TransactItems", [])]
    if operation in ("BatchGetItem", "BatchWriteItem"):
        return [(operation, table_arn(t)) for t in params.get("RequestItems", {})]
    return [(operation, table_arn(params.get("TableName", "*"), params.get("IndexName")))]


def _queue_arn(url: str) -> str:
    parts = urlsplit(url).path.strip("/").split("/")
    return f"arn:aws:sqs:{REGION}:{parts[0] if len(parts) > 1 else ACCOUNT}:{parts[-1]}"


def _scheduler(function: str, operation: str, params: dict[str, Any]) -> list[Call]:
    if operation == "ListSchedules":
        return [Call(function, "scheduler:ListSchedules", "*")]
    if operation.endswith("ScheduleGroup"):
        return [
            Call(
                function,
                f"scheduler:{operation}",
                f"arn:aws:scheduler:{REGION}:{ACCOUNT}:schedule-group/{params.get('Name', '*')}",
            )
        ]
    group = params.get("GroupName") or "default"
    calls = [
        Call(
            function,
            f"scheduler:{operation}",
            f"arn:aws:scheduler:{REGION}:{ACCOUNT}:schedule/{group}/{params.get('Name', '*')}",
        )
    ]
    role = (params.get("Target") or {}).get("RoleArn")
    if role:  # handing a role to Scheduler is itself an IAM action of the caller
        calls.append(Call(function, "iam:PassRole", role))
    return calls
