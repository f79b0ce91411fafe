"""SnapStart priming (issue 27 item 5; shared/ARCHITECTURE.md §8): cold start is won by the snapshot.

With ``SnapStart: ApplyOn: PublishedVersions`` Lambda runs a function's init once per published
version, snapshots the memory, and starts every later environment from that snapshot. Whatever
init has done is then free; whatever the first request still has to do is not. So each handler
calls ``prime(...)`` at import, which registers ``snapshot_restore_py`` hooks (the module the
Lambda Python runtime provides):

- before the snapshot: run the given warm-up callables — the imports a request would make later,
  pydantic's validators, the boto3 clients (endpoints, service models, credentials resolver), the
  maps — so the snapshot holds them built;
- after each restore: renew what must be unique per environment — the random generators
  (``random``'s state would be the same in every environment restored from one snapshot;
  ``secrets``/``os.urandom`` read the kernel and need nothing) and the AWS clients, whose pooled
  connections and cached credentials belong to the environment that made them.

Outside Lambda (tests, the local stack) there is no ``snapshot_restore_py`` and nothing runs: the
hooks are kept in ``HOOKS`` so a test can run them in order as the runtime would.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from typing import Any

import engine

Hook = Callable[[], Any]
HOOKS: dict[str, list[Hook]] = {"before_snapshot": [], "after_restore": []}


def _runtime() -> Any:
    try:
        import snapshot_restore_py  # type: ignore[import-not-found]  # the Lambda runtime's own
    except ImportError:
        return None
    return snapshot_restore_py


def prime(*warm_ups: Hook, renew: tuple[Hook, ...] = ()) -> None:
    """Register ``warm_ups`` to run before the snapshot and ``renew`` (after ``reseed``) after
    each restore. A warm-up that fails is logged, never raised: a snapshot without one is slower,
    not broken."""

    def before() -> None:
        for warm_up in warm_ups:
            try:
                warm_up()
            except Exception as exc:
                _warn(warm_up, exc)

    def after() -> None:
        reseed()
        for hook in renew:
            hook()

    HOOKS["before_snapshot"].append(before)
    HOOKS["after_restore"].append(after)
    runtime = _runtime()
    if runtime is not None:
        runtime.register_before_snapshot(before)
        runtime.register_after_restore(after)


PRIMING_GAME = "priming-0000000000"  # no game has this id (game ids are 12 hex digits): a warm-up's target


class PrimingContext:
    """The Lambda context attributes the handlers' decorators read, for a priming invocation."""

    function_name = "priming"
    function_version = "$LATEST"
    invoked_function_arn = "arn:aws:lambda:us-east-1:000000000000:function:priming"
    memory_limit_in_mb = 512
    log_group_name = "priming"
    log_stream_name = "priming"

    def __init__(self) -> None:
        self.aws_request_id = f"priming-{uuid.uuid4()}"

    def get_remaining_time_in_millis(self) -> int:
        return 15_000


def warm_engine() -> None:
    """The rules a view, a submission and a turn use, on the classical opening as the store hands
    it back (serialized and read again): the engine's modules, the map and its memos, every
    power's legal orders formatted, an order parsed, one adjudication."""
    the_map = engine.load_map("classical")
    state = engine.state_from_dict(engine.state_to_dict(engine.initial_state(the_map)))
    engine.legal_menus(state, the_map, the_map.power_ids)
    engine.powers_with_orders_to_give(state, the_map)
    for power in sorted(the_map.power_ids):
        [engine.format_order(order) for order in engine.legal_orders(state, the_map, power)]
    order = engine.parse_order("A PAR - BUR", power="FRANCE", state=state, map=the_map)
    game, resolution = engine.Game(map=the_map, state=state).adjudicate({"FRANCE": [order]})
    engine.resolution_to_dict(resolution)
    if game.state is not None:
        engine.state_to_dict(game.state)


def reseed() -> None:
    """A fresh seed for ``random`` in this environment (from the OS, as at interpreter start)."""
    random.seed()


def _warn(warm_up: Hook, exc: Exception) -> None:
    from functions.observability import get_logger

    get_logger().warning("priming step failed", extra={"step": getattr(warm_up, "__name__", repr(warm_up)),
                                                       "error": type(exc).__name__})
