"""The local Scheduler's clock: which one-time schedules are due, at O(due) cost per poll.

On AWS, EventBridge Scheduler fires a schedule when its time comes; nobody lists
schedules to find out. The local stack plays that part, once a second. Before issue 9's
last step it listed every schedule of the group and read each one back (``ListSchedules``
plus one ``GetSchedule`` per schedule): every poll cost O(schedules), however few were
due. Issue 9 item 1: whatever polls must be O(work due), not O(data).

Here moto's Scheduler backend keeps, beside its schedules, one heap per schedule group
ordered by due time (``DueIndex``), kept current by moto's own create/update/delete
(``install``, patched into moto 5.2.5 from ``local_stack.moto_patches``). A poll looks at
the top of the heap: nothing due costs O(1), each due schedule O(log n). Deleted or
replaced schedules are dropped lazily when they reach the top (or all at once when they
outnumber the live ones), so the heap stays within a constant factor of the schedules.

What is read where: the due-time index and the target input come from the backend's
memory (under the emulator's lock: moto's server thread changes them); completing a
firing is still a ``DeleteSchedule`` request through the API (``complete``), so the data
directory's journal records it as it records every other change. Only ``at(...)``
schedules are indexed (what Convoy creates); rate and cron schedules never fire here
(the sweeper runs on the pump's own count, ``local_stack.notification_pumps``).
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from infra.scheduler import parse_at_expression
from local_stack.patching import replace

COMPACT_MIN = 64  # stale heap entries tolerated before a rebuild


@dataclass(frozen=True)
class DueDeadline:
    """A schedule whose time has come, as the local stack fires it."""

    name: str
    at: datetime
    game_id: str
    phase: str
    kind: str = "deadline"  # or "reminder"

    def event(self) -> dict[str, str]:
        """The target input Scheduler would send."""
        found = {"game_id": self.game_id, "phase": self.phase}
        return found if self.kind == "deadline" else {**found, "kind": self.kind}


def due_time(schedule: Any) -> float | None:
    """When a moto ``Schedule`` fires (POSIX seconds), or None: not enabled, or not ``at(...)``."""
    if (schedule.state or "ENABLED") != "ENABLED":
        return None
    at = parse_at_expression(schedule.schedule_expression or "")
    if at is None:
        return None
    zone = schedule.schedule_expression_timezone or "UTC"
    if zone != "UTC":  # at(...) is wall-clock time in the schedule's zone
        at = at.replace(tzinfo=ZoneInfo(zone))
    return at.timestamp()


@dataclass
class DueIndex:
    """One group's live one-time schedules in a heap by due time, with lazy deletion."""

    heap: list[tuple[float, int, str]] = field(default_factory=list)  # (due, generation, name)
    live: dict[str, int] = field(default_factory=dict)  # name -> generation of its heap entry
    _counter: Iterator[int] = field(default_factory=itertools.count)

    def __getstate__(self) -> dict[str, Any]:  # snapshots pickle the backend, and this with it
        return {"heap": self.heap, "live": self.live, "next": next(self._counter)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.heap, self.live = state["heap"], state["live"]
        self._counter = itertools.count(state["next"])

    def put(self, name: str, due: float | None) -> None:
        """A schedule was created or changed: it fires at ``due`` (None: never)."""
        self.live.pop(name, None)
        if due is not None:
            generation = next(self._counter)
            self.live[name] = generation
            heapq.heappush(self.heap, (due, generation, name))
        self._compact()

    def discard(self, name: str) -> None:
        """A schedule was deleted; its heap entry is dropped when it comes up."""
        self.live.pop(name, None)
        self._compact()

    def pop_due(self, now: float) -> list[tuple[float, str]]:
        """Take every live entry due at ``now``, oldest first; stale entries on the way are dropped."""
        taken: list[tuple[float, str]] = []
        while self.heap and self.heap[0][0] <= now:
            due, generation, name = heapq.heappop(self.heap)
            if self.live.get(name) == generation:
                del self.live[name]
                taken.append((due, name))
        return taken

    def _compact(self) -> None:
        stale = len(self.heap) - len(self.live)
        if stale > COMPACT_MIN and stale > len(self.live):
            alive = set(self.live.items())
            self.heap = [entry for entry in self.heap if (entry[2], entry[1]) in alive]
            heapq.heapify(self.heap)


INDEX_ATTRIBUTE = "_convoy_due_index"


def index_of(backend: Any, group: str) -> DueIndex:
    """The group's index on moto's Scheduler backend, built from its schedules the first time."""
    indexes: dict[str, DueIndex] | None = getattr(backend, INDEX_ATTRIBUTE, None)
    if indexes is None:
        indexes = {}
        setattr(backend, INDEX_ATTRIBUTE, indexes)
    found = indexes.get(group)
    if found is None:
        found = indexes[group] = DueIndex()
        existing = backend.schedule_groups.get(group)
        for schedule in (existing.schedules.values() if existing else ()):
            found.put(schedule.name, due_time(schedule))
    return found


def install() -> None:
    """Keep the index current from moto's own create/update/delete (moto 5.2.5)."""
    from moto.scheduler.models import EventBridgeSchedulerBackend as Backend

    create, update, delete = Backend.create_schedule, Backend.update_schedule, Backend.delete_schedule
    delete_group = Backend.delete_schedule_group

    def create_schedule(self: Any, *args: Any, **kwargs: Any) -> Any:
        schedule = create(self, *args, **kwargs)
        index_of(self, schedule.group_name).put(schedule.name, due_time(schedule))
        return schedule

    def update_schedule(self: Any, *args: Any, **kwargs: Any) -> Any:
        schedule = update(self, *args, **kwargs)
        index_of(self, schedule.group_name).put(schedule.name, due_time(schedule))
        return schedule

    def delete_schedule(self: Any, group_name: str | None, name: str) -> None:
        delete(self, group_name, name)
        index_of(self, group_name or "default").discard(name)

    def delete_schedule_group(self: Any, name: str | None) -> None:
        delete_group(self, name)
        getattr(self, INDEX_ATTRIBUTE, {}).pop(name or "default", None)

    replace(Backend, "create_schedule", create_schedule)
    replace(Backend, "update_schedule", update_schedule)
    replace(Backend, "delete_schedule", delete_schedule)
    replace(Backend, "delete_schedule_group", delete_schedule_group)


class ScheduleClock:
    """What the deadline pump asks: which schedules of ``group`` are due now (O(due))."""

    def __init__(self, backend: Callable[[], Any], group: str,
                 lock: contextlib.AbstractContextManager[Any] | None = None) -> None:
        """``backend`` returns moto's Scheduler backend (it is replaced when a snapshot loads);
        ``lock`` is the emulator's, held while reading what moto's server thread writes."""
        self._backend = backend
        self._group = group
        self._lock = lock if lock is not None else contextlib.nullcontext()

    def take_due(self, now: datetime) -> list[DueDeadline]:
        """The due schedules, oldest first, taken off the index: fire each, then ``complete``
        it through the API, or hand back the ones not fired with ``retry``."""
        with self._lock:
            backend = self._backend()
            taken = index_of(backend, self._group).pop_due(now.timestamp())
            group = backend.schedule_groups.get(self._group)
            return [self._deadline(group.schedules[name], due) for due, name in taken
                    if group is not None and name in group.schedules]

    def replaced(self, name: str) -> bool:
        """Whether a schedule taken by ``take_due`` was created or updated again since (a firing
        that moved its own phase's deadline, by name): then its firing must not delete it."""
        with self._lock:
            return name in index_of(self._backend(), self._group).live

    def retry(self, unfired: list[DueDeadline]) -> None:
        """Put schedules back that were taken but not fired (the next poll offers them again)."""
        with self._lock:
            backend = self._backend()
            group = backend.schedule_groups.get(self._group)
            index = index_of(backend, self._group)
            for due in unfired:
                if group is not None and due.name in group.schedules:
                    index.put(due.name, due_time(group.schedules[due.name]))

    @staticmethod
    def _deadline(schedule: Any, due: float) -> DueDeadline:
        target_input = json.loads(schedule.target.get("Input") or "{}")
        return DueDeadline(
            name=schedule.name,
            at=datetime.fromtimestamp(due, UTC),
            game_id=str(target_input.get("game_id", "")),
            phase=str(target_input.get("phase", "")),
            kind=str(target_input.get("kind", "deadline")),
        )
