"""Kruijswijk's guess-and-check resolver for interdependent decisions.

It knows nothing of Diplomacy: a decision is any hashable key; ``adjudicate(key)``
returns its ``Verdict`` (a yes/no with the reason for it) by calling ``resolve`` on
the decisions it depends on, which answers yes/no; ``backup(cycle)`` settles a
cycle that has no single consistent answer (circular movement or a convoy paradox)
by giving verdicts for some of its decisions. Only guesses, dependencies and cycles
are tracked; there is no depth cap. ``verdicts`` holds every final verdict, so what
players are told is what decided the case.

Algorithm: DATC section 5 ("The algorithm"), L.B. Kruijswijk.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.types import Reason
from engine.values import quick_init

K = TypeVar("K", bound=Hashable)


@quick_init
@dataclass(frozen=True, slots=True)
class Verdict:
    """A decision's answer: ``ok`` is the yes/no, ``reason`` why (None for a plain yes)."""

    ok: bool
    reason: Reason | None = None


class Resolver(Generic[K]):
    def __init__(
        self,
        adjudicate: Callable[[K], Verdict],
        backup: Callable[[Sequence[K]], dict[K, Verdict]],
    ) -> None:
        self._adjudicate = adjudicate
        self._backup = backup
        self.verdicts: dict[K, Verdict] = {}
        self._guess: dict[K, bool] = {}
        self._deps: list[K] = []

    def resolve(self, key: K) -> bool:
        known = self.verdicts.get(key)
        if known is not None:
            return known.ok
        guess = self._guess.get(key)
        if guess is not None:
            # Someone depends on a decision that is still only a guess.
            if key not in self._deps:
                self._deps.append(key)
            return guess
        return self._resolve_fresh(key).ok

    def _resolve_fresh(self, key: K) -> Verdict:
        start = len(self._deps)
        self._guess[key] = False
        first = self._adjudicate(key)
        if len(self._deps) == start:
            # Independent of every guess: final (unless a backup rule already settled it).
            self._guess.pop(key, None)
            return self.verdicts.setdefault(key, first)
        if self._deps[start] != key:
            # Depends on a guess made further up; stay a guess and report upward.
            self._deps.append(key)
            self._guess[key] = first.ok
            return first
        # ``key`` heads a cycle: try the other guess.
        self._forget(start)
        self._guess[key] = True
        second = self._adjudicate(key)
        if first.ok == second.ok:
            self._forget(start)
            self._guess.pop(key, None)
            self.verdicts[key] = first
            return first
        # No guess, or both guesses, are consistent: the backup rule decides.
        cycle = list(self._deps[start:])
        if key not in cycle:
            cycle.insert(0, key)
        self._forget(start)
        self._guess.pop(key, None)
        self.verdicts.update(self._backup(cycle))
        known = self.verdicts.get(key)
        return known if known is not None else self._resolve_fresh(key)

    def _forget(self, start: int) -> None:
        for key in self._deps[start:]:
            self._guess.pop(key, None)
        del self._deps[start:]
