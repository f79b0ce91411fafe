"""How many wrong passwords may be tried on a private game (issue 11: tries were unlimited).

At most ``FAILURES_PER_WINDOW`` failed joins per game and *counted party* in a
``WINDOW_SECONDS`` window; then 429 ``TOO_MANY_JOIN_ATTEMPTS`` with ``Retry-After`` until the
window ends, and the password is not even checked (its KDF is the expensive part). Each
counter is a conditional write (infra/attempt_counter.py), so concurrent guesses cannot
exceed the limit. A right password is never counted.

Who is counted (issue 28 item 3: any bearer string used to be a caller of its own, so 40
guesses each sent with ``Authorization: Bearer junk-<uuid>`` were never limited): only
parties a caller cannot mint at will.

- the request's **source address**, always (``source:<ip>``, per game);
- the **account**, when the bearer is an ID token that verifies (``user:<sub>``): its tries
  follow it from one address to the next.

A seat token, an unknown token or any other string names nobody here and adds no counter:
such a caller is its source address. A try is refused once *any* of its counters is used
up, and a failed try counts against every one of them. (Behind a shared address, a NAT or
a CloudFront edge, callers share that address's tries on that game; an account's own tries
are not shared.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from functions.errors import TooManyJoinAttempts
from functions.ports import AttemptCounter

FAILURES_PER_WINDOW = 10
WINDOW_SECONDS = 15 * 60


def counted_parties(source_ip: str | None, user_id: str | None) -> list[str]:
    """The counters a join is held to: its source address, and its account if it has one."""
    parties = [f"source:{source_ip or 'unknown'}"]
    if user_id:
        parties.append(f"user:{user_id}")
    return parties


def _scope(game_id: str, party: str) -> str:
    return f"join:{game_id}:{hashlib.sha256(party.encode()).hexdigest()[:32]}"


def _refuse(now: float) -> TooManyJoinAttempts:
    wait = WINDOW_SECONDS - int(now) % WINDOW_SECONDS
    minutes = WINDOW_SECONDS // 60
    return TooManyJoinAttempts(
        f"at most {FAILURES_PER_WINDOW} wrong passwords per {minutes} minutes; retry in {wait} s",
        retry_after=wait,
    )


def check_join_allowed(counter: AttemptCounter, game_id: str, parties: Sequence[str], now: float) -> None:
    """Refuse before the password is checked once any counted party used up its tries."""
    for party in parties:
        if counter.count(_scope(game_id, party), now=now, window=WINDOW_SECONDS) >= FAILURES_PER_WINDOW:
            raise _refuse(now)


def record_failed_join(counter: AttemptCounter, game_id: str, parties: Sequence[str], now: float) -> None:
    """Count a wrong password against every party; refuse if a concurrent guess took a last try."""
    taken = [counter.add(_scope(game_id, party), now=now, window=WINDOW_SECONDS, limit=FAILURES_PER_WINDOW)
             for party in parties]
    if not all(taken):
        raise _refuse(now)
