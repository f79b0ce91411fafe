"""The notifier's ports: webhook and Telegram delivery (with the /map picture drawn on delivery),
the delivery log, target health, reaching players and the records of finished games."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from composition import wiring
from composition.factories import community, reach

if TYPE_CHECKING:
    from functions.ports.notifier import Deliverer, DeliveryLog, MessageQueue, TargetDirectory, TargetHealth
    from functions.usecases.reach import Reach

# The functions' bundles are NamedTuples, not dataclasses: only attribute reads use them, and a
# NamedTuple costs ~0.3 M instructions to define where a frozen dataclass costs ~4 M, at every
# cold import of every handler (issue 9 item 6).


class NotifierDependencies(NamedTuple):
    """The notifier's ports (``notifier_dependencies()``)."""

    targets: TargetDirectory
    deliverer: Deliverer
    log: DeliveryLog
    public_url: str = ""
    health: TargetHealth | None = None  # parking of targets that keep failing (issue 11)
    queue: MessageQueue | None = None  # deferred messages and parking notices go back here
    reach: Reach | None = None  # issue 33: live frames, mail and push to the players themselves
    records: Callable[[str], bool] | None = None  # issue 34: a finished game into the players' records


def _seat_board_png(picture: Mapping[str, Any]) -> bytes:
    """The PNG a bot's /map answer names, drawn when it is delivered (functions/usecases/maps/map_view.py)."""
    from functions.usecases.maps import seat_board_png

    return seat_board_png(wiring.services().store, picture)


@wiring.once
def notifier_dependencies() -> NotifierDependencies:
    from functions.adapters import HttpDeliverer, StoreTargetDirectory
    from functions.ports.notifier import TargetStanding
    from infra import aws_clients
    from infra.notification_store import DynamoDeliveryLog
    from infra.target_health import DynamoTargetHealth
    from infra.webhooks import HttpDelivery, HttpSettings

    s = wiring.settings()
    http = HttpDelivery(
        HttpSettings(
            allow_loopback=s.allow_loopback_webhooks,
            telegram_bot_token=s.telegram_bot_token,
            telegram_api_base=s.telegram_api_base,
        )
    )
    return NotifierDependencies(
        targets=StoreTargetDirectory(wiring.services().store),
        deliverer=HttpDeliverer(http, pictures=_seat_board_png),
        log=DynamoDeliveryLog(aws_clients.dynamodb, s.game_table),
        public_url=s.public_url,
        health=DynamoTargetHealth(aws_clients.dynamodb, s.game_table, TargetStanding),
        queue=wiring.outbox_queue() if s.queue_url else None,
        reach=reach.reach(),
        records=community.record_finished,
    )
