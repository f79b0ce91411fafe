"""template.yaml is valid (cfn-lint) and declares what the code and the local stack expect."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from local_stack.template import load_template, resources_of

ROOT = Path(__file__).resolve().parents[2]


def test_cfn_lint_passes() -> None:
    lint = Path(sys.executable).with_name("cfn-lint")
    result = subprocess.run(
        [str(lint), "--", str(ROOT / "template.yaml")], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_game_table_shape() -> None:
    template = load_template()
    tables = resources_of(template, "AWS::DynamoDB::Table")
    game = tables["GameTable"]
    assert [k["AttributeName"] for k in game["KeySchema"]] == ["pk", "sk"]
    assert {a["AttributeName"]: a["AttributeType"] for a in game["AttributeDefinitions"]}["pk"] == "S"
    assert game["StreamSpecification"]["StreamViewType"] == "NEW_IMAGE"
    assert "IdempotencyTable" in tables
    queues = resources_of(template, "AWS::SQS::Queue")
    assert queues["OutboxQueue"]["RedrivePolicy"]["deadLetterTargetArn"] == {
        "Fn::GetAtt": ["OutboxDeadLetterQueue", "Arn"]
    }


def test_api_function_is_least_privilege() -> None:
    template = load_template()
    api = template["Resources"]["ApiFunction"]["Properties"]
    assert api["Handler"] == "functions.api.handler.lambda_handler"
    actions = {a for s in api["Policies"][0]["Statement"] for a in s["Action"]}
    assert not any(a.endswith("*") for a in actions)
    assert "dynamodb:Scan" not in actions and "dynamodb:DeleteTable" not in actions


def _functions() -> dict[str, dict[str, object]]:
    return resources_of(load_template(), "AWS::Serverless::Function")


def _by_handler() -> dict[str, dict[str, object]]:
    return {str(props["Handler"]): props for props in _functions().values()}


def test_issue5_functions_are_declared() -> None:
    handlers = _by_handler()
    for handler in (
        "functions.deadline.handler.handler",
        "functions.deadline.handler.sweep_handler",
        "functions.relay.handler.handler",
        "functions.notifier.handler.handler",
        "functions.telegram.handler.handler",
    ):
        assert handler in handlers, handler
    sweep = handlers["functions.deadline.handler.sweep_handler"]["Events"]
    assert [e["Properties"]["ScheduleExpression"] for e in sweep.values()] == ["rate(5 minutes)"]  # type: ignore[union-attr]


def test_relay_stream_mapping_filters_outbox_inserts_and_reports_failures() -> None:
    import json

    events = _by_handler()["functions.relay.handler.handler"]["Events"]
    (stream,) = [e["Properties"] for e in events.values() if e["Type"] == "DynamoDB"]  # type: ignore[union-attr]
    assert stream["Stream"] == {"Fn::GetAtt": ["GameTable", "StreamArn"]}
    assert stream["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    (pattern,) = [json.loads(f["Pattern"]) for f in stream["FilterCriteria"]["Filters"]]
    assert pattern == {"dynamodb": {"Keys": {"sk": {"S": [{"prefix": "OUTBOX#"}]}}}, "eventName": ["INSERT"]}


def test_notifier_queue_mapping_reports_failures_and_queue_has_dlq() -> None:
    events = _by_handler()["functions.notifier.handler.handler"]["Events"]
    (sqs,) = [e["Properties"] for e in events.values() if e["Type"] == "SQS"]  # type: ignore[union-attr]
    assert sqs["Queue"] == {"Fn::GetAtt": ["OutboxQueue", "Arn"]}
    assert sqs["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    queue = resources_of(load_template(), "AWS::SQS::Queue")["OutboxQueue"]
    assert queue["RedrivePolicy"]["deadLetterTargetArn"] == {"Fn::GetAtt": ["OutboxDeadLetterQueue", "Arn"]}
    assert 1 < int(queue["RedrivePolicy"]["maxReceiveCount"]) <= 10


def test_schedule_group_and_a_role_scheduler_assumes_to_invoke_only_the_deadline_function() -> None:
    template = load_template()
    assert list(resources_of(template, "AWS::Scheduler::ScheduleGroup")) == ["DeadlineScheduleGroup"]
    role = resources_of(template, "AWS::IAM::Role")["SchedulerRole"]
    (trust,) = role["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Principal"] == {"Service": "scheduler.amazonaws.com"}
    statements = [s for p in role["Policies"] for s in p["PolicyDocument"]["Statement"]]
    assert [s["Action"] for s in statements] == ["lambda:InvokeFunction"]
    deadline = _by_handler()["functions.deadline.handler.handler"]
    # the role's resource and the env var both name the deadline function by its fixed name
    assert "-deadline" in str(statements[0]["Resource"]) and "-deadline" in str(deadline["FunctionName"])
    env = template["Globals"]["Function"]["Environment"]["Variables"]
    assert env["SCHEDULER_GROUP"] == {"Ref": "DeadlineScheduleGroup"}
    assert env["SCHEDULER_ROLE_ARN"] == {"Fn::GetAtt": ["SchedulerRole", "Arn"]}
    assert statements[0]["Resource"] == env["DEADLINE_FUNCTION_ARN"]


def test_telegram_route_and_secrets() -> None:
    telegram = _by_handler()["functions.telegram.handler.handler"]
    (route,) = [e["Properties"] for e in telegram["Events"].values()]  # type: ignore[union-attr]
    assert (route["Path"], route["Method"]) == ("/webhooks/telegram", "POST")
    assert "TELEGRAM_WEBHOOK_SECRET" in telegram["Environment"]["Variables"]  # type: ignore[index]
    notifier = _by_handler()["functions.notifier.handler.handler"]
    assert "TELEGRAM_BOT_TOKEN" in notifier["Environment"]["Variables"]  # type: ignore[index]


def test_every_function_is_least_privilege() -> None:
    for name, props in _functions().items():
        actions = {
            a
            for policy in props.get("Policies", [])  # type: ignore[attr-defined]
            for s in policy["Statement"]
            for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
        }
        assert not any(a.endswith("*") for a in actions), name
        assert "dynamodb:Scan" not in actions and "dynamodb:DeleteTable" not in actions, name
