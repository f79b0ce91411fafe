"""SnapStart figures from the built artifacts (issue 27 item 5), printed by bench/cold_start.py.

Each run is a fresh interpreter holding only a function's artifact (deploy/lambda_bootstrap.py,
as in the deploy rehearsal), against moto over HTTP:

- ``init``: interpreter start to ready — the handler's import plus its priming (the
  ``before_snapshot`` hooks). On Lambda this happens once per published version, when the
  snapshot is taken; it is reported, not a goal;
- ``restore``: the ``after_restore`` hooks (reseeding, renewing connections), run before the
  first request, as SnapStart runs them in each restored environment;
- ``first``: the first request after that — what a player waits for beyond Lambda's own restore;
- ``of it moto``: the part of ``first`` spent waiting for the answers of the function's AWS calls
  (from sending each request to its parsed answer, timed in the function through botocore's
  events), and ``ours``: the rest, the function's own work. On AWS the first part is DynamoDB's
  and SSM's few milliseconds a call instead of moto's.

The goals (issue 27): a player's view's first request ≤ 25 ms, an order submission's ≤ 40 ms
(median of 5 fresh interpreters). Figures are this machine and moto, not AWS: DynamoDB on AWS
answers in a few ms, moto on loopback in about one.
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path
from typing import Any

from deploy import build_artifacts, rehearsal
from deploy.function_process import FunctionProcess, function_env
from deploy.scenario import http_event

GOALS_MS = {"api: a player's view": 25.0, "api: an order submission": 40.0}


def _start(
    function: str, artifacts: dict[str, Path], env: dict[str, str], interpreter: str, logs: Path
) -> FunctionProcess:
    return FunctionProcess(function, artifacts[function], env, interpreter, logs / f"{function}.log")


def measure(runs: int = 5) -> dict[str, list[dict[str, float]]]:
    """{case: [{"init", "import", "prime", "restore", "first", "moto", "ours"} per fresh interpreter]},
    in ms."""
    from local_stack.template import load_template

    artifacts = rehearsal.built_artifacts()
    target = build_artifacts.host_target()
    interpreter = build_artifacts.target_interpreter(target.python) or "python3"
    logs = Path(tempfile.mkdtemp(prefix="snapstart-"))
    template = load_template()
    figures: dict[str, list[dict[str, float]]] = {}
    with rehearsal.moto_stack(logs) as (running, env):
        names, parameters = rehearsal.stack_resources(template, running, env)
        local = {
            "AWS_ENDPOINT_URL": running.endpoint,
            "COGNITO_JWKS_URL": env["COGNITO_JWKS_URL"],
            "TELEGRAM_API_BASE": "http://127.0.0.1:9",
            "CONVOY_ALLOW_LOOPBACK_WEBHOOKS": "1",
        }

        def start(function: str) -> FunctionProcess:
            """A fresh interpreter holding ``function``'s artifact, with the template's environment."""
            env_of = function_env(function, template, names, parameters, local)
            return _start(function, artifacts, env_of, interpreter, logs)

        for case, (function, event) in _cases(start("ApiFunction")).items():
            figures[case] = [_sample(case, start(function), event, logs) for _ in range(runs)]
    return figures


def _cases(setup: FunctionProcess) -> dict[str, tuple[str, dict[str, Any]]]:
    """{case: (function, event)}: the requests timed, on a game ``setup`` (an API process closed
    here, so no case is timed in it) creates with FRANCE seated."""
    game = _body(setup.invoke(http_event("POST", "/games", {"variant": "classical"})))["game_id"]
    token = _body(setup.invoke(http_event("POST", f"/games/{game}/join", {"power": "FRANCE"})))["token"]
    setup.close()
    return {
        "api: a player's view": ("ApiFunction", http_event("GET", f"/games/{game}", token=token)),
        "api: an order submission": (
            "ApiFunction",
            http_event(
                "POST", f"/games/{game}/orders", {"orders": ["A PAR H"], "phase": "S1901M"}, token
            ),
        ),
        "deadline: a late firing": ("DeadlineFunction", {"game_id": game, "phase": "F1950M"}),
        "relay: an empty batch": ("RelayFunction", {"Records": []}),
        "notifier: an empty batch": ("NotifierFunction", {"Records": []}),
    }


def _sample(case: str, process: FunctionProcess, event: dict[str, Any], logs: Path) -> dict[str, float]:
    """One fresh interpreter's figures: its init, then its first (restored) request, which is all a
    process is used for; a failure stops the measurement, as its figures would mean nothing."""
    ready = process.ready
    answer = process.invoke(event)
    served = sum(call["ms"] for call in answer.get("calls", []))
    process.close()
    if "error" in answer or "init_error" in ready:
        raise RuntimeError(f"{case}: {answer.get('error') or ready.get('init_error')} (logs: {logs})")
    return {
        "init": ready["init_ms"],
        "import": ready["import_ms"],
        "prime": ready["prime_ms"],
        "restore": answer["restore_ms"],
        "first": answer["ms"],
        "moto": served,
        "ours": answer["ms"] - served,
    }


def _body(answer: dict[str, Any]) -> dict[str, Any]:
    import json

    body: dict[str, Any] = json.loads(answer["result"]["body"])
    return body


def table(figures: dict[str, list[dict[str, float]]]) -> str:
    runs = max((len(s) for s in figures.values()), default=0)
    columns = [
        ("init", "init ms", 7, 0),
        ("import", "of it import", 12, 0),
        ("prime", "priming", 7, 0),
        ("restore", "restore", 7, 1),
        ("first", "first request ms", 16, 1),
        ("moto", "of it moto", 10, 1),
        ("ours", "ours", 6, 1),
    ]
    head = " | ".join(f"{title:>{width}}" for _, title, width, _ in columns)
    rule = "|".join("-" * (width + 2) for _, _, width, _ in columns)
    lines = [
        f"SnapStart, from the built artifacts (fresh interpreters, median of {runs}; against moto):",
        f"| {'case':<26} | {head} | {'goal':>5} |",
        f"|{'-' * 28}|{rule}|{'-' * 7}|",
    ]
    for case, samples in figures.items():
        median = {key: statistics.median(s[key] for s in samples) for key in samples[0]}
        cells = " | ".join(f"{median[key]:>{width}.{digits}f}" for key, _, width, digits in columns)
        goal = GOALS_MS.get(case)
        lines.append(f"| {case:<26} | {cells} | {'' if goal is None else '≤' + format(goal, '.0f'):>5} |")
    return "\n".join(lines)
