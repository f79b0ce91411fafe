"""Play the Lambda Python runtime for one built artifact: import its handler with only the artifact
and the standard library on ``sys.path``, run the SnapStart hooks, then answer invocations.

Run as ``python3.12 -I -S deploy/lambda_bootstrap.py ARTIFACT MODULE FUNCTION`` (``-I -S``: no
site-packages, no PYTHONPATH, no script directory: nothing of this machine's but the standard
library). The driver (deploy/rehearsal.py) writes one JSON event a line to stdin; each answer is
one JSON line on the protocol stream (the process's original stdout). What the function itself
prints (its logs, as Lambda sends them to CloudWatch) goes to stderr.

This file is not part of any artifact, as Lambda's own bootstrap is not. What it does like the
runtime: ``/var/task`` first on the path; ``_X_AMZN_TRACE_ID`` set per invocation; a context with
the runtime's attributes; the ``snapshot_restore_py`` hooks (the runtime's module, stood in for
here) run before the snapshot (at the end of init) and after the restore (before the first
invocation), as SnapStart does. Timings of each step are reported for bench/cold_start.py.
"""

import json
import os
import sys
import sysconfig
import time
import traceback
import types
import uuid
from collections.abc import Callable
from typing import Any, TextIO

_started = time.perf_counter()


class Context:
    """The attributes of Lambda's context object that handlers read."""

    def __init__(self, function_name: str, timeout_ms: int) -> None:
        self.function_name = function_name
        self.function_version = os.environ.get("AWS_LAMBDA_FUNCTION_VERSION", "1")
        self.invoked_function_arn = f"arn:aws:lambda:us-east-1:123456789012:function:{function_name}:live"
        self.memory_limit_in_mb = int(os.environ.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512"))
        self.aws_request_id = str(uuid.uuid4())
        self.log_group_name = f"/aws/lambda/{function_name}"
        self.log_stream_name = "rehearsal"
        self._deadline = time.monotonic() + timeout_ms / 1000

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))


Hook = tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]


class SnapshotHooks(types.ModuleType):
    """A stand-in for the runtime's ``snapshot_restore_py``: hooks are kept to be run in order."""

    def __init__(self) -> None:
        super().__init__("snapshot_restore_py")
        self.before: list[Hook] = []
        self.after: list[Hook] = []

    def register_before_snapshot(
        self, hook: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> Callable[..., Any]:
        self.before.append((hook, args, kwargs))
        return hook

    def register_after_restore(
        self, hook: Callable[..., Any], *args: Any, **kwargs: Any
    ) -> Callable[..., Any]:
        self.after.append((hook, args, kwargs))
        return hook


# the request parameters that name what a call acts on (what an IAM policy's Resource matches)
NAMING = ("TableName", "IndexName", "QueueUrl", "Name", "Names", "GroupName", "UserPoolId",
          "ConnectionId", "FromEmailAddress", "ConfigurationSetName")


def _naming(params: dict[str, Any]) -> dict[str, Any]:
    """Of a call's parameters, only those that name resources (values never leave the function)."""
    kept: dict[str, Any] = {key: params[key] for key in NAMING if key in params}
    if "TransactItems" in params:
        kept["TransactItems"] = [
            {kind: {"TableName": part.get("TableName")} for kind, part in item.items()}
            for item in params["TransactItems"]
        ]
    if "RequestItems" in params:
        kept["RequestItems"] = {table: {} for table in params["RequestItems"]}
    if isinstance(params.get("Target"), dict) and "RoleArn" in params["Target"]:
        kept["Target"] = {"RoleArn": params["Target"]["RoleArn"]}
    return kept


def record_aws_calls(calls: list[dict[str, Any]]) -> None:
    """Append every botocore call any session of this process makes to ``calls``: its service,
    operation, naming parameters, whether it is signed, and how long its answer took. Done through
    botocore's own handler list, which every new session registers (so before the handler's
    import builds one); the function's code is untouched."""
    try:
        import botocore.handlers  # the artifact's own
    except ImportError:  # an artifact without the SDK makes no AWS call
        return

    def asked(params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        auth = getattr(model, "auth", None) or []
        record = {
            "service": model.service_model.service_name,
            "operation": model.name,
            "params": _naming(params),
            "ms": 0.0,
            "unsigned": getattr(model, "auth_type", None) == "none" or "smithy.api#noAuth" in auth,
        }
        context["rehearsal_call"] = record
        calls.append(record)

    def sending(context: dict[str, Any], **_: Any) -> None:
        context["rehearsal_sent"] = time.perf_counter()

    def answered(context: dict[str, Any], **_: Any) -> None:
        record, sent = context.get("rehearsal_call"), context.get("rehearsal_sent")
        if record is not None and sent is not None:
            record["ms"] += (time.perf_counter() - sent) * 1000

    botocore.handlers.BUILTIN_HANDLERS.extend(
        [
            ("before-parameter-build", asked),
            ("before-call", sending),
            ("after-call", answered),
            ("after-call-error", answered),
        ]
    )


Say = Callable[[dict[str, Any]], None]


def main() -> None:
    artifact, module_name, function_name = sys.argv[1:4]
    protocol = _protocol_stream()
    sys.path[:0] = [artifact]
    snapshot = SnapshotHooks()
    sys.modules["snapshot_restore_py"] = snapshot
    timeout_ms = int(os.environ.get("REHEARSAL_TIMEOUT_MS", "15000"))
    calls: list[dict[str, Any]] = []
    record_aws_calls(calls)

    def say(answer: dict[str, Any]) -> None:
        protocol.write(json.dumps(answer, default=str) + "\n")

    try:
        handler, timings = _initialise(module_name, function_name, snapshot)
    except BaseException as exc:
        say({"init_error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()})
        return
    foreign = sorted(
        name for name, path in _module_files() if not _within(path, artifact) and not _stdlib(path)
    )
    say(
        {
            "ready": True,
            **timings,
            "init_ms": (time.perf_counter() - _started) * 1000,
            "foreign_modules": foreign,
            "snapshot_hooks": len(snapshot.before),
            "restore_hooks": len(snapshot.after),
            "calls": _taken(calls),
        }
    )

    def context() -> Context:
        """A fresh context per invocation, as Lambda gives one (its own request id and deadline)."""
        return Context(os.environ.get("AWS_LAMBDA_FUNCTION_NAME", function_name), timeout_ms)

    _serve(handler, snapshot, context, calls, say)


def _protocol_stream() -> TextIO:
    """The process's original stdout, kept for the answers; from here on fd 1 and ``sys.stdout``
    are stderr, so the function's own prints and logs go where Lambda's would: not the protocol."""
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = os.fdopen(1, "w", buffering=1)
    return protocol


def _initialise(
    module_name: str, function_name: str, snapshot: SnapshotHooks
) -> tuple[Callable[..., Any], dict[str, float]]:
    """Lambda's init: import the handler, then run the before-snapshot hooks (SnapStart's priming).
    Each step is timed apart, as bench/cold_start.py reports them apart."""
    imported = time.perf_counter()
    module = __import__(module_name, fromlist=["_"])
    handler = getattr(module, function_name)
    imported_ms = (time.perf_counter() - imported) * 1000
    primed = time.perf_counter()
    _run(snapshot.before)
    primed_ms = (time.perf_counter() - primed) * 1000
    return handler, {"import_ms": imported_ms, "prime_ms": primed_ms}


def _serve(
    handler: Callable[..., Any],
    snapshot: SnapshotHooks,
    context: Callable[[], Context],
    calls: list[dict[str, Any]],
    say: Say,
) -> None:
    """Answer each event on stdin; the after-restore hooks run once, before the first invocation,
    as they do after SnapStart's restore, and their time is reported with that invocation's."""
    restored = False
    for line in sys.stdin:
        event = json.loads(line)
        began = time.perf_counter()
        if not restored:
            _run(snapshot.after)
            restored = True
        os.environ["_X_AMZN_TRACE_ID"] = (
            f"Root=1-{int(time.time()):08x}-{uuid.uuid4().hex[:24]};Parent={uuid.uuid4().hex[:16]};Sampled=1"
        )
        say(_invoke(handler, event, context, began, calls))


def _invoke(
    handler: Callable[..., Any],
    event: Any,
    context: Callable[[], Context],
    began: float,
    calls: list[dict[str, Any]],
) -> dict[str, Any]:
    """One invocation's answer: the handler's result and timings, or the error it raised; either
    way with the AWS calls it made (a failing function's calls matter to its IAM policy too)."""
    invoked = time.perf_counter()
    try:
        result = handler(event, context())
        return {
            "result": result,
            "ms": (time.perf_counter() - invoked) * 1000,
            "restore_ms": (invoked - began) * 1000,
            "calls": _taken(calls),
        }
    except BaseException as exc:
        return {
            "error": f"{type(exc).__name__}: {exc}",
            "traceback": traceback.format_exc(),
            "calls": _taken(calls),
        }


def _run(hooks: list[Hook]) -> None:
    """Run registered hooks in the order they were registered, as the runtime does."""
    for hook, args, kwargs in hooks:
        hook(*args, **kwargs)


def _taken(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The calls recorded since the last answer (each is reported with one answer only)."""
    found = list(calls)
    del calls[: len(found)]
    return found


def _module_files() -> list[tuple[str, str]]:
    """(name, file) of every loaded module with a file, this bootstrap left out (it is loaded as
    ``__main__``, and as ``__mp_main__`` too once multiprocessing is imported)."""
    mine = os.path.abspath(__file__)
    found = [(name, getattr(m, "__file__", None)) for name, m in list(sys.modules.items())]
    return [(name, path) for name, path in found if isinstance(path, str) and os.path.abspath(path) != mine]


def _within(path: str, folder: str) -> bool:
    return os.path.abspath(path).startswith(os.path.abspath(folder) + os.sep)


def _stdlib(path: str) -> bool:
    return any(_within(path, sysconfig.get_paths()[key]) for key in ("stdlib", "platstdlib"))


if __name__ == "__main__":
    main()
