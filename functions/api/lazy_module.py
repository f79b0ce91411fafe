"""A module that is imported the first time one of its attributes is read.

Why (issue 9 item 6, docs/performance.md): the API's request and response models are
pydantic models, and importing pydantic is most of a cold import. A player's view validates
no body and no query, so ``functions/api/handler.py`` names its models through
``LazyModule("functions.schemas.api")``: a route that uses a model imports them on that
request, and a cold Lambda serving views never imports pydantic at all.

Not ``importlib.util.LazyLoader``: on Python 3.11 it is not safe when two threads touch the
module first at once (the local stack serves requests on several threads);
``importlib.import_module`` holds the import lock, so this proxy is.
"""

from __future__ import annotations

import importlib
from typing import Any


class LazyModule:
    """Stands for the module ``name``; every attribute read is forwarded to it, imported then."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attribute: str) -> Any:
        return getattr(importlib.import_module(self._name), attribute)

    def __repr__(self) -> str:
        return f"LazyModule({self._name!r})"
