"""bench/cost.py's pricing rules (issue 29): what it reads off template.yaml, how it bills Lambda
time and traces. The measured run itself is a benchmark (docs/scaling.md), not a test."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench import cost

TEMPLATE = Path(__file__).resolve().parents[2] / "template.yaml"


def test_the_bill_reads_the_deployment_off_the_template() -> None:
    # issue 29 item 3: the template's X-Ray rule, not Lambda's default; item 5: the map cache
    deployed = cost.deployment(TEMPLATE)
    assert deployed.sampling == (0.0, 0.01)
    assert deployed.map_cached
    assert deployed.snapstart_functions == 7  # every function of the template (Globals)


def test_traces_follow_the_rule_reservoir_first_then_the_rate() -> None:
    month = cost.SECONDS_PER_MONTH
    assert cost.traces(100_000_000, (0.0, 0.01)) == 1_000_000
    # Lambda's default: one a second, then 5 % of the rest
    assert cost.traces(100_000_000, (1.0, 0.05)) == month + 0.05 * (100_000_000 - month)
    assert cost.traces(1_000, (1.0, 0.05)) == 1_000  # fewer than one a second: all


def test_lambda_time_is_our_code_plus_aws_latency_per_call_never_the_emulators() -> None:
    # issue 29 item 4: a call's time is AWS's documented figure, whatever moto took
    calls = Counter({"dynamodb:Query": 2, "dynamodb:TransactWriteItems": 1, "scheduler:CreateSchedule": 2,
                     "sqs:SendMessageBatch": 1, "dynamodbstreams:GetRecords": 5})
    assert cost.aws_call_seconds(calls) == 2 * 0.005 + 0.010 + 2 * 0.030 + 0.020

    class Spent:
        seconds = {"dynamodb": 0.200, "scheduler": 0.050}  # the emulator's time in those calls

    assert abs(cost.code_seconds(0.300, Spent()) - 0.050) < 1e-9
    assert cost.code_seconds(0.100, Spent()) == 0.0


def test_a_ten_minute_visit_pings_once() -> None:
    # web/src/live.ts: a ping every 5 minutes from the socket's opening, stopped at the close
    assert cost.keepalives(10) == 1
    assert cost.keepalives(4) == 0
    assert cost.keepalives(16) == 3
