"""A function run the way Lambda runs it, from its built artifact alone: a fresh interpreter
(deploy/lambda_bootstrap.py) answering events, with the environment template.yaml gives it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from deploy import build_artifacts
from deploy.build_artifacts import ROOT
from deploy.iam_calls import REGION
from deploy.policies import resolve

BOOTSTRAP = ROOT / "deploy" / "lambda_bootstrap.py"
# Settings a deployed function does not have, because on AWS the default is right; each points a
# function at something on this machine instead of the internet.
# (and AWS_XRAY_DAEMON_ADDRESS, which Lambda sets itself, names the rehearsal's stand-in daemon)
LOCAL_OVERRIDES = (
    "AWS_ENDPOINT_URL",
    "COGNITO_JWKS_URL",
    "TELEGRAM_API_BASE",
    "CONVOY_ALLOW_LOOPBACK_WEBHOOKS",
    "LIVE_MANAGEMENT_URL",  # the WebSocket API's Management API: moto's apigatewaymanagementapi
    "SWEEP_GRACE_SECONDS",
)


class FunctionProcess:
    """One function's warm container: a fresh interpreter with only its artifact, answering events."""

    def __init__(
        self, logical_id: str, artifact: Path, env: dict[str, str], interpreter: str, log: Path
    ) -> None:
        self.logical_id = logical_id
        self.aws_calls: list[dict[str, Any]] = []  # every SDK call so far, priming's included
        self._log = open(log, "ab")  # noqa: SIM115 - closed in close()
        self._process = subprocess.Popen(
            [
                interpreter,
                "-I",
                "-S",
                str(BOOTSTRAP),
                str(artifact),
                *build_artifacts.HANDLERS[logical_id].rsplit(".", 1),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            env=env,
            text=True,
            cwd=artifact,
        )
        self.ready = self._read()

    def _read(self) -> dict[str, Any]:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.logical_id} exited ({self._process.wait()}): see {self._log.name}")
        answer: dict[str, Any] = json.loads(line)
        self.aws_calls.extend(answer.get("calls", []))
        return answer

    def invoke(self, event: dict[str, Any]) -> dict[str, Any]:
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(event) + "\n")
        self._process.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self._process.stdin:
            self._process.stdin.close()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
        self._log.close()


def function_env(
    logical_id: str,
    template: dict[str, Any],
    names: dict[str, dict[str, str]],
    parameters: dict[str, str],
    local: dict[str, str],
) -> dict[str, str]:
    """The environment Lambda gives ``logical_id``: the template's variables (Globals and its own,
    resolved to this rehearsal's names), the runtime's own, and ``local`` (LOCAL_OVERRIDES)."""
    variables = dict(template["Globals"]["Function"]["Environment"]["Variables"])
    own = template["Resources"][logical_id]["Properties"]
    variables.update((own.get("Environment") or {}).get("Variables") or {})
    env = {key: resolve(value, names, parameters) for key, value in variables.items()}
    env.update(
        {
            "AWS_LAMBDA_FUNCTION_NAME": f"convoy-{logical_id}",
            "AWS_LAMBDA_FUNCTION_VERSION": "1",
            "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(own.get("MemorySize", 512)),
            "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
            "AWS_REGION": REGION,
            "AWS_DEFAULT_REGION": REGION,
            "AWS_ACCESS_KEY_ID": "rehearsal",
            "AWS_SECRET_ACCESS_KEY": "rehearsal",
            "AWS_SESSION_TOKEN": "rehearsal",
            "LAMBDA_TASK_ROOT": "/var/task",
            "TZ": ":UTC",
            "LANG": "en_US.UTF-8",
            "PATH": "/usr/bin:/bin",
            "REHEARSAL_TIMEOUT_MS": str(int(own.get("Timeout", 15)) * 1000),
        }
    )
    env.update(local)
    return env
