"""The deploy rehearsal (issue 27 items 2 and 3): each function from its built artifact, alone in a
fresh interpreter, against moto over HTTP with the event shapes AWS sends, and each AWS call it
makes held to its policy in template.yaml (deploy/rehearsal.py says how).

One rehearsal per test session (module fixture): about half a minute once the artifacts exist.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deploy import iam_calls, rehearsal
from deploy.build_artifacts import FUNCTIONS
from deploy.iam_calls import Call
from deploy.policies import Grant, check
from deploy.scenario import Report

# Grants kept although the rehearsal does not take the path that uses them, each with that path.
# The test fails if one of these becomes used (then it belongs in no list) or if a grant not
# listed here is unused (then remove it from template.yaml, or rehearse the path that needs it).
KEPT_UNREHEARSED: dict[str, str] = {
    "RelayFunction [StreamFailuresToFailedWork]: sqs:SendMessage is never called": (
        "the stream event source mapping's OnFailure destination: Lambda sends a batch it gave up "
        "on with the function's role, not the function's code"
    ),
    "RelayFunction [StreamFailuresToFailedWork]: arn:aws:sqs:us-east-1:123456789012:convoy-failedworkqueue "
    "is never touched": "the same grant, its resource",
    "NotifierFunction [RequeueDeferred]: sqs:SendMessage is never called": (
        "a batch whose time budget runs out sends its undelivered messages back (functions/notifier)"
    ),
    "NotifierFunction [RequeueDeferred]: arn:aws:sqs:us-east-1:123456789012:convoy-outbox is never touched": (
        "the same grant, its resource"
    ),
    **{
        f"NotifierFunction [ForgetClosedConnections]: {what}": (
            "a frame for a connection API Gateway already closed answers 410 and the subscription is "
            "forgotten (functions/usecases/reach/live_updates.py post_frames); moto's Management API never "
            "answers 410 (the local stack's does: tests/system/test_reach_redaction.py closes sockets; "
            "tests/infra/test_live_visit.py counts the delete)"
        )
        for what in ("dynamodb:DeleteItem is never called",
                     "arn:aws:dynamodb:us-east-1:123456789012:table/convoy-connections is never touched")
    },
    **{
        f"TelegramFunction [{sid}]: {what}": "a bot /orders that completes an auto_process game's order set "
        "processes the turn, which schedules the next deadline (by name: issue 29)"
        for sid, what in [
            ("DeadlineSchedules", "scheduler:CreateSchedule is never called"),
            (
                "DeadlineSchedules",
                "arn:aws:scheduler:us-east-1:123456789012:schedule/convoy-deadlines/* is never touched",
            ),
            ("PassSchedulerRole", "iam:PassRole is never called"),
            ("PassSchedulerRole", "arn:aws:iam::123456789012:role/convoy-scheduler is never touched"),
        ]
    },
    **{
        f"{function} [DeadlineSchedules]: scheduler:UpdateSchedule is never called": (
            "a firing that comes before its deadline, or an NMR extension, moves the phase's deadline: "
            "its schedule, which still holds the name, is replaced in place (infra/scheduler.py)"
        )
        for function in ("DeadlineFunction", "DeadlineSweepFunction")
    },
}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    return rehearsal.rehearse(tmp_path_factory.mktemp("rehearsal"))


def _log(report: Report, function: str, whole: bool = False) -> str:
    assert report.logs is not None
    path = Path(report.logs) / f"{function}.log"
    text = path.read_text(errors="replace") if path.exists() else ""
    return text if whole else text[-3000:]


def test_every_function_initialises_from_its_artifact_alone(report: Report) -> None:
    for function, ready in report.ready.items():
        assert "init_error" not in ready, f"{function}: {ready.get('init_error')}\n{ready.get('traceback')}"
        assert ready["foreign_modules"] == [], f"{function} imported from outside its artifact"


def test_every_priming_step_ran_before_the_snapshot(report: Report) -> None:
    """A failed warm-up is logged, not raised (functions/snapstart.py): it must not go unseen."""
    for function, ready in report.ready.items():
        assert ready["snapshot_hooks"] >= 1 and ready["restore_hooks"] >= 1, function
        assert "priming step failed" not in _log(report, function, whole=True), function


def test_every_step_succeeds(report: Report) -> None:
    failed = [
        f"{s.function} / {s.name}: {s.detail}\n{s.answer.get('traceback', '')}"
        for s in report.steps
        if not s.ok
    ]
    assert not failed, "\n".join(failed) + "\n" + _log(report, "ApiFunction")


def test_every_function_was_rehearsed(report: Report) -> None:
    assert {s.function for s in report.steps if s.ok} >= set(FUNCTIONS)


def test_no_call_is_outside_its_policy(report: Report) -> None:
    denied = [f"{c.function}: {c.action} on {c.resource}" for c in report.findings.denied]
    assert not denied, "calls the template's policies do not allow:\n" + "\n".join(denied)


def test_no_grant_is_unused(report: Report) -> None:
    unused = set(report.findings.unused)
    assert unused - set(KEPT_UNREHEARSED) == set(), "grants nothing calls:\n" + "\n".join(sorted(unused))
    assert set(KEPT_UNREHEARSED) <= unused, "now rehearsed, drop from KEPT_UNREHEARSED: " + ", ".join(
        sorted(set(KEPT_UNREHEARSED) - unused)
    )


def test_unsigned_calls_are_only_the_public_cognito_operations(report: Report) -> None:
    """SignUp, ConfirmSignUp and InitiateAuth take no credentials (no IAM); every other call is
    signed, and so held to a policy above."""
    public = {"cognito-idp:SignUp", "cognito-idp:ConfirmSignUp", "cognito-idp:InitiateAuth"}
    assert set(report.unsigned) <= public


# --- the checker itself, on made-up calls and grants ------------------------------------------


def _grant(action: str, resource: str, sid: str = "S") -> Grant:
    return Grant("ApiFunction", sid, action, resource)


def test_the_checker_denies_a_call_no_grant_allows() -> None:
    table = "arn:aws:dynamodb:us-east-1:123456789012:table/games"
    findings = check(
        [Call("ApiFunction", "dynamodb:Query", table + "/index/by_due")],
        [_grant("dynamodb:Query", table + "/index/by_kind")],
    )
    assert findings.denied == [Call("ApiFunction", "dynamodb:Query", table + "/index/by_due")]


def test_the_checker_matches_wildcards_and_reports_unused_actions_and_resources() -> None:
    group = "arn:aws:scheduler:us-east-1:123456789012:schedule/deadlines/*"
    findings = check(
        [Call("ApiFunction", "scheduler:CreateSchedule", group[:-1] + "g1-S1901M")],
        [
            _grant("scheduler:CreateSchedule", group),
            _grant("scheduler:DeleteSchedule", group),
            _grant("scheduler:CreateSchedule", "arn:aws:scheduler:us-east-1:123456789012:schedule/x/*"),
        ],
    )
    assert findings.denied == []
    assert findings.unused == [
        "ApiFunction [S]: scheduler:DeleteSchedule is never called",
        "ApiFunction [S]: arn:aws:scheduler:us-east-1:123456789012:schedule/x/* is never touched",
    ]


def test_a_call_of_another_function_does_not_use_a_grant() -> None:
    findings = check(
        [Call("RelayFunction", "sqs:SendMessage", "arn:aws:sqs:us-east-1:1:q")],
        [_grant("sqs:SendMessage", "arn:aws:sqs:us-east-1:1:q")],
    )
    assert findings.denied and findings.unused


def test_transactions_need_each_items_own_action() -> None:
    params = {"TransactItems": [{"Put": {"TableName": "games"}}, {"ConditionCheck": {"TableName": "games"}}]}
    calls = iam_calls.iam_calls("ApiFunction", "dynamodb", "TransactWriteItems", params)
    assert [c.action for c in calls] == ["dynamodb:PutItem", "dynamodb:ConditionCheckItem"]


def test_the_traced_functions_reach_x_ray_with_their_aws_calls_and_no_fault(report: Report) -> None:
    """Tracing: Active on Lambda: Powertools' Tracer sends each handler's subsegment and the
    botocore calls under it to the daemon (a stand-in here); no segment records a fault."""
    names = {segment.get("name") for segment in report.segments}
    assert {"## handler", "## sweep_handler", "dynamodb"} <= names, names
    faults = [s for s in report.segments if s.get("fault") or s.get("error")]
    assert faults == [], faults[:3]
