"""Sends run side by side, so that a slow or dead receiver holds up only its own deliveries.

Issue 28 item 7: one notifier invocation sent one notice after another, so three slow webhook
receivers delayed another game's notice by 91 s. Here a batch's sends are *jobs* run by at
most ``PARALLEL`` worker threads, with three rules:

- **per host**: at most ``PER_HOST`` jobs at once to one host, a host being a registrable
  domain (functions/usecases/notifications/host_names.py; ``x1.victim.com`` and ``x2.victim.com`` are one),
  so no host, however slow, holds more than ``PER_HOST`` workers. The HTTP sender also holds
  each resolved address to a few connections at once (infra/webhooks.py), so many domains
  pointing at one address do not dodge it either;
- **per game, fairly**: jobs are started round-robin over games (the first job of every
  game, then the second of every game, ...), so a game with many targets or notices cannot
  make another wait behind all of them;
- **slow hosts step aside**: a job that took ``SLOW_SECONDS`` or more marks its host slow for
  the rest of the batch, and the host's jobs not yet started are *deferred* (their message
  goes back to the queue, ``SLOW_DELAY_SECONDS`` later) instead of being tried now.

Jobs that cannot start before the batch's time runs out (``can_start``) are deferred too.
Outcomes per job: ``sent``, ``failed`` (with the error), ``deferred``, ``slow``. The clock is
injected (a fake one in tests); with ``parallel=1`` the order is deterministic.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass

PARALLEL = 8
PER_HOST = 2
SLOW_SECONDS = 2.0
SLOW_DELAY_SECONDS = 60


@dataclass(frozen=True)
class Job:
    game: str  # whose job it is (fairness)
    host: str  # whom it calls (the per-host limit)
    send: Callable[[], None]  # raises on failure


@dataclass(frozen=True)
class Outcome:
    status: str  # "sent" | "failed" | "deferred" | "slow"
    error: BaseException | None = None


def fair_order(jobs: Sequence[Job]) -> list[int]:
    """Job indexes round-robin over games, each game's jobs in their given order."""
    by_game: dict[str, list[int]] = {}
    for index, job in enumerate(jobs):
        by_game.setdefault(job.game, []).append(index)
    queues = list(by_game.values())
    order: list[int] = []
    while any(queues):
        for queue in queues:
            if queue:
                order.append(queue.pop(0))
    return order


class Lanes:
    """Runs a batch's jobs by the rules above; ``run`` returns one ``Outcome`` per job."""

    def __init__(self, parallel: int = PARALLEL, per_host: int = PER_HOST,
                 slow_seconds: float = SLOW_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        self.parallel, self.per_host, self.slow_seconds, self.clock = parallel, per_host, slow_seconds, clock

    def run(self, jobs: Sequence[Job], can_start: Callable[[], bool] = lambda: True) -> list[Outcome]:
        outcomes: list[Outcome | None] = [None] * len(jobs)
        pending = fair_order(jobs)
        busy: dict[str, int] = {}
        slow: set[str] = set()
        running: dict[Future[None], tuple[int, float]] = {}
        with ThreadPoolExecutor(max_workers=max(1, self.parallel), thread_name_prefix="convoy-send") as pool:
            while pending or running:
                for index in list(pending):
                    job = jobs[index]
                    if job.host in slow:
                        outcomes[index] = Outcome("slow")
                    elif not can_start():
                        outcomes[index] = Outcome("deferred")
                    elif len(running) < self.parallel and busy.get(job.host, 0) < self.per_host:
                        busy[job.host] = busy.get(job.host, 0) + 1
                        running[pool.submit(job.send)] = (index, self.clock())
                    else:
                        continue
                    pending.remove(index)
                if running:
                    done, _ = wait(list(running), return_when=FIRST_COMPLETED)
                    for future in done:
                        index, started = running.pop(future)
                        host = jobs[index].host
                        busy[host] -= 1
                        if self.clock() - started >= self.slow_seconds:
                            slow.add(host)
                        error = future.exception()
                        outcomes[index] = Outcome("failed", error) if error else Outcome("sent")
        return [o if o is not None else Outcome("deferred") for o in outcomes]
