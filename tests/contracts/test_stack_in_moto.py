"""template.yaml deployed as far as it can be without AWS (issue 27 item 7).

Two steps, each proving something different (docs/deploy.md, "What the tests prove and do not"):

1. SAM's own translator (``samtranslator``, what CloudFormation runs for the
   ``AWS::Serverless-2016-10-31`` transform) turns the template into plain CloudFormation. The
   assertions here are about that output, so they see what SAM generates and we rely on: the
   ``live`` aliases, SnapStart, which ARN each event source invokes, the canary's CodeDeploy
   group. cfn-lint then checks the translated template (a dependency cycle shows only there).
2. moto's CloudFormation creates the translated stack and the resources it models are read back
   through their own APIs; then the stack is deleted and what ``Retain`` keeps is still there.

moto skips resource types it does not model (the list is pinned below and in docs/deploy.md).
A modelled resource that takes a ``Fn::GetAtt``/``Ref``/``${...}`` of a skipped one would fail
to create in moto, so those references are replaced by a marked ``unmodelled-<Name>`` string;
references to a ``live`` alias (moto models no aliases) are pointed at the function itself.
Both rewrites happen only on the copy given to moto, after step 1's assertions.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import subprocess
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from local_stack.security_headers import security_headers
from local_stack.template import load_template

# One translation and one moto stack serve every test here: under `pytest -n --dist loadgroup`
# they stay on one worker (with the default `--dist load` each worker may build its own).
pytestmark = pytest.mark.xdist_group(name="stack_in_moto")

REGION = "us-east-1"
STACK = "convoy"
# What `sam deploy` puts in CodeUri after uploading `sam build`'s output; in moto the object
# is a placeholder zip (below): nothing is invoked, moto's Lambda only needs the object to exist.
ARTIFACTS = ("convoy-test-artifacts", "placeholder.zip")

# Types moto 5.2.5's CloudFormation creates, and the ones it skips, for this template.
MODELLED = {
    "AWS::DynamoDB::Table", "AWS::SQS::Queue", "AWS::S3::Bucket", "AWS::Logs::LogGroup",
    "AWS::IAM::Role", "AWS::KMS::Key", "AWS::KMS::Alias", "AWS::SNS::Topic",
    "AWS::Lambda::Function", "AWS::Lambda::Version", "AWS::Lambda::Permission",
    "AWS::Lambda::EventSourceMapping",
}
SKIPPED = {
    "AWS::ApiGatewayV2::Api", "AWS::ApiGatewayV2::Stage", "AWS::ApiGatewayV2::Integration",
    "AWS::ApiGatewayV2::Route", "AWS::ApiGatewayV2::RouteResponse", "AWS::SES::ConfigurationSet",
    "AWS::CloudFront::CachePolicy", "AWS::CloudFront::Distribution",
    "AWS::CloudFront::OriginAccessControl", "AWS::CloudFront::ResponseHeadersPolicy",
    "AWS::CloudWatch::Alarm", "AWS::CodeDeploy::Application", "AWS::CodeDeploy::DeploymentGroup",
    "AWS::Cognito::UserPool", "AWS::Cognito::UserPoolClient", "AWS::Lambda::Alias",
    "AWS::Lambda::EventInvokeConfig", "AWS::S3::BucketPolicy", "AWS::SNS::Subscription",
    "AWS::SQS::QueuePolicy", "AWS::Scheduler::Schedule", "AWS::Scheduler::ScheduleGroup",
}
RETAINED = {"GameTable", "IdempotencyTable", "OutboxQueue", "OutboxDeadLetterQueue", "FailedWorkQueue",
            "WebBucket", "UserPool", "ConnectionsTable"}

# The AWS managed policies SAM attaches to the functions' roles (and CodeDeploy's). SAM 1.110
# writes these ARNs itself and never asks the loader; the stub is there for a SAM that does.
MANAGED_POLICIES = {
    name: f"arn:aws:iam::aws:policy/{path}{name}"
    for path, name in (
        ("service-role/", "AWSLambdaBasicExecutionRole"), ("", "AWSXrayWriteOnlyAccess"),
        ("service-role/", "AWSLambdaDynamoDBExecutionRole"),
        ("service-role/", "AWSLambdaSQSQueueExecutionRole"),
        ("service-role/", "AWSCodeDeployRoleForLambda"),
    )
}


# SAM's translator pins a pydantic the product cannot take (aws-sam-translator 1.110 wants
# pydantic ~=2.13.3; the product ships 2.14.3), so it runs in the SAM CLI's own virtualenv
# (requirements-sam.txt, `make sam`), which carries it, in a child process.
SAM_PYTHON = Path(__file__).resolve().parents[2] / ".venv-sam" / "bin" / "python"
TRANSLATE = """
import json, sys
from samtranslator.translator.transform import transform
class Policies:
    def load(self):
        return json.loads(sys.argv[1])
print(json.dumps(transform(json.load(sys.stdin), {}, Policies())))
"""


@pytest.fixture(scope="module")
def translated() -> dict[str, Any]:
    if not SAM_PYTHON.exists():
        reason = f"{SAM_PYTHON} is missing: `make sam` installs the SAM CLI and its translator"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    template = load_template()
    for resource in template["Resources"].values():
        if resource["Type"] == "AWS::Serverless::Function":
            resource["Properties"]["CodeUri"] = f"s3://{ARTIFACTS[0]}/{ARTIFACTS[1]}"
    said = subprocess.run([str(SAM_PYTHON), "-c", TRANSLATE, json.dumps(MANAGED_POLICIES)],
                          input=json.dumps(template), capture_output=True, text=True, timeout=120,
                          check=False,
                          env={**os.environ, "AWS_DEFAULT_REGION": REGION})  # SAM builds ARNs from it
    assert said.returncode == 0, said.stderr[-3000:]
    result: dict[str, Any] = json.loads(said.stdout)
    return result


def _of_type(template: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {k: r for k, r in template["Resources"].items() if r["Type"] == kind}


def _functions(template: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return _of_type(template, "AWS::Lambda::Function")


def _alias_of(template: dict[str, Any], function: str) -> str:
    (name,) = [k for k, r in _of_type(template, "AWS::Lambda::Alias").items()
               if r["Properties"]["FunctionName"] == {"Ref": function}]
    return name


# --- 1. the translated template -----------------------------------------------------------


def test_every_function_runs_snapstart_on_arm64_behind_a_live_alias(translated: dict[str, Any]) -> None:
    functions = _functions(translated)
    assert len(functions) == 7
    versions = _of_type(translated, "AWS::Lambda::Version")
    for name, function in functions.items():
        props = function["Properties"]
        assert props["SnapStart"] == {"ApplyOn": "PublishedVersions"}, name
        assert (props["Runtime"], props["Architectures"]) == ("python3.12", ["arm64"]), name
        alias = translated["Resources"][_alias_of(translated, name)]["Properties"]
        assert alias["Name"] == "live"
        (version,) = alias["FunctionVersion"]["Fn::GetAtt"][:1]
        assert versions[version]["Properties"]["FunctionName"] == {"Ref": name}


def _invoked(resource: dict[str, Any]) -> list[Any]:
    """What each kind of caller in the translated template names as the function it invokes."""
    props = resource["Properties"]
    kind = resource["Type"]
    if kind in ("AWS::Lambda::EventSourceMapping", "AWS::Lambda::Permission"):
        return [props["FunctionName"]]
    if kind == "AWS::Scheduler::Schedule":  # the daily digest's schedule sends to a queue instead
        target = props["Target"]["Arn"]
        return [] if "Queue" in json.dumps(target) else [target]
    if kind == "AWS::ApiGatewayV2::Integration":  # the WebSocket API's (issue 33)
        # the keep-alive ping route's MOCK integration answers in API Gateway and invokes nothing
        return [] if props["IntegrationType"] == "MOCK" else [props["IntegrationUri"]]
    if kind == "AWS::ApiGatewayV2::Api" and "Body" in props:  # the HTTP API (SAM's OpenAPI body)
        return [op["x-amazon-apigateway-integration"]["uri"]
                for path in props["Body"]["paths"].values() for op in path.values()]
    return []


def test_every_caller_invokes_the_alias_never_latest(translated: dict[str, Any]) -> None:
    aliases = set(_of_type(translated, "AWS::Lambda::Alias"))
    functions = set(_functions(translated))
    seen = 0
    for name, resource in translated["Resources"].items():
        for target in _invoked(resource):
            seen += 1
            text = json.dumps(target)
            assert any(f'"{a}"' in text or "${" + a + "}" in text for a in aliases), (name, target)
            assert not any(f'"{f}"' in text or "${" + f + "}" in text or "${" + f + ".Arn}" in text
                           for f in functions), (name, target)
    # API Gateway's 11 permissions (9 API routes: the proxy, create, join, the two sandbox
    # routes, import and the three maps (issue 28 item 2); the Telegram one; the WebSocket API's),
    # 2 event source mappings, the sweep schedule, the HTTP API body's 10 integrations, the
    # WebSocket one
    assert seen == 11 + 2 + 1 + 10 + 1
    for name, config in _of_type(translated, "AWS::Lambda::EventInvokeConfig").items():
        assert config["Properties"]["Qualifier"] == "live", name  # the async retries/DLQ of the alias


def test_scheduler_role_and_the_deadline_arn_name_the_alias(translated: dict[str, Any]) -> None:
    role = translated["Resources"]["SchedulerRole"]["Properties"]
    (invoke,) = [s for p in role["Policies"] for s in p["PolicyDocument"]["Statement"]
                 if s["Action"] == "lambda:InvokeFunction"]
    for name, function in _functions(translated).items():
        variables = function["Properties"]["Environment"]["Variables"]
        assert variables["DEADLINE_FUNCTION_ARN"] == invoke["Resource"], name
    assert invoke["Resource"]["Fn::Sub"].endswith(":function:${AWS::StackName}-deadline:live")
    deadline = translated["Resources"]["DeadlineFunction"]["Properties"]
    assert deadline["FunctionName"] == {"Fn::Sub": "${AWS::StackName}-deadline"}
    assert translated["Resources"][_alias_of(translated, "DeadlineFunction")]["Properties"]["Name"] == "live"


def test_the_sweeper_may_query_the_by_due_index(translated: dict[str, Any]) -> None:
    role = translated["Resources"]["DeadlineSweepFunctionRole"]["Properties"]
    statements = [s for p in role["Policies"] for s in p["PolicyDocument"]["Statement"]]
    queries = [s for s in statements if "dynamodb:Query" in s["Action"]]
    assert any({"Fn::Sub": "${GameTable.Arn}/index/by_due"} in s["Resource"] for s in queries)


def test_the_client_gets_our_csp_and_the_api_canary_rolls_back_on_its_alarm(
    translated: dict[str, Any],
) -> None:
    resources = translated["Resources"]
    behaviour = resources["WebDistribution"]["Properties"]["DistributionConfig"]["DefaultCacheBehavior"]
    assert behaviour["ResponseHeadersPolicyId"] == {"Ref": "WebSecurityHeaders"}
    policy = resources["WebSecurityHeaders"]["Properties"]["ResponseHeadersPolicyConfig"]
    csp = policy["SecurityHeadersConfig"]["ContentSecurityPolicy"]["ContentSecurityPolicy"]
    assert csp == security_headers()["Content-Security-Policy"] and "frame-ancestors 'none'" in csp

    (group,) = _of_type(translated, "AWS::CodeDeploy::DeploymentGroup").values()
    props = group["Properties"]
    assert props["DeploymentConfigName"]["Fn::Sub"][1] == {"ConfigName": "Canary10Percent5Minutes"}
    assert props["AlarmConfiguration"]["Alarms"] == [{"Name": {"Ref": "ApiFunctionErrorsAlarm"}}]
    assert "DEPLOYMENT_STOP_ON_ALARM" in props["AutoRollbackConfiguration"]["Events"]
    alias = resources[_alias_of(translated, "ApiFunction")]
    assert alias["UpdatePolicy"]["CodeDeployLambdaAliasUpdate"]["DeploymentGroupName"] == {
        "Ref": "ApiFunctionDeploymentGroup"}
    assert sum("UpdatePolicy" in a for a in _of_type(translated, "AWS::Lambda::Alias").values()) == 1


def _references(value: Any, names: set[str]) -> set[str]:
    """The resources a piece of a resource depends on: Ref, Fn::GetAtt, ${...} in Fn::Sub, DependsOn."""
    if isinstance(value, list):
        return set().union(*(_references(v, names) for v in value)) if value else set()
    if not isinstance(value, dict):
        return set()
    found: set[str] = set()
    for key, inner in value.items():
        if key == "Ref" and inner in names:
            found.add(inner)
        elif key == "Fn::GetAtt" and inner[0] in names:
            found.add(inner[0])
        elif key == "Fn::Sub":
            body = inner if isinstance(inner, str) else inner[0]
            found |= {m.split(".")[0] for m in re.findall(r"\$\{([A-Za-z0-9.]+)\}", body)} & names
            if not isinstance(inner, str):
                found |= _references(inner[1], names)
        elif key == "DependsOn":
            found |= set([inner] if isinstance(inner, str) else inner) & names
        else:
            found |= _references(inner, names)
    return found


def test_the_translated_template_has_no_dependency_cycle(translated: dict[str, Any]) -> None:
    """CloudFormation refuses a cycle; SAM's aliases, versions and CodeDeploy group exist only
    after translation, so only here can one show (e.g. the notifier naming the distribution,
    which names the API, whose routes name the API function and its alias)."""
    from graphlib import CycleError, TopologicalSorter

    resources = translated["Resources"]
    names = set(resources)
    graph = {name: _references(resource, names) - {name} for name, resource in resources.items()}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as cycle:
        pytest.fail(f"dependency cycle: {cycle.args[1]}")
    assert order.index("HttpApi") < order.index("WebDistribution") < order.index("NotifierFunction")


# --- 2. the stack in moto -----------------------------------------------------------------


def _for_moto(translated: dict[str, Any]) -> dict[str, Any]:
    """The translated template with references to resources moto skips made into marked strings."""
    from moto.cloudformation.parsing import get_model_map

    template: dict[str, Any] = json.loads(json.dumps(translated))
    modelled = get_model_map()
    skipped = {k for k, r in template["Resources"].items() if r["Type"] not in modelled}
    aliases = {k: r["Properties"]["FunctionName"]["Ref"] for k, r in template["Resources"].items()
               if r["Type"] == "AWS::Lambda::Alias"}

    def sub(match: re.Match[str]) -> str:
        name = match.group(1).split(".")[0]
        return "unmodelled-" + match.group(1).replace(".", "-") if name in skipped else match.group(0)

    def rewrite(value: Any) -> Any:
        if isinstance(value, list):
            return [rewrite(v) for v in value]
        if not isinstance(value, dict):
            return value
        if value.get("Ref") in aliases:
            return {"Fn::GetAtt": [aliases[value["Ref"]], "Arn"]}
        if value.get("Ref") in skipped:
            return f"unmodelled-{value['Ref']}"
        if "Fn::GetAtt" in value and value["Fn::GetAtt"][0] in skipped:
            return "unmodelled-" + "-".join(value["Fn::GetAtt"])
        if "Fn::Sub" in value:
            body = value["Fn::Sub"]
            if isinstance(body, str):
                return {"Fn::Sub": re.sub(r"\$\{([A-Za-z0-9.]+)\}", sub, body)}
            return {"Fn::Sub": [re.sub(r"\$\{([A-Za-z0-9.]+)\}", sub, body[0]), rewrite(body[1])]}
        return {k: rewrite(v) for k, v in value.items()}

    template["Resources"] = {k: r if k in skipped else rewrite(r) for k, r in template["Resources"].items()}
    template["Outputs"] = {k: o for k, o in template["Outputs"].items()
                           if rewrite(o) == o}  # an output of a skipped resource has no value in moto
    return template


def _placeholder_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("PLACEHOLDER.txt", "not Convoy's code: moto's Lambda needs an object to exist")
    return buffer.getvalue()


def _document(policy: dict[str, Any]) -> dict[str, Any]:
    document = policy["PolicyDocument"]
    if isinstance(document, dict):
        return document
    # moto 5.2.5 keeps an inline policy that CloudFormation gave it as a dict in Python's repr
    return dict(ast.literal_eval(document))


@pytest.fixture(scope="module")
def deployed(translated: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Create the stack in moto, read back what it made, delete it and read back what is left."""
    import warnings

    import boto3
    from moto import mock_aws

    template = _for_moto(translated)
    facts: dict[str, Any] = {"template": template}
    with pytest.MonkeyPatch.context() as env, warnings.catch_warnings(), mock_aws():
        warnings.simplefilter("ignore")  # moto warns once per skipped type; SKIPPED names them
        for key, value in (("AWS_DEFAULT_REGION", REGION), ("AWS_ACCESS_KEY_ID", "testing"),
                           ("AWS_SECRET_ACCESS_KEY", "testing")):
            env.setenv(key, value)
        env.delenv("AWS_PROFILE", raising=False)
        client = boto3.client
        stack_id = _create_stack(client, template)
        facts.update(_what_the_stack_made(client, stack_id))
        facts.update(_what_deleting_it_leaves(client, stack_id))
        yield facts


Client = Callable[..., Any]  # boto3.client, inside moto


def _create_stack(client: Client, template: dict[str, Any]) -> str:
    """The placeholder artifact uploaded where CodeUri points, then the stack created; its id."""
    client("s3").create_bucket(Bucket=ARTIFACTS[0])
    client("s3").put_object(Bucket=ARTIFACTS[0], Key=ARTIFACTS[1], Body=_placeholder_zip())
    stack_id: str = client("cloudformation").create_stack(
        StackName=STACK, TemplateBody=json.dumps(template), Capabilities=["CAPABILITY_IAM"],
        Parameters=[{"ParameterKey": "AlarmEmail", "ParameterValue": "ops@example.org"}],
    )["StackId"]
    return stack_id


def _what_the_stack_made(client: Client, stack_id: str) -> dict[str, Any]:
    """Each modelled resource read back through its own service's API, not CloudFormation's
    word for it: what a deploy would really have made."""
    cloudformation = client("cloudformation")
    facts: dict[str, Any] = {"stack": cloudformation.describe_stacks(StackName=stack_id)["Stacks"][0]}
    facts["resources"] = {
        r["LogicalResourceId"]: r["PhysicalResourceId"]
        for r in cloudformation.list_stack_resources(StackName=stack_id)["StackResourceSummaries"]
        if r["LogicalResourceId"]
    }
    dynamodb, sqs, iam, lam = client("dynamodb"), client("sqs"), client("iam"), client("lambda")
    facts["tables"] = {n: dynamodb.describe_table(TableName=n)["Table"]
                       for n in dynamodb.list_tables()["TableNames"]}
    facts["queues"] = {u: sqs.get_queue_attributes(QueueUrl=u, AttributeNames=["All"])["Attributes"]
                       for u in sqs.list_queues()["QueueUrls"]}
    facts["role_policies"] = {
        role["RoleName"]: {p: _document(iam.get_role_policy(RoleName=role["RoleName"], PolicyName=p))
                           for p in iam.list_role_policies(RoleName=role["RoleName"])["PolicyNames"]}
        for role in iam.list_roles()["Roles"]
    }
    facts["functions"] = {f["FunctionName"]: f for f in lam.list_functions()["Functions"]}
    facts["versions"] = {
        n: [v["Version"] for v in lam.list_versions_by_function(FunctionName=n)["Versions"]]
        for n in facts["functions"]
    }
    facts["mappings"] = lam.list_event_source_mappings()["EventSourceMappings"]
    facts["topics"] = [client("sns").get_topic_attributes(TopicArn=t["TopicArn"])["Attributes"]
                       for t in client("sns").list_topics()["Topics"]]
    facts["kms_aliases"] = {
        a["AliasName"]: a.get("TargetKeyId") for a in client("kms").list_aliases()["Aliases"]
    }
    facts["log_groups"] = {g["logGroupName"]: g.get("retentionInDays")
                           for g in client("logs").describe_log_groups()["logGroups"]}
    return facts


def _what_deleting_it_leaves(client: Client, stack_id: str) -> dict[str, Any]:
    """The stack deleted, then what is still there: ``Retain`` must keep the data, and only it."""
    cloudformation = client("cloudformation")
    cloudformation.delete_stack(StackName=stack_id)
    (deleted,) = cloudformation.describe_stacks(StackName=stack_id)["Stacks"]
    return {
        "deleted_status": deleted["StackStatus"],
        "left": {
            "tables": set(client("dynamodb").list_tables()["TableNames"]),
            "queues": set(client("sqs").list_queues().get("QueueUrls", [])),
            "buckets": {b["Name"] for b in client("s3").list_buckets()["Buckets"]},
            "functions": client("lambda").list_functions()["Functions"],
            "roles": client("iam").list_roles()["Roles"],
            "log_groups": client("logs").describe_log_groups()["logGroups"],
            "topics": client("sns").list_topics()["Topics"],
        },
    }


def test_moto_creates_the_stack_and_skips_exactly_the_types_docs_deploy_md_lists(
    translated: dict[str, Any], deployed: dict[str, Any]
) -> None:
    assert deployed["stack"]["StackStatus"] == "CREATE_COMPLETE"
    types = {r["Type"] for r in translated["Resources"].values()}
    from moto.cloudformation.parsing import get_model_map

    modelled = set(get_model_map())
    assert types & modelled == MODELLED and types - modelled == SKIPPED
    created = {k for k, r in translated["Resources"].items() if r["Type"] in MODELLED}
    assert created <= set(deployed["resources"]), created - set(deployed["resources"])
    docs = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    for kind in MODELLED | SKIPPED:
        assert f"`{kind}`" in docs, f"docs/deploy.md does not say what moto does with {kind}"


def test_the_tables_have_their_indexes_and_the_stream(deployed: dict[str, Any]) -> None:
    game = deployed["tables"][deployed["resources"]["GameTable"]]
    indexes = {i["IndexName"]: [k["AttributeName"] for k in i["KeySchema"]]
               for i in game["GlobalSecondaryIndexes"]}
    assert indexes == {"by_kind": ["kind", "created_at"], "by_due": ["due_bucket", "due_at"],
                       "by_rating": ["board", "ordinal"]}  # the leaderboard (issue 34)
    assert game["StreamSpecification"] == {"StreamEnabled": True, "StreamViewType": "NEW_IMAGE"}
    assert game["BillingModeSummary"]["BillingMode"] == "PAY_PER_REQUEST"
    idempotency = deployed["tables"][deployed["resources"]["IdempotencyTable"]]
    assert [k["AttributeName"] for k in idempotency["KeySchema"]] == ["id"]


def test_the_outbox_queue_redrives_to_its_dead_letter_queue(deployed: dict[str, Any]) -> None:
    queues, resources = deployed["queues"], deployed["resources"]
    outbox, dead = queues[resources["OutboxQueue"]], queues[resources["OutboxDeadLetterQueue"]]
    redrive = json.loads(outbox["RedrivePolicy"])
    assert redrive == {"deadLetterTargetArn": dead["QueueArn"], "maxReceiveCount": 5}
    assert outbox["VisibilityTimeout"] == "90"
    for name in ("OutboxDeadLetterQueue", "FailedWorkQueue"):
        assert queues[resources[name]]["MessageRetentionPeriod"] == "1209600", name  # 14 days to look


def test_resolved_grants_name_the_real_table_index_and_the_deadline_alias(deployed: dict[str, Any]) -> None:
    resources, policies = deployed["resources"], deployed["role_policies"]
    table = deployed["tables"][resources["GameTable"]]["TableArn"]
    sweeper = policies[resources["DeadlineSweepFunctionRole"]]
    (query,) = [s for doc in sweeper.values() for s in doc["Statement"]
                if s.get("Sid") == "GameTableReadWrite"]
    assert f"{table}/index/by_due" in query["Resource"] and "dynamodb:Query" in query["Action"]

    (invoke,) = [s for doc in policies[resources["SchedulerRole"]].values() for s in doc["Statement"]
                 if s["Action"] == "lambda:InvokeFunction"]
    deadline = deployed["functions"][f"{STACK}-deadline"]
    assert invoke["Resource"] == deadline["FunctionArn"] + ":live"
    for name, function in deployed["functions"].items():
        assert function["Environment"]["Variables"]["DEADLINE_FUNCTION_ARN"] == invoke["Resource"], name


def test_the_functions_exist_with_a_published_version_and_their_mappings(deployed: dict[str, Any]) -> None:
    functions, resources = deployed["functions"], deployed["resources"]
    assert len(functions) == 7
    for name, function in functions.items():
        assert function["Runtime"] == "python3.12", name
        assert "1" in deployed["versions"][name], name  # AutoPublishAlias published version 1
        assert deployed["log_groups"][f"/aws/lambda/{name}"] == 30, name
    notifier = functions[resources["NotifierFunction"]]["Environment"]["Variables"]
    assert notifier["CONVOY_PUBLIC_URL"] == "https://unmodelled-WebDistribution-DomainName"  # not execute-api
    by_function = {m["FunctionArn"].rsplit(":", 1)[-1]: m for m in deployed["mappings"]}
    relay = by_function[resources["RelayFunction"]]
    assert relay["EventSourceArn"] == deployed["tables"][resources["GameTable"]]["LatestStreamArn"]
    failed = deployed["queues"][resources["FailedWorkQueue"]]["QueueArn"]
    assert relay["DestinationConfig"]["OnFailure"]["Destination"] == failed
    outbox = by_function[resources["NotifierFunction"]]
    assert outbox["EventSourceArn"] == deployed["queues"][resources["OutboxQueue"]]["QueueArn"]
    assert outbox["FunctionResponseTypes"] == ["ReportBatchItemFailures"]


def test_the_alarm_topic_is_encrypted_with_the_stacks_own_key(deployed: dict[str, Any]) -> None:
    (topic,) = deployed["topics"]
    key = deployed["resources"]["AlarmTopicKey"]
    assert topic["KmsMasterKeyId"] == key
    assert deployed["kms_aliases"][f"alias/{STACK}-alarms"] == key


def test_deleting_the_stack_keeps_exactly_the_retained_resources(
    translated: dict[str, Any], deployed: dict[str, Any]
) -> None:
    retained = {k for k, r in translated["Resources"].items()
                if r.get("DeletionPolicy") == "Retain" and r["Type"] not in ("AWS::Lambda::Version",)}
    # SAM retains the old function versions itself (a rollback target); everything else is ours
    assert retained == RETAINED
    resources, left = deployed["resources"], deployed["left"]
    assert deployed["deleted_status"] == "DELETE_COMPLETE"
    assert left["tables"] == {resources[t] for t in ("GameTable", "IdempotencyTable", "ConnectionsTable")}
    queues = ("OutboxQueue", "OutboxDeadLetterQueue", "FailedWorkQueue")
    assert left["queues"] == {resources[q] for q in queues}
    assert left["buckets"] == {resources["WebBucket"], ARTIFACTS[0]}
    for kind in ("functions", "roles", "log_groups", "topics"):
        assert left[kind] == [], kind
