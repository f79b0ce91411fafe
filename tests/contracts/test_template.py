"""template.yaml is valid (cfn-lint) and declares what the code and the local stack expect."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from infra.local.template import load_template, resources_of

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
