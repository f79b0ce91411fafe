"""Issue 34: the notifier enters a finished game into the players' records on GAME_ENDED
(functions/notifier/handler.py, ``deps.records``): only that kind, once per message, and a
failure fails the record so SQS delivers it again (recording is idempotent per game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from functions.notifier.handler import make_handler
from functions.ports.notifications import OutboxMessage
from tests.notifications.fakes import MemoryDeliveryLog, MemoryQueue, RecordingDeliverer, StaticTargets


@dataclass
class RecordingDeps:
    targets: StaticTargets
    deliverer: RecordingDeliverer
    log: MemoryDeliveryLog
    queue: MemoryQueue
    records: Any


class Context:
    def get_remaining_time_in_millis(self) -> int:
        return 15_000


def _event(*messages: OutboxMessage) -> dict[str, Any]:
    return {"Records": [{"messageId": f"id-{m.dedupe_key}", "body": m.to_json()} for m in messages]}


def _handler(records: Any) -> Any:
    deps = RecordingDeps(StaticTargets({}), RecordingDeliverer(), MemoryDeliveryLog(), MemoryQueue(), records)
    return make_handler(lambda: deps)


def test_game_ended_is_recorded_and_other_kinds_are_not() -> None:
    recorded: list[str] = []

    def record(game_id: str) -> bool:
        recorded.append(game_id)
        return True

    handler = _handler(record)
    ended = OutboxMessage(dedupe_key="g1:ended", kind="GAME_ENDED", game_id="g1", payload={})
    turn = OutboxMessage(dedupe_key="g2:1", kind="PHASE_PROCESSED", game_id="g2", payload={"phase": "S1901M"})
    answer = handler(_event(ended, turn), Context())
    assert answer == {"batchItemFailures": []} and recorded == ["g1"]


def test_a_failed_recording_fails_that_message_only() -> None:
    def broken(game_id: str) -> bool:
        raise RuntimeError("the table did not answer")

    handler = _handler(broken)
    ended = OutboxMessage(dedupe_key="g1:ended", kind="GAME_ENDED", game_id="g1", payload={})
    turn = OutboxMessage(dedupe_key="g2:1", kind="PHASE_PROCESSED", game_id="g2", payload={"phase": "S1901M"})
    answer = handler(_event(ended, turn), Context())
    assert answer == {"batchItemFailures": [{"itemIdentifier": "id-g1:ended"}]}
