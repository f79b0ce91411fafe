"""Which AWS calls a function makes, as IAM sees them (issue 27 item 3): a recorder in front of
moto attributes each signed request to the function whose access key signed it and maps it to the
IAM action and resource ARN it needs (deploy/rehearsal.py)."""

from __future__ import annotations

import io
import json
import re
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from deploy.build_artifacts import FUNCTIONS

ACCOUNT = "123456789012"
REGION = "us-east-1"


@dataclass(frozen=True)
class Call:
    """One AWS request as IAM sees it: who, the IAM action, and the resource ARN it acts on."""

    function: str
    action: str
    resource: str


def _credential(headers: dict[str, str]) -> tuple[str, str] | None:
    """(access key id, signing service) from a SigV4 Authorization header, or None if unsigned."""
    found = re.search(r"Credential=([^/]+)/\d+/[^/]+/([^/]+)/", headers.get("authorization", ""))
    return (found.group(1), found.group(2)) if found else None


def iam_calls(
    function: str, service: str, headers: dict[str, str], method: str, path: str, body: bytes
) -> list[Call]:
    """The IAM (action, resource) pairs one request needs (the documented mapping for what we call)."""
    target = headers.get("x-amz-target", "")
    operation = target.rpartition(".")[2]
    data: dict[str, Any] = {}
    if body and headers.get("content-type", "").startswith(("application/x-amz-json", "application/json")):
        try:
            data = json.loads(body)
        except ValueError:
            data = {}
    if service == "dynamodb":
        return [Call(function, f"dynamodb:{a}", r) for a, r in _dynamodb(operation, data)]
    if service == "sqs":
        return [
            Call(
                function, f"sqs:{_SQS_BATCH.get(operation, operation)}", _queue_arn(data.get("QueueUrl", ""))
            )
        ]
    if service == "ssm":
        names = data.get("Names") or [data.get("Name", "")]
        return [
            Call(function, f"ssm:{operation}", f"arn:aws:ssm:{REGION}:{ACCOUNT}:parameter{n}") for n in names
        ]
    if service == "scheduler":
        return _scheduler(function, method, path, body)
    if service == "cognito-idp":
        return [
            Call(
                function,
                f"cognito-idp:{operation}",
                f"arn:aws:cognito-idp:{REGION}:{ACCOUNT}:userpool/" + str(data.get("UserPoolId", "*")),
            )
        ]
    return [Call(function, f"{service}:{operation or method + ' ' + path}", "*")]


_SQS_BATCH = {
    "SendMessageBatch": "SendMessage",
    "DeleteMessageBatch": "DeleteMessage",
    "ChangeMessageVisibilityBatch": "ChangeMessageVisibility",
}


def table_arn(table: str, index: str | None = None) -> str:
    arn = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/{table}"
    return f"{arn}/index/{index}" if index else arn


def _dynamodb(operation: str, data: dict[str, Any]) -> list[tuple[str, str]]:
    if operation == "TransactWriteItems":  # IAM checks each item's own action
        kinds = {
            "Put": "PutItem",
            "Update": "UpdateItem",
            "Delete": "DeleteItem",
            "ConditionCheck": "ConditionCheckItem",
        }
        return [
            (kinds[k], table_arn(v["TableName"]))
            for item in data.get("TransactItems", [])
            for k, v in item.items()
        ]
    if operation == "TransactGetItems":
        return [("GetItem", table_arn(i["Get"]["TableName"])) for i in data.get("TransactItems", [])]
    if operation in ("BatchGetItem", "BatchWriteItem"):
        return [(operation, table_arn(t)) for t in data.get("RequestItems", {})]
    return [(operation, table_arn(data.get("TableName", "*"), data.get("IndexName")))]


def _queue_arn(url: str) -> str:
    parts = urlsplit(url).path.strip("/").split("/")
    return f"arn:aws:sqs:{REGION}:{parts[0] if len(parts) > 1 else ACCOUNT}:{parts[-1]}"


def _scheduler(function: str, method: str, path: str, body: bytes) -> list[Call]:
    parts = [unquote(p) for p in urlsplit(path).path.strip("/").split("/")]
    query = parse_qs(urlsplit(path).query)
    if parts == ["schedules"]:
        return [Call(function, "scheduler:ListSchedules", "*")]
    if parts[:1] == ["schedule-groups"]:
        action = {"POST": "CreateScheduleGroup", "GET": "GetScheduleGroup", "DELETE": "DeleteScheduleGroup"}[
            method
        ]
        return [
            Call(
                function,
                f"scheduler:{action}",
                f"arn:aws:scheduler:{REGION}:{ACCOUNT}:schedule-group/{parts[1]}",
            )
        ]
    data = json.loads(body) if body else {}
    group = data.get("GroupName") or (query.get("groupName") or ["default"])[0]
    arn = f"arn:aws:scheduler:{REGION}:{ACCOUNT}:schedule/{group}/{parts[1]}"
    actions = {
        "POST": "CreateSchedule",
        "PUT": "UpdateSchedule",
        "GET": "GetSchedule",
        "DELETE": "DeleteSchedule",
    }
    calls = [Call(function, f"scheduler:{actions[method]}", arn)]
    role = (data.get("Target") or {}).get("RoleArn")
    if role:  # handing a role to Scheduler is itself an IAM action of the caller
        calls.append(Call(function, "iam:PassRole", role))
    return calls


class Recorder:
    """WSGI middleware in front of moto: records each signed request's IAM calls by function, and
    how long moto took to answer them (``served_ms``: the emulator's share of a request's time)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.calls: list[Call] = []
        self.unsigned: list[str] = []
        self.served_ms: dict[str, float] = {}
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        environ["wsgi.input"] = io.BytesIO(body)
        headers = {k[5:].replace("_", "-").lower(): v for k, v in environ.items() if k.startswith("HTTP_")}
        headers["content-type"] = environ.get("CONTENT_TYPE", "")
        signed = _credential(headers)
        path = environ.get("PATH_INFO", "/") + (
            "?" + environ["QUERY_STRING"] if environ.get("QUERY_STRING") else ""
        )
        if signed and signed[0] in FUNCTIONS:
            found = iam_calls(signed[0], signed[1], headers, environ["REQUEST_METHOD"], path, body)
            with self._lock:
                self.calls.extend(found)
        elif not signed:
            with self._lock:
                self.unsigned.append(headers.get("x-amz-target") or path)
        began = time.perf_counter()
        answer = list(self.app(environ, start_response))
        if signed:
            took = (time.perf_counter() - began) * 1000
            with self._lock:
                self.served_ms[signed[0]] = self.served_ms.get(signed[0], 0.0) + took
        return answer
