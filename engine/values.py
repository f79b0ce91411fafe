"""Two speed devices the engine keeps because they pay (docs/performance.md, "Speed
devices": each kept only where ``bench/engine_bench.py`` shows it saves at least 10 % of a
movement phase or of the seven menus).

* ``quick_init``: a cheaper ``__init__`` for the five movement order classes, which the
  menus make by the hundred per position (it saves about a tenth of the menus; on every
  other value class it saved nothing measurable, so they use the dataclass's own).
* ``shared``: a bounded memo for frozen values that equal inputs always make alike (the
  parsed orders, the convoy answers, the locations read from text).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def quick_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted dataclass an ``__init__`` of the same signature and defaults
    that stores each field through its slot's own setter (one C call), where the generated
    one calls ``object.__setattr__`` per field to get past the frozen ``__setattr__``. Put
    it above ``@dataclass``; it is the class's only constructor."""
    if "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        raise TypeError(f"quick_init is for slotted dataclasses without __post_init__: {cls.__name__}")
    params: list[str] = []
    body: list[str] = []
    namespace: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        else:
            params.append(f.name)
        namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}) -> None:\n" + "\n".join(body)
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.dataclass_init = cls.__dict__["__init__"]  # for bench/engine_bench.py --devices only
    setattr(cls, "__init__", init)  # noqa: B010 - replacing the generated method
    return cls


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
