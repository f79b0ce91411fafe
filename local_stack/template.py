"""Read template.yaml (tolerating CloudFormation tags) and create its tables and queues.

Tests and the local stack build their resources from the same file as ``sam deploy``,
so they cannot drift. Only the properties the emulator needs are used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

TEMPLATE = Path(__file__).resolve().parents[1] / "template.yaml"

# Local physical names for the template's logical ids (env var -> value is set for these).
LOCAL_NAMES = {
    "GameTable": ("GAME_TABLE", "convoy-games"),
    "IdempotencyTable": ("IDEMPOTENCY_TABLE", "convoy-idempotency"),
    "OutboxQueue": ("OUTBOX_QUEUE_URL", "convoy-outbox"),
    "OutboxDeadLetterQueue": ("OUTBOX_DLQ_URL", "convoy-outbox-dlq"),
    "ConnectionsTable": ("CONNECTIONS_TABLE", "convoy-connections"),
}


class _TolerantLoader(yaml.SafeLoader):
    """SafeLoader that turns ``!Ref X`` into ``{"Ref": "X"}``, ``!GetAtt A.B`` into
    ``{"Fn::GetAtt": ["A", "B"]}`` and any other ``!Tag v`` into ``{"Fn::Tag": v}``."""


def _construct_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        value: Any = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        assert isinstance(node, yaml.MappingNode)  # YAML's third and last kind of node
        value = loader.construct_mapping(node, deep=True)
    if suffix == "Ref":
        return {"Ref": value}
    if suffix == "GetAtt" and isinstance(value, str):
        return {"Fn::GetAtt": value.split(".", 1)}
    return {f"Fn::{suffix}": value}


_TolerantLoader.add_multi_constructor("!", _construct_tag)


def load_template(path: Path = TEMPLATE) -> dict[str, Any]:
    with path.open() as handle:
        data: dict[str, Any] = yaml.load(handle, Loader=_TolerantLoader)
    return data


def resources_of(template: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {
        name: res.get("Properties", {}) or {}
        for name, res in sorted(template.get("Resources", {}).items())
        if res.get("Type") == kind
    }


def local_name(logical_id: str) -> str:
    return LOCAL_NAMES.get(logical_id, ("", f"convoy-{logical_id.lower()}"))[1]


def table_request(logical_id: str, props: dict[str, Any], streams: bool = True) -> dict[str, Any]:
    """create_table arguments for an AWS::DynamoDB::Table's properties."""
    request: dict[str, Any] = {
        "TableName": local_name(logical_id),
        "AttributeDefinitions": props["AttributeDefinitions"],
        "KeySchema": props["KeySchema"],
        "BillingMode": props.get("BillingMode", "PAY_PER_REQUEST"),
    }
    if props.get("GlobalSecondaryIndexes"):
        request["GlobalSecondaryIndexes"] = [
            {k: v for k, v in gsi.items() if k in ("IndexName", "KeySchema", "Projection")}
            for gsi in props["GlobalSecondaryIndexes"]
        ]
    stream = props.get("StreamSpecification")
    if stream and streams:
        request["StreamSpecification"] = {"StreamEnabled": True, "StreamViewType": stream["StreamViewType"]}
    return request


def add_missing_indexes(dynamodb: Any, request: dict[str, Any]) -> list[str]:
    """A table kept in a data directory from before the template grew an index (issue 34's
    ``by_rating``) gets the index, as CloudFormation would add it; the names added."""
    described = dynamodb.describe_table(TableName=request["TableName"])["Table"]
    present = {i["IndexName"] for i in described.get("GlobalSecondaryIndexes") or ()}
    added = []
    for index in request.get("GlobalSecondaryIndexes") or ():
        if index["IndexName"] in present:
            continue
        names = {k["AttributeName"] for k in index["KeySchema"]}
        dynamodb.update_table(
            TableName=request["TableName"],
            AttributeDefinitions=[a for a in request["AttributeDefinitions"] if a["AttributeName"] in names],
            GlobalSecondaryIndexUpdates=[{"Create": index}],
        )
        added.append(index["IndexName"])
    return added


def create_resources(
    dynamodb: Any, sqs: Any, template: dict[str, Any] | None = None, streams: bool = True
) -> dict[str, str]:
    """Create the template's tables and queues; returns {env var or logical id: name or URL}.

    ``streams=False`` leaves out DynamoDB streams (for tests that do not want them); the
    local stack keeps them: its relay reads the stream, and ``local_stack.moto_patches``
    keeps moto's stream and transactions bounded.
    """
    template = template or load_template()
    created: dict[str, str] = {}
    existing = set(dynamodb.list_tables().get("TableNames", []))
    for logical_id, props in resources_of(template, "AWS::DynamoDB::Table").items():
        request = table_request(logical_id, props, streams)
        if request["TableName"] in existing:
            add_missing_indexes(dynamodb, request)
        else:
            dynamodb.create_table(**request)
            ttl = props.get("TimeToLiveSpecification")
            if ttl and ttl.get("Enabled"):
                dynamodb.update_time_to_live(
                    TableName=request["TableName"],
                    TimeToLiveSpecification={"Enabled": True, "AttributeName": ttl["AttributeName"]},
                )
        created[LOCAL_NAMES.get(logical_id, (logical_id, ""))[0] or logical_id] = request["TableName"]
    queues = resources_of(template, "AWS::SQS::Queue")
    arns: dict[str, str] = {}
    # queues without a redrive policy first: their ARNs are needed by the others
    for logical_id, props in sorted(queues.items(), key=lambda kv: "RedrivePolicy" in kv[1]):
        attributes: dict[str, str] = {}
        if "VisibilityTimeout" in props:
            attributes["VisibilityTimeout"] = str(props["VisibilityTimeout"])
        redrive = props.get("RedrivePolicy")
        if redrive:
            target = redrive["deadLetterTargetArn"]
            source = target["Fn::GetAtt"][0] if isinstance(target, dict) else None
            import json

            attributes["RedrivePolicy"] = json.dumps(
                {"deadLetterTargetArn": arns[source] if source else target,
                 "maxReceiveCount": str(redrive.get("maxReceiveCount", 5))}
            )
        url = sqs.create_queue(QueueName=local_name(logical_id), Attributes=attributes)["QueueUrl"]
        arns[logical_id] = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])[
            "Attributes"
        ]["QueueArn"]
        created[LOCAL_NAMES.get(logical_id, (logical_id, ""))[0] or logical_id] = url
    return created
