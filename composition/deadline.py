"""The deadline Lambdas' entry points (template.yaml ``DeadlineFunction``, ``DeadlineSweepFunction``)."""

from __future__ import annotations

from composition import wiring
from composition.factories.deadlines import deadline_dependencies
from functions import snapstart
from functions.deadline.handler import make_handlers

handler, sweep_handler = make_handlers(deadline_dependencies)


def _prime_firing() -> None:
    """A firing for a game that does not exist (STALE: one read, nothing written)."""
    handler({"game_id": snapstart.PRIMING_GAME, "phase": "S1901M"}, snapstart.PrimingContext())


snapstart.prime(wiring.prime_clients, deadline_dependencies, snapstart.warm_engine, _prime_firing,
                renew=(wiring.renew_clients,))
