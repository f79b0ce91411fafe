"""glibc's allocator, set for a process that runs for days: the local stack's server (issue 28
item 14, "the stack's memory follows its data").

What was measured (docs/performance.md, "the stack's memory against a restart"): after a soak
the server process holds ~1.3x the RSS a restart on the same data directory comes back with,
while its live Python objects (tracemalloc) are the data and little else. The difference is
memory the allocator keeps, not objects the program keeps. Three glibc behaviours make it:

- one malloc arena per thread that ever allocated, up to 8 per core, each keeping its own free
  memory (the emulator's server threads, the pumps, the API's HTTP threads, the live socket);
- the *dynamic* mmap threshold: freeing one large block (a 1 MB stream read, a big query
  answer) raises the threshold to that size, so later large blocks come from the heap, where
  a single live object near the top keeps everything below it;
- free memory inside a heap is only returned at its top (``M_TRIM_THRESHOLD``), never from
  the middle, unless ``malloc_trim`` is called.

``bound()`` fixes the first two with ``mallopt`` (a fixed threshold turns the dynamic one off)
and ``trim()`` returns free pages from every arena (``malloc_trim(0)`` madvises them away); the
server calls it once a minute while it waits. On another C library (macOS, musl) both do
nothing: the stack works the same, only its memory is not bounded this way.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from typing import Any

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8
ARENAS = 2  # the main arena and one for all other threads (the lock serialises moto anyway)
MMAP_THRESHOLD = 256 * 1024  # blocks this large are mmapped and given back when freed
TRIM_THRESHOLD = 1024 * 1024
TRIM_SECONDS = 60.0


@functools.lru_cache(maxsize=1)
def _glibc() -> Any | None:
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name or "libc.so.6")
        _ = (libc.mallopt, libc.malloc_trim)  # glibc has these two; other C libraries may not
    except (OSError, AttributeError):
        return None
    return libc


def bound() -> bool:
    """Set the allocator for a long run; True if this is glibc and it took every setting."""
    libc = _glibc()
    if libc is None:
        return False
    settings = ((M_ARENA_MAX, ARENAS), (M_MMAP_THRESHOLD, MMAP_THRESHOLD), (M_TRIM_THRESHOLD, TRIM_THRESHOLD))
    return all(libc.mallopt(option, value) == 1 for option, value in settings)


def trim() -> bool:
    """Give free memory back to the system from every arena; True if any was given back."""
    libc = _glibc()
    return bool(libc.malloc_trim(0)) if libc is not None else False
