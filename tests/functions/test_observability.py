"""Structured logs (functions/observability.py): JSON lines naming the invocation (issue 9)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from functions.observability import API_GATEWAY_HTTP, Logger


class Context:
    function_name = "convoy-api"
    aws_request_id = "req-1"


def test_each_line_is_json_with_the_invocation_and_extra_fields(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("POWERTOOLS_LOG_LEVEL", "INFO")  # the system tests' stack sets WARNING
    logger = Logger(service="test-observability")

    @logger.inject_lambda_context(correlation_id_path=API_GATEWAY_HTTP)
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
