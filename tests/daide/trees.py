"""Typed reads of a DAIDE message tree for the tests.

A ``Node`` is a name, an int, a ``Text`` or a group (daide_bridge/messages.py); a test knows
which one it expects at a given place, and these say so, failing loudly when the bridge sent
another shape, so that mypy can follow the test's indexing without ignores.
"""

from __future__ import annotations

from daide_bridge.messages import Node


def group(node: Node) -> tuple[Node, ...]:
    """The bracketed group at this place."""
    assert isinstance(node, tuple), f"a bracketed group, not {node!r}"
    return node


def number(node: Node) -> int:
    """The integer at this place."""
    assert isinstance(node, int), f"an integer, not {node!r}"
    return node
