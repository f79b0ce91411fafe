"""The API's adapters, as the routes see them, and the one slot the composition root fills.

The routes need a game store, a clock, press, accounts, ... but must not know which adapters
implement them: the composition root (composition/wiring.py) builds a ``Services`` and
``install``s the function that answers it, once, from the Lambda entry point
(composition/api.py). Tests install fakes the same way (``composition.wiring.override``).
The adapters that are slow to import (the JWT library, Cognito) stay unbuilt until a route
asks: a field left ``None`` is answered by the root's ``LazyAdapters`` on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from functions.ports import (
    AttemptCounter,
    Clock,
    DeadlineScheduler,
    GameStore,
    IdempotencyStore,
    PressStore,
    RateCounter,
)
from functions.settings import Settings

if TYPE_CHECKING:  # annotations only: a cold API serving a player's view imports none of these
    from functions.ports.accounts import AccountStore, IdentityProvider, TokenVerifier
    from functions.ports.community import CommunityStore
    from functions.ports.reach import PushSender, ReachStore
    from functions.ports.telegram import TelegramStore


class LazyAdapters(Protocol):
    """The adapters the composition root builds on first use (composition/wiring.py, factories/)."""

    def press_store(self) -> PressStore: ...
    def account_store(self) -> AccountStore: ...
    def identity_provider(self) -> IdentityProvider: ...
    def token_verifier(self) -> TokenVerifier: ...
    def reach_store(self) -> ReachStore: ...
    def telegram_store(self) -> TelegramStore: ...
    def push_sender(self) -> PushSender | None: ...
    def community_store(self) -> CommunityStore: ...


@dataclass
class Services:
    """The API's adapters, built once per process by the composition root (tests pass fakes)."""

    settings: Settings
    store: GameStore
    clock: Clock
    idempotency: IdempotencyStore | None  # None: Idempotency-Key is ignored (tests)
    # EventBridge deadline schedules; None when DEADLINE_FUNCTION_ARN is unset: deadlines are
    # then kept in META only (and the sweeper's job)
    scheduler: DeadlineScheduler | None = None
    # press (issue 13): messages, channels and ledgers in the game table; None: the root's
    press: PressStore | None = None
    # failed joins of private games per game and caller (issue 11); None: not limited (tests)
    attempts: AttemptCounter | None = None
    # the sandbox's per-caller counters (issue 19); None: the sandbox is not rate-limited (tests)
    rate_counter: RateCounter | None = None
    # accounts (issue 15): None means the root's adapters (tests pass fakes)
    accounts: AccountStore | None = None
    identity: IdentityProvider | None = None
    verifier: TokenVerifier | None = None
    # issue 33: notice preferences and push devices; None: the root's
    reach: ReachStore | None = None
    # issue 34: ratings, profiles, the archive, tournaments; None: the root's
    community: CommunityStore | None = None
    lazy: LazyAdapters | None = None  # set by the composition root

    def _built(self) -> LazyAdapters:
        if self.lazy is None:
            raise LookupError("these services have no composition root behind them (composition.wiring)")
        return self.lazy

    @property
    def community_store(self) -> CommunityStore:
        return self.community if self.community is not None else self._built().community_store()

    @property
    def reach_store(self) -> ReachStore:
        return self.reach if self.reach is not None else self._built().reach_store()

    @property
    def press_store(self) -> PressStore:
        return self.press if self.press is not None else self._built().press_store()

    @property
    def account_store(self) -> AccountStore:
        return self.accounts if self.accounts is not None else self._built().account_store()

    @property
    def identity_provider(self) -> IdentityProvider:
        return self.identity if self.identity is not None else self._built().identity_provider()

    @property
    def token_verifier(self) -> TokenVerifier:
        return self.verifier if self.verifier is not None else self._built().token_verifier()

    @property
    def telegram_store(self) -> TelegramStore:
        """Link codes and chat links (the API issues codes; the bot redeems them)."""
        return self._built().telegram_store()

    @property
    def push_sender(self) -> PushSender | None:
        """VAPID web push, when the deployment has a key."""
        return self._built().push_sender()


_provider: Callable[[], Services] | None = None


def install(provider: Callable[[], Services]) -> None:
    """Answer ``current()`` with ``provider()`` from now on (the composition root, once)."""
    global _provider
    _provider = provider


def current() -> Services:
    """The services of this process (built by the provider on its first call)."""
    if _provider is None:
        raise LookupError("the API's services are not installed: its entry point is composition.api")
    return _provider()
