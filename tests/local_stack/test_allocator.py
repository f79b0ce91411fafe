"""The local stack's server bounds glibc's allocator (issue 28 item 14: after a soak its RSS is
within 1.25x of a restart on the same data; bench/soak.py prints both)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from local_stack import allocator

ROOT = Path(__file__).resolve().parents[2]
# Transient large blocks (a stream read, a big query answer) between small objects that stay (the
# items): with glibc's dynamic mmap threshold the large blocks move into the heap after the first
# is freed, and the small survivors pin it.
PROBE = """
import os, sys
sys.path.insert(0, {root!r})
from local_stack import allocator
if {bound}:
    assert allocator.bound()
def rss():
    return int(open("/proc/self/statm").read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
start, keep = rss(), []
for _ in range(400):
    big = [bytearray(300_000) for _ in range(5)]
    keep.append(bytearray(2000))
    del big
print(rss() - start)
"""


def _retained(bound: bool) -> int:
    done = subprocess.run([sys.executable, "-c", PROBE.format(root=str(ROOT), bound=bound)],
                          capture_output=True, text=True, check=True)
    return int(done.stdout.strip())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_the_bounded_allocator_gives_transient_large_blocks_back() -> None:
    assert allocator._glibc() is not None
    assert _retained(bound=True) < _retained(bound=False)

