"""bench/cost.py's pricing rules (issue 29): what it reads off template.yaml, how it bills Lambda
time and traces. The measured run itself is a benchmark (docs/scaling.md), not a test."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from bench import cost

TEMPLATE = Path(__file__).resolve().parents[2] / "template.yaml"


def test_the_bill_reads_the_deployment_off_the_template() -> None:
    # issue 29 item 3: traces at Lambda's own rule, the one a function cannot change (AWS Lambda
    # guide), so the template declares no X-Ray rule that would not apply; item 5: the map cache
    deployed = cost.deployment(TEMPLATE)
    assert deployed.sampling == (1.0, 0.05)
    assert "AWS::XRay::SamplingRule" not in TEMPLATE.read_text()
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


def test_the_live_client_is_read_off_the_measured_checkouts_sources(tmp_path: Path) -> None:
    # issue 29, the bill: this checkout's client sends its token in the subscribe frame (no
    # $connect, no $disconnect); one that offers it as a subprotocol is measured as it was
    here = cost.live_client(TEMPLATE.parent)
    assert here.token_in_frame and here.pings and here.remembers_address
    old = tmp_path / "web" / "src"
    old.mkdir(parents=True)
    (old / "live.ts").write_text(
        'const subscribe = JSON.stringify({ action: "subscribe", game_id: gameId });\n'
        'socket = new WebSocket(url, token ? ["convoy", token] : ["convoy"]);\n')
    assert not cost.live_client(tmp_path).token_in_frame


def test_posts_count_those_a_closed_socket_refused_and_at_least_the_frames_delivered() -> None:
    # billed messages are what the sockets received (pushes, LiveVisit); the posts priced as
    # Lambda time are every PostToConnection call metered, a 410 included
    phase = cost.Usage(calls=Counter({"apigatewaymanagementapi:PostToConnection": 5}), pushes=4)
    assert cost.posts(phase) == 5
    assert cost.posts(cost.Usage(pushes=4)) == 4  # a checkout whose posts were not metered
