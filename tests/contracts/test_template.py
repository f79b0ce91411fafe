"""template.yaml is valid (cfn-lint) and declares what the code and the local stack expect."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

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


def test_issue11_game_table_expires_items_by_expires_at() -> None:
    """Delivery logs, Telegram updates, link codes and bot replies set ``expires_at``; without
    a TTL on the game table they would grow forever (issue 11, "unbounded growth")."""
    game = resources_of(load_template(), "AWS::DynamoDB::Table")["GameTable"]
    assert game["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}


def test_api_function_is_least_privilege() -> None:
    template = load_template()
    api = template["Resources"]["ApiFunction"]["Properties"]
    assert api["Handler"] == "composition.api.lambda_handler"
    actions = {a for s in api["Policies"][0]["Statement"] for a in s["Action"]}
    assert not any(a.endswith("*") for a in actions)
    assert "dynamodb:Scan" not in actions and "dynamodb:DeleteTable" not in actions


def _functions() -> dict[str, dict[str, Any]]:
    return resources_of(load_template(), "AWS::Serverless::Function")


def _by_handler() -> dict[str, dict[str, Any]]:
    return {str(props["Handler"]): props for props in _functions().values()}


def test_issue5_functions_are_declared() -> None:
    handlers = _by_handler()
    for handler in (
        "composition.deadline.handler",
        "composition.deadline.sweep_handler",
        "composition.relay.handler",
        "composition.notifier.handler",
        "composition.telegram.handler",
    ):
        assert handler in handlers, handler
    sweep = handlers["composition.deadline.sweep_handler"]["Events"]
    assert [e["Properties"]["ScheduleExpression"] for e in sweep.values()] == ["rate(5 minutes)"]


def test_relay_stream_mapping_filters_outbox_inserts_and_reports_failures() -> None:
    import json

    events = _by_handler()["composition.relay.handler"]["Events"]
    (stream,) = [e["Properties"] for e in events.values() if e["Type"] == "DynamoDB"]
    assert stream["Stream"] == {"Fn::GetAtt": ["GameTable", "StreamArn"]}
    assert stream["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    outbox, submitted, expired = [json.loads(f["Pattern"]) for f in stream["FilterCriteria"]["Filters"]]
    assert outbox == {"dynamodb": {"Keys": {"sk": {"S": [{"prefix": "OUTBOX#"}]}}}, "eventName": ["INSERT"]}
    assert expired == {"dynamodb": {"Keys": {"sk": {"S": ["META"]}}}, "eventName": ["REMOVE"]}  # issue 28
    # a submission's own event carries its live update (issue 33) without an OUTBOX write (issue 29)
    assert submitted == {"dynamodb": {"Keys": {"sk": {"S": [{"prefix": "EVENT#"}]}},
                                      "NewImage": {"type": {"S": ["ORDERS_SUBMITTED", "ORDERS_RETRACTED",
                                                                   "PLAYER_JOINED"]}}},
                         "eventName": ["INSERT"]}


def test_notifier_queue_mapping_reports_failures_and_queue_has_dlq() -> None:
    events = _by_handler()["composition.notifier.handler"]["Events"]
    (sqs,) = [e["Properties"] for e in events.values() if e["Type"] == "SQS"]
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
    # invoke the deadline function, and dead-letter a firing it could not deliver
    assert [s["Action"] for s in statements] == ["lambda:InvokeFunction", "sqs:SendMessage"]
    assert statements[1]["Resource"] == {"Fn::GetAtt": ["FailedWorkQueue", "Arn"]}
    deadline = _by_handler()["composition.deadline.handler"]
    # the role's resource and the env var both name the deadline function by its fixed name,
    # qualified with the SnapStart alias (an unqualified ARN would invoke $LATEST)
    assert statements[0]["Resource"]["Fn::Sub"].endswith(":function:${AWS::StackName}-deadline:live")
    assert deadline["FunctionName"] == {"Fn::Sub": "${AWS::StackName}-deadline"}
    env = template["Globals"]["Function"]["Environment"]["Variables"]
    assert env["SCHEDULER_GROUP"] == {"Ref": "DeadlineScheduleGroup"}
    assert env["SCHEDULER_ROLE_ARN"] == {"Fn::GetAtt": ["SchedulerRole", "Arn"]}
    assert statements[0]["Resource"] == env["DEADLINE_FUNCTION_ARN"]


def test_telegram_route_and_secrets() -> None:
    telegram = _by_handler()["composition.telegram.handler"]
    (route,) = [e["Properties"] for e in telegram["Events"].values()]
    assert (route["Path"], route["Method"]) == ("/webhooks/telegram", "POST")
    assert "TELEGRAM_WEBHOOK_SECRET_PARAMETER" in telegram["Environment"]["Variables"]
    notifier = _by_handler()["composition.notifier.handler"]
    assert "TELEGRAM_BOT_TOKEN_PARAMETER" in notifier["Environment"]["Variables"]


SECRET_VARIABLES = ("CONVOY_OPERATOR_TOKEN", "TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET")


def test_no_secret_is_a_plain_environment_variable_or_template_parameter() -> None:
    # issue 11, item 5: secrets come from SSM SecureStrings; the environment only names them,
    # and each function may read exactly the parameters it names
    template = load_template()
    for name, props in _functions().items():
        variables = (props.get("Environment") or {}).get("Variables") or {}
        assert not set(SECRET_VARIABLES) & set(variables), name
        named = {v["Ref"] for k, v in variables.items() if k.endswith("_PARAMETER")}
        readable = {
            ref
            for policy in props.get("Policies", [])
            for s in policy["Statement"] if s["Action"] == "ssm:GetParameters"
            for ref in named if "${" + ref + "}" in str(s["Resource"])
        }
        assert readable == named, name
    for name, parameter in template["Parameters"].items():
        assert not parameter.get("NoEcho"), f"{name}: a secret as a template parameter"
    assert template["Parameters"]["OperatorTokenMinLength"]["MinValue"] >= 32
    assert template["Parameters"]["OperatorTokenParameter"]["MinLength"] >= 1


def test_every_function_is_least_privilege() -> None:
    for name, props in _functions().items():
        actions = {
            a
            for policy in props.get("Policies", [])
            for s in policy["Statement"]
            for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])
        }
        assert not any(a.endswith("*") for a in actions), name
        assert "dynamodb:Scan" not in actions and "dynamodb:DeleteTable" not in actions, name


# --- operations (issue 11 item 4; docs/operations.md) ------------------------------------

ASYNC_HANDLERS = ("composition.deadline.handler", "composition.deadline.sweep_handler")


def test_every_function_has_reserved_concurrency_and_a_log_group_with_retention() -> None:
    template = load_template()
    groups = resources_of(template, "AWS::Logs::LogGroup")
    total = 0
    for name, props in _functions().items():
        reserved = props.get("ReservedConcurrentExecutions")
        assert isinstance(reserved, int) and reserved >= 1, name
        total += reserved
        group = groups[f"{name}Logs"]
        assert group["LogGroupName"] == {"Fn::Sub": f"/aws/lambda/${{{name}}}"}
        assert 1 <= int(group["RetentionInDays"]) <= 365, name
    # an account's default concurrency is 1,000, of which 100 must stay unreserved
    assert total <= 900


def test_async_functions_dead_letter_and_schedules_have_a_dead_letter_queue() -> None:
    handlers = _by_handler()
    failed = {"Fn::GetAtt": ["FailedWorkQueue", "Arn"]}
    for handler in ASYNC_HANDLERS:
        props = handlers[handler]
        assert props["DeadLetterQueue"] == {"Type": "SQS", "TargetArn": failed}, handler
        config = props["EventInvokeConfig"]
        assert config["DestinationConfig"]["OnFailure"]["Destination"] == failed
    (sweep,) = handlers["composition.deadline.sweep_handler"]["Events"].values()
    assert sweep["Properties"]["DeadLetterConfig"] == {"Arn": failed}
    env = load_template()["Globals"]["Function"]["Environment"]["Variables"]
    assert env["FAILED_WORK_QUEUE_ARN"] == failed  # per-phase schedules dead-letter there too


def test_relay_stream_mapping_has_a_retry_cap_bisect_and_a_failure_destination() -> None:
    events = _by_handler()["composition.relay.handler"]["Events"]
    (stream,) = [e["Properties"] for e in events.values() if e["Type"] == "DynamoDB"]
    assert 0 < int(stream["MaximumRetryAttempts"]) <= 10
    assert stream["BisectBatchOnFunctionError"] is True
    failed = {"Fn::GetAtt": ["FailedWorkQueue", "Arn"]}
    assert stream["DestinationConfig"]["OnFailure"]["Destination"] == failed


def test_alarms_cover_errors_throttles_dead_letters_and_overdue_games() -> None:
    alarms = resources_of(load_template(), "AWS::CloudWatch::Alarm")
    watched = {
        (a["MetricName"], str(a["Dimensions"][0]["Value"])) for a in alarms.values()
    }
    for name in _functions():
        assert ("Errors", str({"Ref": name})) in watched, name
        assert ("Throttles", str({"Ref": name})) in watched, name
    for queue in ("OutboxDeadLetterQueue", "FailedWorkQueue"):
        assert ("ApproximateNumberOfMessagesVisible", str({"Fn::GetAtt": [queue, "QueueName"]})) in watched
    assert any(a["MetricName"] == "OverdueGames" and a["Namespace"] == "Convoy" for a in alarms.values())
    assert all(a["AlarmActions"] == [{"Ref": "AlarmTopic"}] for a in alarms.values())


def test_api_has_access_logs_and_route_throttles() -> None:
    api = resources_of(load_template(), "AWS::Serverless::HttpApi")["HttpApi"]
    assert api["AccessLogSettings"]["DestinationArn"] == {"Fn::GetAtt": ["ApiAccessLogs", "Arn"]}
    assert "$context.status" in api["AccessLogSettings"]["Format"]
    assert int(api["DefaultRouteSettings"]["ThrottlingRateLimit"]) > 0
    throttled = ("POST /games", "POST /games/{game_id}/join", "POST /webhooks/telegram",
                 # issue 28 item 2: import and the map routes
                 "POST /games/import", "GET /games/{game_id}/map", "GET /games/{game_id}/map/orders",
                 "GET /games/{game_id}/map/resolution")
    for route in throttled:
        limits = api["RouteSettings"][route]
        default = int(api["DefaultRouteSettings"]["ThrottlingRateLimit"])
        assert 0 < int(limits["ThrottlingRateLimit"]) < default
    # every throttled route exists as a route of its own (a RouteSettings key names a route key)
    events = [e for handler in _by_handler().values() for e in handler.get("Events", {}).values()]
    keys = {f"{e['Properties']['Method']} {e['Properties']['Path']}" for e in events
            if e.get("Type") == "HttpApi"}
    assert set(api["RouteSettings"]) <= keys


CHECKOV_REQUIRED = {
    "CKV_AWS_115": "function-level concurrency limit",
    "CKV_AWS_116": "dead-letter queue",
    "CKV_AWS_95": "API access logging",
}


def _checkov() -> Path | None:
    tool = ROOT / ".venv-tools" / "bin" / "checkov"
    return tool if tool.exists() else None


def test_checkov_finds_no_missing_dead_letter_concurrency_or_access_logs() -> None:
    """`make test` installs checkov into .venv-tools (its pins clash with ours); CI must have it."""
    import json
    import os

    import pytest

    tool = _checkov()
    if tool is None:
        if os.environ.get("CI"):
            pytest.fail("checkov is missing in CI: make test installs it into .venv-tools")
        pytest.skip("checkov not installed (make test installs it into .venv-tools)")
    result = subprocess.run(
        [str(tool), "-f", str(ROOT / "template.yaml"), "--framework", "cloudformation",
         "--check", ",".join(CHECKOV_REQUIRED), "--skip-download", "--output", "json", "--quiet"],
        capture_output=True, text=True, timeout=600,
    )
    report = json.loads(result.stdout or "{}")
    failed = [(c["check_id"], c["resource"]) for c in report.get("results", {}).get("failed_checks", [])]
    assert failed == [], failed
    assert report["summary"]["passed"] > 0, report["summary"]


def test_every_alarm_has_a_runbook_in_operations_md() -> None:
    # issue 11: docs/operations.md lists each alarm and what to do; each alarm's description
    # links to a section that exists
    import re

    text = (ROOT / "docs" / "operations.md").read_text()
    headings = re.findall(r"^#+ (.+)$", text, re.M)
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in headings}
    for name, alarm in resources_of(load_template(), "AWS::CloudWatch::Alarm").items():
        assert f"| `{name}` |" in text, f"{name} has no row in docs/operations.md"
        linked = re.search(r"docs/operations\.md#([a-z0-9-]+)", str(alarm["AlarmDescription"]))
        assert linked and linked.group(1) in anchors, name


# --- deployment (issue 27; docs/deploy.md) ---------------------------------------------------


def test_issue27_every_function_runs_snapstart_behind_the_live_alias() -> None:
    """SnapStart applies to published versions only: the alias is what every caller invokes
    (tests/contracts/test_stack_in_moto.py checks SAM's wiring of it)."""
    function = load_template()["Globals"]["Function"]
    assert function["AutoPublishAlias"] == "live"
    assert function["SnapStart"] == {"ApplyOn": "PublishedVersions"}
    assert (function["Runtime"], function["Architectures"]) == ("python3.12", ["arm64"])
    for name, props in _functions().items():
        assert not {"AutoPublishAlias", "SnapStart", "Runtime", "AutoPublishCodeSha256"} & set(props), name


def test_issue27_every_function_is_built_by_deploy_lambda_makefile_not_from_the_whole_checkout() -> None:
    resources = load_template()["Resources"]
    for name, props in _functions().items():
        assert props["CodeUri"] == "deploy/lambda/", name
        assert resources[name]["Metadata"]["BuildMethod"] == "makefile", name


def test_issue27_samconfig_builds_in_source_and_deploys_with_a_confirmed_change_set() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "samconfig.toml").read_text())["default"]
    assert config["build"]["parameters"] == {"build_in_source": True, "cached": False}
    deploy = config["deploy"]["parameters"]
    # `sam deploy --guided` adds the operator's region and parameters to their own copy
    ours = {"stack_name": "convoy", "capabilities": "CAPABILITY_IAM", "confirm_changeset": True,
            "resolve_s3": True}
    assert {k: deploy.get(k) for k in ours} == ours


def _statements(function: str) -> list[dict[str, Any]]:
    props = load_template()["Resources"][function]["Properties"]
    return [s for policy in props["Policies"] for s in policy["Statement"]]


def test_issue27_the_sweeper_may_query_the_index_it_queries() -> None:
    (table,) = [s for s in _statements("DeadlineSweepFunction") if s["Sid"] == "GameTableReadWrite"]
    assert "dynamodb:Query" in table["Action"]
    assert {"Fn::Sub": "${GameTable.Arn}/index/by_due"} in table["Resource"]
    # the same grants as the deadline function's, by Sid, plus the index
    assert [s["Sid"] for s in _statements("DeadlineSweepFunction")] == [
        s["Sid"] for s in _statements("DeadlineFunction")]


def test_issue27_notices_link_to_the_players_origin_not_execute_api() -> None:
    notifier = _by_handler()["composition.notifier.handler"]
    url = notifier["Environment"]["Variables"]["CONVOY_PUBLIC_URL"]
    assert url == {"Fn::Sub": "https://${WebDistribution.DomainName}"}


def test_issue27_alarms_publish_through_a_key_cloudwatch_may_use() -> None:
    template = load_template()
    topic = resources_of(template, "AWS::SNS::Topic")["AlarmTopic"]
    assert topic["KmsMasterKeyId"] == {"Ref": "AlarmTopicKey"}  # not alias/aws/sns
    key = resources_of(template, "AWS::KMS::Key")["AlarmTopicKey"]
    assert key["EnableKeyRotation"] is True
    statements = {s["Sid"]: s for s in key["KeyPolicy"]["Statement"]}
    admin = statements["AccountAdministersTheKey"]
    assert admin["Principal"] == {"AWS": {"Fn::Sub": "arn:${AWS::Partition}:iam::${AWS::AccountId}:root"}}
    cloudwatch = statements["CloudWatchAlarmsPublish"]
    assert cloudwatch["Principal"] == {"Service": "cloudwatch.amazonaws.com"}
    assert cloudwatch["Action"] == ["kms:Decrypt", "kms:GenerateDataKey*"]
    assert cloudwatch["Condition"] == {"StringEquals": {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}}


STATEFUL = ("GameTable", "IdempotencyTable", "UserPool", "OutboxQueue", "OutboxDeadLetterQueue",
            "FailedWorkQueue", "WebBucket", "ConnectionsTable")


def test_issue27_resources_that_hold_data_survive_a_delete_or_a_replacement() -> None:
    resources = load_template()["Resources"]
    for name in STATEFUL:
        assert resources[name].get("DeletionPolicy") == "Retain", name
        assert resources[name].get("UpdateReplacePolicy") == "Retain", name
    # every table and queue holds data; log groups deliberately do not stay (template comment)
    for name, resource in resources.items():
        if resource["Type"] in ("AWS::DynamoDB::Table", "AWS::SQS::Queue", "AWS::Cognito::UserPool"):
            assert name in STATEFUL, name
        if resource["Type"] == "AWS::Logs::LogGroup":
            assert "DeletionPolicy" not in resource, name


def test_issue27_the_api_deploys_as_a_canary_that_its_errors_alarm_rolls_back() -> None:
    api = _by_handler()["composition.api.lambda_handler"]
    assert api["DeploymentPreference"] == {
        "Type": "Canary10Percent5Minutes", "Alarms": [{"Ref": "ApiFunctionErrorsAlarm"}]}
    alarm = resources_of(load_template(), "AWS::CloudWatch::Alarm")["ApiFunctionErrorsAlarm"]
    assert alarm["Dimensions"] == [{"Name": "FunctionName", "Value": {"Ref": "ApiFunction"}}]


def test_issue27_cognito_mails_through_ses_only_when_an_identity_is_named() -> None:
    template = load_template()
    assert template["Parameters"]["CognitoEmailSource"]["Default"] == ""
    assert template["Conditions"]["SendsMailThroughSes"] == {
        "Fn::Not": [{"Fn::Equals": [{"Ref": "CognitoEmailSource"}, ""]}]}
    condition, ses, default = resources_of(template, "AWS::Cognito::UserPool")["UserPool"][
        "EmailConfiguration"]["Fn::If"]
    assert condition == "SendsMailThroughSes"
    assert ses["EmailSendingAccount"] == "DEVELOPER" and ses["SourceArn"] == {"Ref": "CognitoEmailSource"}
    assert default == {"EmailSendingAccount": "COGNITO_DEFAULT"}
