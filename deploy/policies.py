"""Each function's inline policy in template.yaml, as (action, resource) grants with intrinsics
resolved, and the check of recorded calls against them: a call nothing allows is denied, an action
or resource of a statement that nothing used is unused (issue 27 item 3)."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from typing import Any

from deploy.build_artifacts import FUNCTIONS
from deploy.iam_calls import ACCOUNT, REGION, Call


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
