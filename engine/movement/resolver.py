"""Kruijswijk's guess-and-check resolver for interdependent yes/no decisions.

It knows nothing of Diplomacy: a decision is any hashable key, ``adjudicate(key)``
computes its value by calling ``resolve`` on the decisions it depends on, and
``backup(cycle)`` settles a cycle that has no single consistent answer (circular
movement or a convoy paradox) by returning values for some of its decisions.
Only guesses, dependencies and cycles are tracked; there is no depth cap.

Algorithm: DATC section 5 ("The algorithm"), L.B. Kruijswijk.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)


class Resolver(Generic[K]):
    def __init__(
        self,
        adjudicate: Callable[[K], bool],
        backup: Callable[[Sequence[K]], dict[K, bool]],
    ) -> None:
        self._adjudicate = adjudicate
        self._backup = backup
        self.resolved: dict[K, bool] = {}
        self._guess: dict[K, bool] = {}
        self._deps: list[K] = []

    def resolve(self, key: K) -> bool:
        resolved = self.resolved.get(key)
        if resolved is not None:
            return resolved
        guess = self._guess.get(key)
        if guess is not None:
            # Someone depends on a decision that is still only a guess.
            if key not in self._deps:
                self._deps.append(key)
            return guess
        return self._resolve_fresh(key)

    def _resolve_fresh(self, key: K) -> bool:
        start = len(self._deps)
        self._guess[key] = False
        first = self._adjudicate(key)
        if len(self._deps) == start:
            # Independent of every guess: final (unless a backup rule already settled it).
            self._guess.pop(key, None)
            return self.resolved.setdefault(key, first)
        if self._deps[start] != key:
            # Depends on a guess made further up; stay a guess and report upward.
            self._deps.append(key)
            self._guess[key] = first
            return first
        # ``key`` heads a cycle: try the other guess.
        self._forget(start)
        self._guess[key] = True
        second = self._adjudicate(key)
        if first == second:
            self._forget(start)
            self._guess.pop(key, None)
            self.resolved[key] = first
            return first
        # No guess, or both guesses, are consistent: the backup rule decides.
        cycle = list(self._deps[start:])
        if key not in cycle:
            cycle.insert(0, key)
        self._forget(start)
        self._guess.pop(key, None)
        for decided, value in self._backup(cycle).items():
            self.resolved[decided] = value
        return self.resolve(key)

    def _forget(self, start: int) -> None:
        for key in self._deps[start:]:
            self._guess.pop(key, None)
        del self._deps[start:]
