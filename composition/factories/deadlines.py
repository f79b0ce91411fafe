"""The deadline functions' ports (the firing and the backstop sweeper): the games as deadlines
see them and the EventBridge scheduler."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from composition import wiring

if TYPE_CHECKING:
    from functions.ports import DeadlineScheduler
    from functions.ports.deadlines import DeadlineGames


class DeadlineDependencies(NamedTuple):
    """The deadline function's ports (``deadline_dependencies()``)."""

    games: DeadlineGames
    scheduler: DeadlineScheduler
    sweep_grace_seconds: int = 60


@wiring.once
def deadline_dependencies() -> DeadlineDependencies:
    from functions.adapters import StoreDeadlineGames

    api = wiring.services()
    s = wiring.settings()
    scheduler = wiring.deadline_scheduler()
    return DeadlineDependencies(
        games=StoreDeadlineGames(api.store, api.clock, s.sweep_scan_limit, scheduler=scheduler),
        scheduler=scheduler,
        sweep_grace_seconds=s.sweep_grace_seconds,
    )
