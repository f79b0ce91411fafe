"""The deploy rehearsal (issue 27 items 2 and 3): every function run from its built artifact, alone
in a fresh interpreter, against moto over HTTP, with the event shapes AWS sends; every AWS call it
makes recorded and held to its policy in template.yaml.

What runs where:
- this process holds moto's server (``local_stack.emulator.Emulator``: the template's tables and
  queues, the user pool, the secrets under the template's default SSM names), two small HTTP
  receivers standing for a webhook target and Telegram's Bot API, and a UDP one for X-Ray;
- each function is a child ``python3.12 -I -S deploy/lambda_bootstrap.py ARTIFACT MODULE NAME``
  (deploy/lambda_bootstrap.py): its artifact and the standard library, nothing else; its
  environment is what template.yaml gives it, with the names of this moto's resources, plus the
  endpoint overrides a local run needs (``AWS_ENDPOINT_URL``, ``COGNITO_JWKS_URL``,
  ``TELEGRAM_API_BASE``, ``CONVOY_ALLOW_LOOPBACK_WEBHOOKS``, and ``SWEEP_GRACE_SECONDS`` for the
  scenario's two-second phases) — each listed in ``LOCAL_OVERRIDES``;
- each child reports the SDK calls it made with each answer (deploy/lambda_bootstrap.py records
  them through botocore's events), which deploy/iam_calls.py turns into IAM actions and ARNs.

``python -m deploy.rehearsal`` runs it and prints each step and the policy findings.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from deploy import build_artifacts
from deploy.build_artifacts import FUNCTIONS, ROOT, Target
from deploy.function_process import FunctionProcess, function_env
from deploy.iam_calls import ACCOUNT, iam_calls, table_arn
from deploy.policies import check, grants
from deploy.scenario import (
    LIVE_STAGE,
    MAIL_LINK_KEY,
    OPERATOR_TOKEN,
    TELEGRAM_BOT_TOKEN,
    TELEGRAM_SECRET,
    WEB_PUSH_KEY,
    Receiver,
    Report,
    Scenario,
    TraceDaemon,
)

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


@contextmanager
def moto_stack(log_dir: Path) -> Iterator[tuple[Any, dict[str, str]]]:
    """moto with the template's resources; yields (emulator, the environment it set)."""
    from local_stack.emulator import Emulator

    saved = dict(os.environ)
    os.environ.update({"CONVOY_OPERATOR_TOKEN": "", "TELEGRAM_BOT_TOKEN": "", "TELEGRAM_WEBHOOK_SECRET": ""})
    running = Emulator(mailbox_dir=log_dir / "mailbox").start()
    try:
        yield running, dict(os.environ)
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
    with moto_stack(log_dir) as (running, env):
        from infra import aws_clients

        names, parameters = stack_resources(template, running, env)
        webhook, telegram, daemon = Receiver(failures=1), Receiver(), TraceDaemon()
        push = Receiver()  # stands for a browser's push service (web push, issue 33)
        local = _local_overrides(running, env, daemon, telegram)
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
                Scenario(processes, report, running, aws_clients, names, webhook, push).run()
        finally:
            for process in processes.values():
                process.close()
            webhook.stop()
            telegram.stop()
            push.stop()
            daemon.stop()
            report.segments = list(daemon.segments)
            _record_calls(processes, report)
    report.findings = check(report.calls, grants(template, names, parameters))
    return report


def _local_overrides(
    running: Any, env: dict[str, str], daemon: TraceDaemon, telegram: Receiver
) -> dict[str, str]:
    """What a local run sets beyond the template's environment: the endpoints of this machine's
    stand-ins for AWS, Cognito's keys, Telegram and X-Ray (the module docstring lists why each)."""
    return {
        # Lambda's own setting for a traced function (its X-Ray daemon), here our stand-in
        "AWS_XRAY_DAEMON_ADDRESS": daemon.address,
        "AWS_ENDPOINT_URL": running.endpoint,
        "COGNITO_JWKS_URL": env["COGNITO_JWKS_URL"],
        "TELEGRAM_API_BASE": telegram.url,
        "CONVOY_ALLOW_LOOPBACK_WEBHOOKS": "1",
        "LIVE_MANAGEMENT_URL": running.endpoint,
        # the scenario's phases last two seconds: no minute to leave a due one to its schedule
        "SWEEP_GRACE_SECONDS": "0",
    }


def _record_calls(processes: dict[str, FunctionProcess], report: Report) -> None:
    """Every AWS call each function made, into the report: signed ones as the IAM actions and
    resources its policy must grant, unsigned ones by name (only public operations may be)."""
    for logical_id, process in processes.items():
        for made in process.aws_calls:
            if made["unsigned"]:
                report.unsigned.append(f"{made['service']}:{made['operation']}")
            else:
                report.calls += iam_calls(
                    logical_id, made["service"], made["operation"], made["params"], LIVE_STAGE
                )


def stack_resources(
    template: dict[str, Any], running: Any, env: dict[str, str]
) -> tuple[dict[str, dict[str, str]], dict[str, str]]:
    """The names and ARNs of moto's resources by logical id, and the template's parameters; the
    secrets are stored under the template's default parameter names, as an operator creates them."""
    from infra import aws_clients

    resources = running.resources
    table, idempotency = resources["GAME_TABLE"], resources["IDEMPOTENCY_TABLE"]
    sqs = aws_clients.sqs()
    names: dict[str, dict[str, str]] = {
        "GameTable": {"Ref": table, "Arn": table_arn(table)},
        "IdempotencyTable": {"Ref": idempotency, "Arn": table_arn(idempotency)},
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
    pool = env["COGNITO_USER_POOL_ID"]
    names["UserPool"] = {"Ref": pool, "Arn": f"arn:aws:cognito-idp:us-east-1:{ACCOUNT}:userpool/{pool}"}
    connections = resources["CONNECTIONS_TABLE"]
    names["ConnectionsTable"] = {"Ref": connections, "Arn": table_arn(connections)}
    names["LiveApi"] = {"Ref": LIVE_STAGE.split("/")[0]}
    names["MailConfigurationSet"] = {"Ref": "convoy-players"}
    names["UserPoolClient"] = {"Ref": env["COGNITO_CLIENT_ID"]}
    names["HttpApi"] = {"Ref": "abc123"}
    names["WebDistribution"] = {"Ref": "E2REHEARSAL", "DomainName": "d111111abcdef8.cloudfront.net"}
    parameters = {name: str(spec.get("Default", "")) for name, spec in template["Parameters"].items()}
    ssm = aws_clients.client("ssm")
    for parameter, value in (
        ("OperatorTokenParameter", OPERATOR_TOKEN),
        ("TelegramBotTokenParameter", TELEGRAM_BOT_TOKEN),
        ("TelegramWebhookSecretParameter", TELEGRAM_SECRET),
        ("MailLinkKeyParameter", MAIL_LINK_KEY),
        ("WebPushKeyParameter", WEB_PUSH_KEY),
    ):
        ssm.put_parameter(Name=parameters[parameter], Value=value, Type="SecureString", Overwrite=True)
    return names, parameters


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
