"""A bounded memo for frozen values that equal inputs always make alike.

(Until issue 30 this module also held ``quick_init``, an ``exec``-generated ``__init__``
for the value classes; it saved under 10 % of a movement phase and of the menus, so the
classes use the dataclass's own ``__init__`` again: docs/performance.md, "Speed devices".)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def shared(memo: dict[K, V], key: K, limit: int, make: Callable[..., V], *args: Any) -> V:
    """The value ``memo`` holds for ``key``, made by ``make(*args)`` the first time.

    For frozen values that equal inputs always make alike (locations, units, parsed
    orders, convoy answers): each is made once and then shared. The memo is emptied when
    it reaches ``limit`` entries, so arbitrary input cannot grow it without bound."""
    known = memo.get(key)
    if known is None:
        known = make(*args)
        if len(memo) >= limit:
            memo.clear()
        memo[key] = known
    return known
