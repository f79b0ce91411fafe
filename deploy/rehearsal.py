"""The deploy rehearsal (issue 27 items 2 and 3): every function run from its built artifact, alone
in a fresh interpreter, against moto over HTTP, with the event shapes AWS sends; every AWS call it
makes recorded and held to its policy in template.yaml.

What runs where:
- this process holds moto's server (``local_stack.emulator.Emulator``: the template's tables and
  queues, the user pool, the secrets under the template's default SSM names), a recorder in front
  of it, and two small HTTP receivers standing for a webhook target and Telegram's Bot API;
- each function is a child ``python3.12 -I -S deploy/lambda_bootstrap.py ARTIFACT MODULE NAME``
  (deploy/lambda_bootstrap.py): its artifact and the standard library, nothing else; its
  environment is what template.yaml gives it, with the names of this moto's resources, plus the
  endpoint overrides a local run needs (``AWS_ENDPOINT_URL``, ``COGNITO_JWKS_URL``,
  ``TELEGRAM_API_BASE``, ``CONVOY_ALLOW_LOOPBACK_WEBHOOKS``) — each listed in ``LOCAL_OVERRIDES``;
- a function signs its requests with an access key named after its logical id, so the recorder
  knows whose call each one is.

``python -m deploy.rehearsal`` runs it and prints each step and the policy findings.
"""

from __future__ import annotations

import fnmatch
import io
import json
import os
import re
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from deploy import build_artifacts
from deploy.build_artifacts import FUNCTIONS, ROOT, Target

ACCOUNT = "123456789012"
REGION = "us-east-1"
BOOTSTRAP = ROOT / "deploy" / "lambda_bootstrap.py"
# template.yaml Handler -> the attribute the runtime calls
HANDLERS: dict[str, str] = {
    "ApiFunction": "lambda_handler",
    "DeadlineFunction": "handler",
    "DeadlineSweepFunction": "sweep_handler",
    "RelayFunction": "handler",
    "NotifierFunction": "handler",
    "TelegramFunction": "handler",
}
# Settings a deployed function does not have, because on AWS the default is right; each points a
# function at something on this machine instead of the internet.
LOCAL_OVERRIDES = (
    "AWS_ENDPOINT_URL",
    "COGNITO_JWKS_URL",
    "TELEGRAM_API_BASE",
    "CONVOY_ALLOW_LOOPBACK_WEBHOOKS",
)
OPERATOR_TOKEN = "rehearsal-operator-token-" + "x" * 16
TELEGRAM_SECRET = "rehearsal-telegram-webhook-secret"
TELEGRAM_BOT_TOKEN = "123456:rehearsal-bot-token"


# --- building -----------------------------------------------------------------------------------


def _sources_stamp() -> str:
    """Changes whenever anything an artifact is built from changes."""
    import hashlib

    digest = hashlib.sha256()
    files = [build_artifacts.LOCK, ROOT / "pyproject.toml", Path(build_artifacts.__file__)]
    for package in build_artifacts.PRODUCT:
        files += sorted(
            p for p in (ROOT / package).rglob("*") if p.is_file() and "__pycache__" not in p.parts
        )
    for path in files:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def built_artifacts(target: Target | None = None) -> dict[str, Path]:
    """Every function's artifact for ``target`` (default: this machine), rebuilt when a source changed.

    Safe with pytest-xdist: one process builds under a file lock, the others wait and reuse it."""
    import fcntl

    target = target or build_artifacts.host_target()
    base = ROOT / "build" / "lambda" / target.name
    base.mkdir(parents=True, exist_ok=True)
    stamp = base / ".stamp"
    with open(base / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        wanted = _sources_stamp()
        if not stamp.is_file() or stamp.read_text() != wanted:
            stamp.unlink(missing_ok=True)
            for logical_id in FUNCTIONS:
                build_artifacts.build(logical_id, base / logical_id, target)
            stamp.write_text(wanted)
    return {logical_id: base / logical_id for logical_id in FUNCTIONS}


# --- what each function calls ---------------------------------------------------------------


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


def _table_arn(table: str, index: str | None = None) -> str:
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
            (kinds[k], _table_arn(v["TableName"]))
            for item in data.get("TransactItems", [])
            for k, v in item.items()
        ]
    if operation == "TransactGetItems":
        return [("GetItem", _table_arn(i["Get"]["TableName"])) for i in data.get("TransactItems", [])]
    if operation in ("BatchGetItem", "BatchWriteItem"):
        return [(operation, _table_arn(t)) for t in data.get("RequestItems", {})]
    return [(operation, _table_arn(data.get("TableName", "*"), data.get("IndexName")))]


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
    action = {
        "POST": "CreateSchedule",
        "PUT": "UpdateSchedule",
        "GET": "GetSchedule",
        "DELETE": "DeleteSchedule",
    }
    calls = [Call(function, f"scheduler:{action[method]}", arn)]
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


# --- the policies ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grant:
    """One (action, resource pattern) of a function's inline policy, with the statement's Sid."""

    function: str
    sid: str
    action: str
    resource: str

    def allows(self, call: Call) -> bool:
        return (
            call.function == self.function
            and fnmatch.fnmatchcase(call.action.lower(), self.action.lower())
            and fnmatch.fnmatchcase(call.resource, self.resource)
        )


def grants(
    template: dict[str, Any], names: dict[str, dict[str, str]], parameters: dict[str, str]
) -> list[Grant]:
    """Every Allow of every function's inline ``Policies`` statements, intrinsics resolved against
    ``names`` ({logical id: {"Ref": ..., "Arn": ..., attribute: ...}}) and template ``parameters``.

    Only the inline statements are read: the managed policies SAM attaches for logging, X-Ray and
    event-source polling (the Lambda service's own reads of the stream and the queue) are not
    calls of our code, and are neither checked nor counted as grants."""
    found: list[Grant] = []
    for logical_id in FUNCTIONS:
        properties = template["Resources"][logical_id]["Properties"]
        for policy in properties.get("Policies", []):
            for statement in policy.get("Statement", []) if isinstance(policy, dict) else []:
                if statement.get("Effect") != "Allow":
                    continue
                actions = (
                    statement["Action"] if isinstance(statement["Action"], list) else [statement["Action"]]
                )
                resources = (
                    statement["Resource"]
                    if isinstance(statement["Resource"], list)
                    else [statement["Resource"]]
                )
                for action in actions:
                    for resource in resources:
                        found.append(
                            Grant(
                                logical_id,
                                statement.get("Sid", "?"),
                                action,
                                resolve(resource, names, parameters),
                            )
                        )
    return found


def resolve(value: Any, names: dict[str, dict[str, str]], parameters: dict[str, str]) -> str:
    """A CloudFormation string (Ref, GetAtt, Sub) as this rehearsal's ARNs and names."""
    pseudo = {
        "AWS::Partition": "aws",
        "AWS::Region": REGION,
        "AWS::AccountId": ACCOUNT,
        "AWS::StackName": "convoy",
        "AWS::URLSuffix": "amazonaws.com",
    }
    if isinstance(value, str):
        return value
    if "Ref" in value:
        ref = value["Ref"]
        return pseudo.get(ref) or parameters.get(ref) or names[ref]["Ref"]
    if "Fn::GetAtt" in value:
        logical_id, attribute = value["Fn::GetAtt"]
        return names[logical_id][attribute]
    if "Fn::Sub" in value:
        text = value["Fn::Sub"]

        def one(match: re.Match[str]) -> str:
            token = match.group(1)
            if "." in token and token not in pseudo:
                logical_id, attribute = token.split(".", 1)
                return names[logical_id][attribute]
            return resolve({"Ref": token}, names, parameters)

        return re.sub(r"\$\{([^}]+)\}", one, text)
    raise ValueError(f"cannot resolve {value!r}")


@dataclass
class Findings:
    denied: list[Call] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)


def check(calls: list[Call], granted: list[Grant]) -> Findings:
    """Calls no grant allows; and, per statement, actions that no call used on any of its
    resources and resources that no call of any of its actions touched (IAM statements are
    actions x resources, so a pair such as "GetItem on the index" is not a grant of its own)."""
    findings = Findings()
    used: set[Grant] = set()
    for call in sorted(set(calls), key=lambda c: (c.function, c.action, c.resource)):
        allowing = [g for g in granted if g.allows(call)]
        if not allowing:
            findings.denied.append(call)
        used.update(allowing)
    statements: dict[tuple[str, str], list[Grant]] = {}
    for grant in granted:
        statements.setdefault((grant.function, grant.sid), []).append(grant)
    for (function, sid), members in statements.items():
        for action in sorted({g.action for g in members}):
            if not any(g in used for g in members if g.action == action):
                findings.unused.append(f"{function} [{sid}]: {action} is never called")
        for resource in sorted({g.resource for g in members}):
            if not any(g in used for g in members if g.resource == resource):
                findings.unused.append(f"{function} [{sid}]: {resource} is never touched")
    return findings


# --- the functions --------------------------------------------------------------------------


class FunctionProcess:
    """One function's warm container: a fresh interpreter with only its artifact, answering events."""

    def __init__(
        self, logical_id: str, artifact: Path, env: dict[str, str], interpreter: str, log: Path
    ) -> None:
        self.logical_id = logical_id
        self._log = open(log, "ab")  # noqa: SIM115 - closed in close()
        self._process = subprocess.Popen(
            [
                interpreter,
                "-I",
                "-S",
                str(BOOTSTRAP),
                str(artifact),
                build_artifacts.FUNCTIONS[logical_id],
                HANDLERS[logical_id],
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=env,
            text=True,
            cwd=artifact,
        )
        self.ready = self._read()

    def _read(self) -> dict[str, Any]:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.logical_id} exited ({self._process.wait()}): see {self._log.name}")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(event) + "\n")
        self._process.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self._process.stdin:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
        self._log.close()


def function_env(
    logical_id: str,
    template: dict[str, Any],
    names: dict[str, dict[str, str]],
    parameters: dict[str, str],
    local: dict[str, str],
) -> dict[str, str]:
    """The environment Lambda gives ``logical_id``: the template's variables (Globals and its own,
    resolved to this rehearsal's names), the runtime's own, and ``local`` (LOCAL_OVERRIDES)."""
    variables = dict(template["Globals"]["Function"]["Environment"]["Variables"])
    own = template["Resources"][logical_id]["Properties"]
    variables.update((own.get("Environment") or {}).get("Variables") or {})
    env = {key: resolve(value, names, parameters) for key, value in variables.items()}
    env.update(
        {
            "AWS_LAMBDA_FUNCTION_NAME": f"convoy-{logical_id}",
            "AWS_LAMBDA_FUNCTION_VERSION": "1",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(own.get("MemorySize", 512)),
            "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
            "AWS_REGION": REGION,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_ACCESS_KEY_ID": logical_id,
            "AWS_SECRET_ACCESS_KEY": "rehearsal",
            "AWS_SESSION_TOKEN": "rehearsal",
            "LAMBDA_TASK_ROOT": "/var/task",
            "TZ": ":UTC",
            "LANG": "en_US.UTF-8",
            "PATH": "/usr/bin:/bin",
            # no X-Ray daemon here: the tracer's segments would go to a UDP port nobody reads
            "POWERTOOLS_TRACE_DISABLED": "true",
            "REHEARSAL_TIMEOUT_MS": str(int(own.get("Timeout", 15)) * 1000),
        }
    )
    env.update(local)
    return env


# --- stand-ins for the outside world -------------------------------------------------------------


class Receiver:
    """An HTTP server on loopback that answers 200 and keeps what it was sent (webhook, Telegram)."""

    def __init__(self, failures: int = 0) -> None:
        self.requests: list[tuple[str, bytes]] = []
        received = self.requests
        to_fail = [failures]  # answer 503 to this many requests first (a target that recovers)

        class Handle(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                length = int(self.headers.get("content-length") or 0)
                received.append((self.path, self.rfile.read(length)))
                answer = b'{"ok": true, "result": {"message_id": 1}}'
                failing = to_fail[0] > 0
                to_fail[0] -= 1
                self.send_response(503 if failing else 200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handle)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


# --- the rehearsal -----------------------------------------------------------------------------


@dataclass
class Step:
    function: str
    name: str
    answer: dict[str, Any]
    ok: bool
    detail: str = ""


@dataclass
class Report:
    steps: list[Step] = field(default_factory=list)
    ready: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    findings: Findings = field(default_factory=Findings)
    unsigned: list[str] = field(default_factory=list)
    logs: Path | None = None


def http_event(
    method: str, path: str, body: Any = None, token: str | None = None, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    """An API Gateway HTTP API (payload 2.0) event, as the HTTP API sends it to a Lambda."""
    from local_stack.http_adapter import to_event

    sent = {
        "host": "abc123.execute-api.us-east-1.amazonaws.com",
        "user-agent": "rehearsal/1.0",
        **(headers or {}),
    }
    if body is not None:
        sent["content-type"] = "application/json"
    if token:
        sent["authorization"] = f"Bearer {token}"
    raw = json.dumps(body).encode() if body is not None else b""
    event = to_event(method, path, sent, raw, "198.51.100.7")
    route = "$default"
    event["routeKey"] = event["requestContext"]["routeKey"] = route
    return event


@contextmanager
def _stack(log_dir: Path) -> Iterator[tuple[Any, Recorder, dict[str, str]]]:
    """moto with the template's resources and a recorder in front; yields (emulator, recorder, env)."""
    from local_stack import emulator as emulator_module

    recorders: list[Recorder] = []

    class RecordingEmulator(emulator_module.Emulator):
        def _atomic(self, app: Any) -> Any:
            recorder = Recorder(super()._atomic(app))
            recorders.append(recorder)
            return recorder

    saved = dict(os.environ)
    os.environ.update({"CONVOY_OPERATOR_TOKEN": "", "TELEGRAM_BOT_TOKEN": "", "TELEGRAM_WEBHOOK_SECRET": ""})
    running = RecordingEmulator(mailbox_dir=log_dir / "mailbox").start()
    try:
        yield running, recorders[0], dict(os.environ)
    finally:
        running.stop()
        os.environ.clear()
        os.environ.update(saved)


def rehearse(log_dir: Path | None = None, target: Target | None = None) -> Report:
    """Build, start moto, run every function through its scenario; the report says what happened."""
    import tempfile

    from local_stack.template import load_template

    artifacts = built_artifacts(target)
    interpreter = (
        build_artifacts.target_interpreter((target or build_artifacts.host_target()).python) or sys.executable
    )
    log_dir = log_dir or Path(tempfile.mkdtemp(prefix="rehearsal-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    template = load_template()
    report = Report(logs=log_dir)
    with _stack(log_dir) as (running, recorder, env):
        from infra import aws_clients

        names, parameters = _resources(template, running, env)
        webhook, telegram = Receiver(failures=1), Receiver()
        local = {
            "AWS_ENDPOINT_URL": running.endpoint,
            "COGNITO_JWKS_URL": env["COGNITO_JWKS_URL"],
            "TELEGRAM_API_BASE": telegram.url,
            "CONVOY_ALLOW_LOOPBACK_WEBHOOKS": "1",
        }
        processes: dict[str, FunctionProcess] = {}
        try:
            for logical_id, artifact in artifacts.items():
                process = FunctionProcess(
                    logical_id,
                    artifact,
                    function_env(logical_id, template, names, parameters, local),
                    interpreter,
                    log_dir / f"{logical_id}.log",
                )
                processes[logical_id] = process
                report.ready[logical_id] = process.ready
            if all("ready" in r for r in report.ready.values()):
                Scenario(processes, report, running, aws_clients, names, webhook).run()
        finally:
            for process in processes.values():
                process.close()
            webhook.stop()
            telegram.stop()
        report.calls = list(recorder.calls)
        report.unsigned = list(recorder.unsigned)
    report.findings = check(report.calls, grants(template, names, parameters))
    return report


def _resources(
    template: dict[str, Any], running: Any, env: dict[str, str]
) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """The names and ARNs of moto's resources by logical id, and the template's parameters; the
    secrets are stored under the template's default parameter names, as an operator creates them."""
    from infra import aws_clients

    resources = running.resources
    table, idempotency = resources["GAME_TABLE"], resources["IDEMPOTENCY_TABLE"]
    sqs = aws_clients.sqs()
    names: dict[str, dict[str, str]] = {
        "GameTable": {"Ref": table, "Arn": _table_arn(table)},
        "IdempotencyTable": {"Ref": idempotency, "Arn": _table_arn(idempotency)},
    }
    for logical_id, url in resources.items():
        if url.startswith("http") and f"/{ACCOUNT}/" in url:  # the queues (not the JWKS URL)
            arn = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"][
                "QueueArn"
            ]
            key = {"OUTBOX_QUEUE_URL": "OutboxQueue", "OUTBOX_DLQ_URL": "OutboxDeadLetterQueue"}.get(
                logical_id, logical_id
            )
            names[key] = {"Ref": url, "Arn": arn, "QueueName": arn.rsplit(":", 1)[1]}
    group = "convoy-deadlines"
    aws_clients.client("scheduler").create_schedule_group(Name=group)
    names["DeadlineScheduleGroup"] = {"Ref": group}
    names["SchedulerRole"] = {"Arn": f"arn:aws:iam::{ACCOUNT}:role/convoy-scheduler"}
    names["UserPool"] = {"Ref": env["COGNITO_USER_POOL_ID"]}
    names["UserPoolClient"] = {"Ref": env["COGNITO_CLIENT_ID"]}
    names["HttpApi"] = {"Ref": "abc123"}
    names["WebDistribution"] = {"Ref": "E2REHEARSAL", "DomainName": "d111111abcdef8.cloudfront.net"}
    parameters = {name: str(spec.get("Default", "")) for name, spec in template["Parameters"].items()}
    ssm = aws_clients.client("ssm")
    for parameter, value in (
        ("OperatorTokenParameter", OPERATOR_TOKEN),
        ("TelegramBotTokenParameter", TELEGRAM_BOT_TOKEN),
        ("TelegramWebhookSecretParameter", TELEGRAM_SECRET),
    ):
        ssm.put_parameter(Name=parameters[parameter], Value=value, Type="SecureString", Overwrite=True)
    return names, parameters


class Scenario:
    """The calls a deployed stack gets in its first minutes: a timed game played through a turn by
    the API, a deadline and the sweeper, its notices relayed and delivered, an account, the sandbox,
    press, a PNG map, the chat bot."""

    def __init__(
        self,
        processes: dict[str, FunctionProcess],
        report: Report,
        running: Any,
        aws: Any,
        names: dict[str, dict[str, str]],
        webhook: Receiver,
    ) -> None:
        self.p, self.report, self.running, self.aws, self.names = processes, report, running, aws, names
        self.webhook = webhook
        self.games: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        self.link = ""

    def step(
        self,
        function: str,
        name: str,
        event: dict[str, Any],
        expect: Callable[[Any], bool] = lambda result: True,
    ) -> Any:
        answer = self.p[function].invoke(event)
        result = answer.get("result")
        ok = "error" not in answer and expect(result)
        detail = answer.get("error", "") or ("" if ok else json.dumps(result)[:600])
        self.report.steps.append(Step(function, name, answer, ok, detail))
        return result

    def api(
        self,
        name: str,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        status: int = 200,
        headers: dict[str, str] | None = None,
    ) -> Any:
        result = self.step(
            "ApiFunction",
            name,
            http_event(method, path, body, token, headers),
            lambda r: isinstance(r, dict) and r.get("statusCode") == status,
        )
        if not isinstance(result, dict) or result.get("isBase64Encoded") or not result.get("body"):
            return result
        try:
            return json.loads(result["body"])
        except ValueError:
            return result

    def run(self) -> None:
        """Each part in turn; a part that cannot go on (an answer without what the next call needs)
        is one failed step, and the parts after it still run."""
        for part in (
            self.play_a_turn,
            self.accounts_and_sandbox,
            self.deadline_and_sweep,
            self.relay_and_notify,
            self.telegram,
        ):
            try:
                part()
            except (KeyError, TypeError, OSError, ValueError) as exc:
                self.report.steps.append(
                    Step("-", f"{part.__name__} stopped", {}, False, f"{type(exc).__name__}: {exc}")
                )

    def seated_game(self, label: str, **settings: Any) -> tuple[str, str, dict[str, str]]:
        """A classical game with all seven seats taken: (game id, creator's token, tokens by power)."""
        created = self.api(
            f"{label}: create", "POST", "/games", {"variant": "classical", **settings}, status=201
        )
        game, creator = created["game_id"], created["token"]
        tokens = {
            power: self.api(f"{label}: join {power}", "POST", f"/games/{game}/join", {"power": power})[
                "token"
            ]
            for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
        }
        return game, creator, tokens

    def play_a_turn(self) -> None:
        self.api("list variants", "GET", "/variants")
        # two-second phases: the deadlines below are due by the time the deadline function fires
        fast = {"phase_seconds": {"MOVEMENT": 2, "RETREAT": 2, "ADJUSTMENT": 2}}
        game, creator, tokens = self.seated_game(
            "a timed game with a webhook",
            **fast,
            notify=[{"type": "webhook", "url": self.webhook.url + "/hook"}],
        )
        self.games = {"played": game, "deadline": self.seated_game("a second timed game", **fast)[0]}
        self.tokens = tokens
        key = {"idempotency-key": str(uuid.uuid4())}
        orders = {"orders": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"], "phase": "S1901M"}
        self.api(
            "orders for a stale phase (the key is released)",
            "POST",
            f"/games/{game}/orders",
            {**orders, "phase": "F1901M"},
            tokens["FRANCE"],
            status=409,
            headers=key,
        )
        for attempt in ("submit orders", "submit orders again (same Idempotency-Key)"):
            self.api(attempt, "POST", f"/games/{game}/orders", orders, tokens["FRANCE"], headers=key)
        self.api(
            "send press",
            "POST",
            f"/games/{game}/messages",
            {"to": ["ENGLAND"], "text": "Channel?"},
            tokens["FRANCE"],
            status=201,
        )
        self.api("read press", "GET", f"/games/{game}/messages", token=tokens["ENGLAND"])
        self.api("a player's view", "GET", f"/games/{game}", token=tokens["FRANCE"])
        self.api("orders status", "GET", f"/games/{game}/orders_status")
        self.api(
            "the operator may not process another phase",
            "POST",
            f"/games/{game}/process_turn",
            {"phase": "F1901M"},
            OPERATOR_TOKEN,
            status=409,
        )
        time.sleep(2.1)  # the two-second deadline passes: now the creator may process the turn
        self.api(
            "the creator processes the turn",
            "POST",
            f"/games/{game}/process_turn",
            {"phase": "S1901M"},
            creator,
        )
        self.api("last resolution", "GET", f"/games/{game}/last_resolution")
        self.api("history", "GET", f"/games/{game}/history")
        self.api("events", "GET", f"/games/{game}/events?after=0")
        self.api("the board as PNG", "GET", f"/games/{game}/map/resolution?format=png&width=600")
        self.api("the game list", "GET", "/games")
        self.link = self.api(
            "a Telegram link code", "POST", f"/games/{game}/telegram/link_code", token=tokens["GERMANY"]
        )["code"]
        private = self.api(
            "create a private game",
            "POST",
            "/games",
            {"private": True, "join_password": "swordfish"},
            status=201,
        )
        self.api(
            "a wrong join password",
            "POST",
            f"/games/{private['game_id']}/join",
            {"password": "guess"},
            status=403,
        )

    def accounts_and_sandbox(self) -> None:
        email = "ada@example.com"
        self.api(
            "sign up",
            "POST",
            "/auth/signup",
            {"email": email, "password": "Convoy-2026", "display_name": "Ada"},
            status=201,
        )
        code = json.loads((self.running.mailbox.directory / f"{email}.json").read_text())["code"]
        self.api("confirm", "POST", "/auth/confirm", {"email": email, "code": code})
        signed = self.api("sign in", "POST", "/auth/signin", {"email": email, "password": "Convoy-2026"})
        id_token = signed["id_token"] if isinstance(signed, dict) else ""
        self.api("who am I", "GET", "/me", token=id_token)
        self.api("a game by an account", "POST", "/games", {"name": "Friday"}, id_token, status=201)
        self.api("my games", "GET", "/me/games", token=id_token)
        self.api(
            "the sandbox",
            "POST",
            "/adjudicate",
            {
                "compact": "France:APar,FBre|Par,Bre Germany:AMun|Mun",
                "orders": {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
            },
        )

    def deadline_and_sweep(self) -> None:
        time.sleep(2.5)  # both games' two-second deadlines pass
        # EventBridge Scheduler's target input, as the schedule was created with it
        done = self.step(
            "DeadlineFunction",
            "a due deadline fires",
            {"game_id": self.games["deadline"], "phase": "S1901M"},
            lambda r: isinstance(r, dict) and r.get("outcome") not in (None, "INVALID_EVENT"),
        )
        self.step(
            "DeadlineFunction",
            "a repeated firing is a no-op",
            {"game_id": self.games["deadline"], "phase": "S1901M"},
            lambda r: isinstance(r, dict) and r.get("outcome") != (done or {}).get("outcome"),
        )
        self.step(
            "DeadlineSweepFunction",
            "the sweep finds the overdue game (rate schedule input)",
            {},
            lambda r: isinstance(r, dict) and self.games["played"] in r.get("outcomes", {}),
        )

    def relay_and_notify(self) -> None:
        from infra.queue import drain_once
        from local_stack.stream_relay import StreamRelay

        table = self.names["GameTable"]["Ref"]
        batches: list[Any] = []

        def relay(event: dict[str, Any], context: Any) -> Any:
            result = self.step(
                "RelayFunction",
                f"a stream batch of {len(event['Records'])}",
                event,
                lambda r: isinstance(r, dict) and not r.get("batchItemFailures"),
            )
            batches.append(result)
            return result

        pump = StreamRelay(
            dynamodb=self.aws.dynamodb,
            streams=lambda: self.aws.client("dynamodbstreams"),
            table=table,
            handler=relay,
        )
        for _ in range(20):
            if not pump():
                break
        if not batches:
            self.report.steps.append(Step("RelayFunction", "a stream batch", {}, False, "no OUTBOX records"))

        def notify(event: dict[str, Any], context: Any) -> Any:
            # the webhook answers 503 once: that message is a batch item failure, retried next drain
            return self.step(
                "NotifierFunction",
                f"a queue batch of {len(event['Records'])}",
                event,
                lambda r: isinstance(r, dict) and len(r.get("batchItemFailures", [])) <= 1,
            )

        for _ in range(20):
            delivered, failed = drain_once(self.aws.sqs(), self.names["OutboxQueue"]["Ref"], notify)
            if not delivered and not failed:
                break
        time.sleep(0.2)
        paths = [path for path, _ in self.webhook.requests]
        ok = len(paths) >= 2
        self.report.steps.append(
            Step(
                "NotifierFunction",
                "the webhook got the game's notices after one 503",
                {},
                ok,
                "" if ok else f"the webhook got {paths}",
            )
        )

    def telegram(self) -> None:
        def update(number: int, text: str) -> dict[str, Any]:
            message = {
                "message_id": number,
                "date": int(time.time()),
                "text": text,
                "chat": {"id": 42, "type": "private"},
                "from": {"id": 42, "is_bot": False, "first_name": "Ada"},
            }
            return http_event(
                "POST",
                "/webhooks/telegram",
                {"update_id": 1000 + number, "message": message},
                headers={"x-telegram-bot-api-secret-token": TELEGRAM_SECRET},
            )

        def answered(r: Any) -> bool:
            return isinstance(r, dict) and r.get("statusCode") == 200

        self.step("TelegramFunction", "/help", update(1, "/help"), answered)
        self.step("TelegramFunction", "/link with the seat's code", update(2, f"/link {self.link}"), answered)
        self.step(
            "TelegramFunction",
            "/orders from the linked seat",
            update(3, "/orders A MUN H; F KIE H"),
            answered,
        )
        self.step("TelegramFunction", "/press to a power", update(4, "/msg ENGLAND hello"), answered)
        forged = http_event("POST", "/webhooks/telegram", {"update_id": 9}, headers={})
        self.step(
            "TelegramFunction",
            "a forged Telegram update",
            forged,
            lambda r: isinstance(r, dict) and r.get("statusCode") == 401,
        )


def main() -> int:
    report = rehearse(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
    for logical_id, ready in report.ready.items():
        said = ready.get("init_error") or (
            f"init {ready['init_ms']:.0f} ms (import {ready['import_ms']:.0f}, "
            f"priming {ready['prime_ms']:.0f})"
        )
        print(f"{logical_id:24} {said}")
    for step in report.steps:
        print(f"{'ok ' if step.ok else 'FAIL'} {step.function:22} {step.name} {step.detail[:300]}")
    print(f"{len(report.calls)} AWS calls recorded; unsigned: {sorted(set(report.unsigned))}")
    for call in report.findings.denied:
        print(f"DENIED  {call.function}: {call.action} on {call.resource}")
    for unused in report.findings.unused:
        print(f"UNUSED  {unused}")
    print(f"logs: {report.logs}")
    bad = [s for s in report.steps if not s.ok] or report.findings.denied or report.findings.unused
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
