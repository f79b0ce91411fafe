"""moto 5.2.5's request routing, without the work it repeats on every request (issue 29).

Two lookups whose answers cannot change while the process runs were computed again for every
request the emulator served (cProfile of a ``process_turn``'s calls, docs/performance.md):

1. ``moto.backends.list_of_moto_modules`` lists moto's package directory (``os.listdir`` and
   one ``stat`` per entry, ~180) each time ``DomainDispatcherApplication`` asks which
   backend a request is for: twice a request. The directory is read once and remembered.
2. ``moto.core.responses.method_names_from_class`` runs ``inspect.getmembers`` over a
   response class (hundreds of attributes) to see whether the action is implemented: once a
   request. The names are remembered per class. Every patch to a response class is applied
   before the emulator serves (``moto_patches.apply``), so the remembered names are the
   final ones.

Same answers, same routing; installed by ``local_stack.moto_patches.apply``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from local_stack.patching import replace, replaced

_lock = threading.Lock()
_modules: list[tuple[str, ...]] = []
_methods: dict[type, list[str]] = {}


def install() -> None:
    """Replace the two lookups by remembering ones (idempotent)."""
    import moto.backends
    import moto.core.responses

    if replaced(moto.backends, "list_of_moto_modules"):
        return
    replace(moto.backends, "list_of_moto_modules", _remembering_modules(moto.backends.list_of_moto_modules))
    # moto.core.responses imported the name from moto.core.utils: replaced where it is called
    named = vars(moto.core.responses)["method_names_from_class"]
    replace(moto.core.responses, "method_names_from_class", _remembering_methods(named))


def _remembering_modules(listed: Callable[[], Iterable[str]]) -> Callable[[], Iterable[str]]:
    def list_of_moto_modules() -> Iterable[str]:
        if not _modules:
            with _lock:
                if not _modules:
                    _modules.append(tuple(listed()))
        return _modules[0]

    return list_of_moto_modules


def _remembering_methods(named: Callable[[object], list[str]]) -> Callable[[object], list[str]]:
    def method_names_from_class(clazz: object) -> list[str]:
        if not isinstance(clazz, type):
            return named(clazz)
        found = _methods.get(clazz)
        if found is None:
            found = _methods[clazz] = named(clazz)
        return found

    return method_names_from_class
