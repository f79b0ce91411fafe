"""The sandbox (issue 19): adjudicating hypothetical positions, and what-if previews.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.sandbox.whatif import what_if

__all__ = [
    "what_if",
]
