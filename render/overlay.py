"""What is drawn over the board: nothing, a set of orders, or a turn's orders with their results.

An overlay is a value the caller builds; the renderer never decides whose orders may be seen
(redaction is the use case's job: ``/map/orders`` passes only the caller's own orders).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import Order, OrderResult


@dataclass(frozen=True)
class Overlay:
    """``orders`` drawn in their power's colour; ``results`` drawn in the colour of their
    ``ResultCode`` with a legend and standoff markers. ``caption`` names what is shown."""

    orders: tuple[Order, ...] = ()
    results: tuple[OrderResult, ...] = ()
    caption: str = ""


NO_OVERLAY = Overlay()


def orders_overlay(orders: tuple[Order, ...], caption: str = "") -> Overlay:
    return Overlay(orders=tuple(orders), caption=caption)


def results_overlay(results: tuple[OrderResult, ...], caption: str = "") -> Overlay:
    return Overlay(results=tuple(results), caption=caption)
