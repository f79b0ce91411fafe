"""One cheap constructor for the engine's frozen dataclasses.

A frozen dataclass's generated ``__init__`` stores each field through
``object.__setattr__`` (a call per field, to get past the frozen ``__setattr__``);
the engine makes thousands of small values per phase (orders, units, results), and
that was a measurable share of a phase. ``quick_init`` replaces the generated
``__init__`` with one of the same signature and defaults and then runs
``__post_init__`` as before. It is the class's only constructor: there is no second
way to make a value that skips its checks.

The small values are declared ``slots=True``: their fields are slots, stored by the
slot descriptors' own setters (one C call each) and read by the interpreter's fastest
attribute path. (Writing an instance's ``__dict__`` directly, as this module did
first, made the construction cheap but every later attribute read about three times
slower, since the interpreter no longer keeps the values inline.) A class without
slots (``GameState``, which caches derived tables in its ``__dict__``) gets its fields
written into the instance dictionary.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def quick_init(cls: type[T]) -> type[T]:
    """Decorate a frozen dataclass (put it above ``@dataclass``)."""
    slotted = "__slots__" in cls.__dict__
    params: list[str] = []
    body = [] if slotted else ["    d = self.__dict__"]
    namespace: dict[str, Any] = {"MISSING": dataclasses.MISSING}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not f.init:
            continue
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=MISSING")
            body.append(f"    if {f.name} is MISSING: {f.name} = _factory_{f.name}()")
        else:
            params.append(f.name)
        if slotted:
            namespace[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
            body.append(f"    _set_{f.name}(self, {f.name})")
        else:
            body.append(f"    d[{f.name!r}] = {f.name}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__(self, {', '.join(params)}) -> None:\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
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
