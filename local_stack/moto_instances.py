"""moto 5.2.5 keeps every model object it ever made; the local stack keeps the live ones (issue 28).

``moto.core.common_models.BaseModel.__new__`` appends each new instance to its class's
``instances_tracked`` list, for moto's dashboard (``/moto-api/data.json``) and its reset, and
nothing ever takes one out. In a test that lasts seconds that is harmless; in ``make run`` it
kept everything: every DynamoDB item version a write replaced, every copy a Query or a
transaction made of an item (``copy.deepcopy`` goes through ``__new__``), every stream record
the relay had read and the emulator trimmed, every SQS message delivered and deleted, every
shard iterator. A soak of 60 phases left 8,678 such items alive beside the 1,034 the tables
held (``gc.get_referrers``: the only reference was ``Item.instances_tracked``), and the server's
RSS grew with requests rather than with data (after a soak ~1.28x a restart on the same data).

Here ``instances_tracked`` becomes a ``LiveInstances``: it holds weak references, each removed
when its object dies, so it lists exactly the instances still in use. moto's dashboard shows
those (the objects that make up the emulator's state), and its reset, which assigns a new
empty list, keeps working: the next instance of that class turns it into a ``LiveInstances``
again. An object that cannot be weakly referenced is held as moto holds it.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterable, Iterator
from typing import Any

from local_stack.patching import replace

TRACKED = "instances_tracked"  # the class attribute moto's metaclass gives every model class
_installed: list[bool] = []
_lock = threading.Lock()


class LiveInstances:
    """The list operations moto uses on ``instances_tracked`` (append, iterate, len), over the
    instances that are still alive."""

    def __init__(self, existing: Iterable[Any] = ()) -> None:
        self._weak: dict[int, weakref.ref[Any]] = {}
        self._strong: list[Any] = []  # objects without weak reference support, kept as moto does
        for instance in existing:
            self.append(instance)

    def append(self, instance: Any) -> None:
        key, refs = id(instance), self._weak

        def forget(_: weakref.ref[Any]) -> None:
            refs.pop(key, None)  # runs as the object dies: before its id can be reused

        try:
            refs[key] = weakref.ref(instance, forget)
        except TypeError:
            self._strong.append(instance)

    def __iter__(self) -> Iterator[Any]:
        alive = [ref() for ref in list(self._weak.values())]
        return iter([instance for instance in alive if instance is not None] + self._strong)

    def __len__(self) -> int:
        return len(self._weak) + len(self._strong)


def install() -> None:
    """Replace ``BaseModel.__new__`` by one that tracks weakly (idempotent)."""
    from moto.core.common_models import BaseModel

    with _lock:
        if _installed:
            return
        _installed.append(True)

    def __new__(cls: Any, *args: Any, **kwargs: Any) -> Any:
        instance = super(BaseModel, cls).__new__(cls)  # what BaseModel.__new__ calls
        owner = next((k for k in cls.__mro__ if TRACKED in k.__dict__), cls)  # whose list moto appends to
        tracked = owner.__dict__.get(TRACKED)
        if not isinstance(tracked, LiveInstances):  # a class's first instance, or moto's reset put a list
            tracked = LiveInstances(tracked or ())
            setattr(owner, TRACKED, tracked)
        tracked.append(instance)
        return instance

    replace(BaseModel, "__new__", staticmethod(__new__))  # as a class body's __new__: a staticmethod
