"""Observability (functions/observability.py): Powertools' structured logs naming the
invocation (issues 9, 27), its EMF metrics and a tracer that is off outside Lambda."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from functions.observability import API_GATEWAY_HTTP, Handler, Logger, get_logger, get_metrics, get_tracer

ROOT = Path(__file__).resolve().parents[2]


def injected(logger: Logger, **options: Any) -> Callable[[Handler], Handler]:
    """``@logger.inject_lambda_context(**options)``, typed: Powertools' decorators are not."""
    decorate: Callable[[Handler], Handler] = logger.inject_lambda_context(**options)
    return decorate


class Context:
    function_name = "convoy-api"
    aws_request_id = "req-1"


def test_each_line_is_json_with_the_invocation_and_extra_fields(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "INFO")  # the system tests' stack sets WARNING
    logger = Logger(service="test-observability")

    @injected(logger, correlation_id_path=API_GATEWAY_HTTP)
    def handler(event: Any, context: Any) -> str:
        logger.info("rejected", extra={"code": "NOT_A_PLAYER", "status": 401})
        return "done"

    assert handler({"requestContext": {"requestId": "corr-9"}}, Context()) == "done"
    handler({}, Context())
    first, second = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert first["message"] == "rejected" and first["level"] == "INFO"
    assert (first["code"], first["status"], first["correlation_id"]) == ("NOT_A_PLAYER", 401, "corr-9")
    assert (first["function_request_id"], first["cold_start"], second["cold_start"]) == ("req-1", True, False)
    logger.info("outside")
    assert "correlation_id" not in json.loads(capsys.readouterr().out)  # state cleared after the call


class NumberedContext:
    """A Lambda context of its own per invocation, as Lambda (and the local stack) give."""

    function_name = "convoy-notifier"
    memory_limit_in_mb = 256

    def __init__(self, n: int) -> None:
        self.aws_request_id = f"req-{n}"


def test_invocations_on_several_threads_keep_their_own_keys(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given a handler that logs before and after every other invocation has set its keys
    # (the local stack serves requests on several threads of one process)
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "INFO")
    logger = Logger(service="test-observability-threads")
    invocations = 4
    all_inside = threading.Barrier(invocations)

    @injected(logger, correlation_id_path=API_GATEWAY_HTTP, clear_state=True)
    def handler(event: Any, context: Any) -> None:
        logger.info("started", extra={"n": event["n"]})
        all_inside.wait(timeout=10)
        logger.info("finishing", extra={"n": event["n"]})

    # When they run at the same time
    threads = [threading.Thread(target=handler, args=({"n": n, "requestContext": {"requestId": f"corr-{n}"}},
                                                      NumberedContext(n))) for n in range(invocations)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=20)
    logger.info("outside")

    # Then every line names its own invocation, and none after them names any
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    inside, (outside,) = lines[:-1], lines[-1:]
    assert len(inside) == 2 * invocations
    assert [(line["function_request_id"], line["correlation_id"]) for line in inside] == [
        (f"req-{line['n']}", f"corr-{line['n']}") for line in inside]
    assert "function_request_id" not in outside and "correlation_id" not in outside


def test_the_event_is_never_logged(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Powertools logs the whole event when asked to; ours never does (events carry tokens)
    monkeypatch.setenv("POWERTOOLS_LOGGER_LOG_EVENT", "true")
    logger = Logger(service="test-observability-event")

    @injected(logger, log_event=True)
    def handler(event: Any, context: Any) -> None:
        logger.warning("handled")

    handler({"headers": {"authorization": "Bearer token-never-logged"}}, None)
    out = capsys.readouterr().out
    assert "handled" in out and "token-never-logged" not in out


def test_a_line_carries_the_fields_the_runbooks_query(capsys: pytest.CaptureFixture[str]) -> None:
    # docs/operations.md: level, message, UTC timestamp, service, the invocation's ids
    logger = get_logger()

    @injected(logger, correlation_id_path=API_GATEWAY_HTTP, clear_state=True)
    def handler(event: Any, context: Any) -> None:
        logger.warning("route failed", extra={"route": "GET /games"})

    handler({"requestContext": {"requestId": "corr-7"}}, NumberedContext(7))
    (line,) = (json.loads(text) for text in capsys.readouterr().out.splitlines())
    assert (line["level"], line["message"], line["route"]) == ("WARNING", "route failed", "GET /games")
    assert (line["function_name"], line["function_request_id"], line["correlation_id"]) == (
        "convoy-notifier", "req-7", "corr-7")
    assert line["service"] == os.environ.get("POWERTOOLS_SERVICE_NAME", "convoy")
    assert line["timestamp"].endswith("+00:00") and "T" in line["timestamp"]
    assert "function_arn" not in line  # the account id: nothing a log line needs


def test_metrics_are_emf_in_the_convoy_namespace_with_the_service_dimension(
    capsys: pytest.CaptureFixture[str],
) -> None:
    metrics = get_metrics()

    @metrics.log_metrics
    def handler(event: Any, context: Any) -> None:
        metrics.add_metric(name="TestMetric", unit="Count", value=2)

    handler({}, None)
    (line,) = (json.loads(text) for text in capsys.readouterr().out.splitlines())
    (directive,) = line["_aws"]["CloudWatchMetrics"]
    assert (directive["Namespace"], directive["Dimensions"]) == ("Convoy", [["service"]])
    assert line["service"] == "convoy"
    assert line["TestMetric"] == [2.0]


def test_the_tracer_is_off_outside_lambda_and_patches_nothing() -> None:
    # the tests and the local stack have no X-Ray daemon to talk to
    import botocore.client
    import wrapt

    assert get_tracer().disabled
    assert not isinstance(vars(botocore.client.BaseClient)["_make_api_call"], wrapt.FunctionWrapper)


TRACER_PROBE = """
import http.client, json
import botocore.client, wrapt
from functions.observability import get_tracer
tracer = get_tracer()
patched = lambda owner, name: isinstance(vars(owner)[name], wrapt.FunctionWrapper)
print(json.dumps({
    "disabled": bool(tracer.disabled),
    "botocore": patched(botocore.client.BaseClient, "_make_api_call"),
    "http.client": patched(http.client.HTTPConnection, "getresponse"),
}))
"""


@pytest.mark.parametrize(("disabled", "expected"), [
    ({}, {"disabled": False, "botocore": True, "http.client": False}),
    ({"POWERTOOLS_TRACE_DISABLED": "true"}, {"disabled": True, "botocore": False, "http.client": False}),
])
def test_on_lambda_the_tracer_patches_botocore_only(
    disabled: dict[str, str], expected: dict[str, bool]
) -> None:
    # On Lambda (LAMBDA_TASK_ROOT set) AWS calls are traced, but never http.client: webhook
    # URLs hold their receivers' tokens; POWERTOOLS_TRACE_DISABLED=true turns it all off
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POWERTOOLS_TRACE", "AWS_SAM"))}
    env.update(LAMBDA_TASK_ROOT="/var/task", PYTHONPATH=str(ROOT), **disabled)
    done = subprocess.run([sys.executable, "-c", TRACER_PROBE], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=60, check=True)
    assert json.loads(done.stdout.splitlines()[-1]) == expected
