"""The one way the local stack puts its own functions in place of a library's (moto's).

The local stack changes what moto does by replacing methods of moto's classes at run time
(moto_patches.py, schedule_clock.py, pool_codes.py, mail.py, live_socket.py) and moto's
clock (durable.py). A type checker rightly refuses ``Class.method = function`` and new
attributes on a function; written here through ``setattr``, every patch reads as a patch and
is checked like any other call, with nothing silenced at each site.

Each replacement is marked as ours, so an installer that runs again in the same process (tests
start many emulators) can ask ``replaced`` and not wrap its own wrapper a second time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MARK = "_convoy"  # the attribute that marks a function as the local stack's replacement


def replace(owner: object, name: str, new: Callable[..., Any]) -> None:
    """Put ``new`` (marked as ours) in place of ``owner.name``, or add it if there was none."""
    setattr(new, MARK, True)
    setattr(owner, name, new)


def replaced(owner: object, name: str) -> bool:
    """Whether ``owner.name`` is already a replacement of ours."""
    return bool(getattr(getattr(owner, name, None), MARK, False))
