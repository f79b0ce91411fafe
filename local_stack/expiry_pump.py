"""The local stand-in for DynamoDB's Time to Live (moto keeps the setting and never deletes).

On AWS the tables' TTL (template.yaml ``TimeToLiveSpecification``) deletes an item some time
after its epoch-seconds attribute has passed, typically within a day or two, and the
deletion is a stream record like any other: the relay forgets a game whose META expired
(functions/usecases/game/expiry.py, issue 28 item 13). Here, every ``EXPIRY_SECONDS`` (default an
hour; ``CONVOY_EXPIRY_SECONDS``, 0 switches it off) this pump asks each table whose TTL is
enabled for its expired items and deletes them through the API, so the data directory's
journal and the table's stream see the deletions as they see every other write.

What it costs: one Scan of each TTL table per run, keys and the TTL attribute only, page by
page: O(table) once an hour, where everything that runs often here is O(work due). Nothing
waits on it: an item past its time is still served until it is gone, on AWS as here.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("convoy.local.expiry")
EXPIRY_SECONDS = 3600.0


class ExpiryPump:
    """Deletes the expired items of every table whose TTL is enabled, once per interval."""

    def __init__(self, dynamodb: Callable[[], Any], every: float = EXPIRY_SECONDS,
                 now: Callable[[], float] = time.time,
                 wall_clock: Callable[[], float] = time.monotonic) -> None:
        self._dynamodb = dynamodb
        self._every = every
        self._now = now
        self._wall_clock = wall_clock
        self._last = wall_clock()
        self.deleted = 0

    def __call__(self) -> int:
        """A pump run: nothing until the interval is up; then every expired item. How many."""
        if not self._every or self._wall_clock() - self._last < self._every:
            return 0
        self._last = self._wall_clock()
        return self.run_now()

    def run_now(self) -> int:
        client = self._dynamodb()
        deleted = 0
        for table in client.list_tables()["TableNames"]:
            spec = client.describe_time_to_live(TableName=table)["TimeToLiveDescription"]
            if spec.get("TimeToLiveStatus") == "ENABLED":
                deleted += self._expire(client, table, spec["AttributeName"])
        self.deleted += deleted
        return deleted

    def _expire(self, client: Any, table: str, attribute: str) -> int:
        key_names = [k["AttributeName"] for k in client.describe_table(TableName=table)["Table"]["KeySchema"]]
        names = {f"#k{i}": name for i, name in enumerate([*key_names, attribute])}
        kwargs: dict[str, Any] = {
            "TableName": table,
            "ProjectionExpression": ", ".join(names),
            "FilterExpression": f"#k{len(key_names)} < :now",
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": {":now": {"N": str(int(self._now()))}},
        }
        deleted = 0
        while True:
            page = client.scan(**kwargs)
            for item in page.get("Items", []):
                client.delete_item(TableName=table, Key={name: item[name] for name in key_names})
                deleted += 1
            if "LastEvaluatedKey" not in page:
                break
            kwargs["ExclusiveStartKey"] = page["LastEvaluatedKey"]
        if deleted:
            log.info("expired %d item(s) of %s", deleted, table)
        return deleted


def install() -> ExpiryPump:
    """Registered by the local stack at start (``local_stack.pumps.PUMP_MODULES``)."""
    from infra import aws_clients
    from local_stack import pumps

    every = float(os.environ.get("CONVOY_EXPIRY_SECONDS", str(EXPIRY_SECONDS)))
    pump = ExpiryPump(aws_clients.dynamodb, every)
    for old in [p for p in pumps.PUMPS if isinstance(p, ExpiryPump)]:
        pumps.unregister(old)
    pumps.register(pump)
    return pump
