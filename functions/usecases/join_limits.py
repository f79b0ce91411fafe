"""How many wrong passwords a caller may try on a private game (issue 11: tries were unlimited).

At most ``FAILURES_PER_WINDOW`` failed joins per (game, caller) in a ``WINDOW_SECONDS``
window; then 429 ``TOO_MANY_JOIN_ATTEMPTS`` with ``Retry-After`` until the window ends, and
the password is not even checked (its KDF is the expensive part). The caller is the hash
of its bearer token, else of its source address (the API decides: functions/api/handler.py);
the counter is a conditional write (infra/attempt_counter.py), so concurrent guesses cannot
exceed the limit. A right password is never counted.
"""

from __future__ import annotations

import hashlib

from functions.errors import TooManyJoinAttempts
from functions.ports import AttemptCounter

FAILURES_PER_WINDOW = 10
WINDOW_SECONDS = 15 * 60


def _scope(game_id: str, caller: str) -> str:
    return f"join:{game_id}:{hashlib.sha256(caller.encode()).hexdigest()[:32]}"


def _refuse(now: float) -> TooManyJoinAttempts:
    wait = WINDOW_SECONDS - int(now) % WINDOW_SECONDS
    minutes = WINDOW_SECONDS // 60
    return TooManyJoinAttempts(
        f"at most {FAILURES_PER_WINDOW} wrong passwords per {minutes} minutes; retry in {wait} s",
        retry_after=wait,
    )


def check_join_allowed(counter: AttemptCounter, game_id: str, caller: str, now: float) -> None:
    """Refuse before the password is checked once the caller used up its tries."""
    if counter.count(_scope(game_id, caller), now=now, window=WINDOW_SECONDS) >= FAILURES_PER_WINDOW:
        raise _refuse(now)


def record_failed_join(counter: AttemptCounter, game_id: str, caller: str, now: float) -> None:
    """Count a wrong password; refuse if a concurrent guess took the last try first."""
    if not counter.add(_scope(game_id, caller), now=now, window=WINDOW_SECONDS, limit=FAILURES_PER_WINDOW):
        raise _refuse(now)
