"""Kruijswijk's guess-and-check resolver for interdependent decisions.

It knows nothing of Diplomacy: a decision is any hashable key; ``adjudicate(key)``
returns its verdict (anything with an ``ok``: the yes/no, plus whatever the rules
want players told of it) by calling ``resolve`` on the decisions it depends on,
which answers yes/no; ``backup(cycle)`` settles a cycle that has no single
consistent answer (circular movement or a convoy paradox) by giving verdicts for
some of its decisions. Only guesses, dependencies and cycles are tracked; there is
no depth cap. ``verdicts`` holds every final verdict, so what players are told is
what decided the case.

A cycle whose head gets one answer under both guesses keeps the verdict made under
the guess that turned out true, so everything that verdict read (the strengths it
compared) was read in a world consistent with the final answer. ``otherwise`` keeps
the verdicts the cycle's decisions got under the other guess: why that world could
not be (DATC 6.C.3: had the ring of moves gone, F ANK would still have stood off with
A BUL in CON, so the ring holds). Nothing decides by them; explanations may read them.

Algorithm: DATC section 5 ("The algorithm"), L.B. Kruijswijk.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Generic, Protocol, TypeVar

K = TypeVar("K", bound=Hashable)


class Answer(Protocol):
    """What the resolver reads of a verdict: its yes/no."""

    @property
    def ok(self) -> bool: ...


V = TypeVar("V", bound=Answer)


class Resolver(Generic[K, V]):
    def __init__(
        self,
        adjudicate: Callable[[K], V],
        backup: Callable[[Sequence[K]], dict[K, V]],
    ) -> None:
        self._adjudicate = adjudicate
        self._backup = backup
        self.verdicts: dict[K, V] = {}
        self.otherwise: dict[K, V] = {}
        self._guess: dict[K, bool] = {}
        self._tentative: dict[K, V] = {}  # the verdicts behind the guesses still open
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

    def _resolve_fresh(self, key: K) -> V:
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
            self._tentative[key] = first
            return first
        # ``key`` heads a cycle: try the other guess.
        first_world = self._world(start, key, first)
        self._forget(start)
        self._guess[key] = True
        second = self._adjudicate(key)
        if first.ok == second.ok:
            second_world = self._world(start, key, second)
            self._forget(start)
            self._guess.pop(key, None)
            final = second if second.ok else first  # the one made under the true guess
            self.otherwise.update(first_world if second.ok else second_world)
            self.verdicts[key] = final
            return final
        # No guess, or both guesses, are consistent: the backup rule decides.
        cycle = list(self._deps[start:])
        if key not in cycle:
            cycle.insert(0, key)
        self._forget(start)
        self._guess.pop(key, None)
        self.verdicts.update(self._backup(cycle))
        known = self.verdicts.get(key)
        return known if known is not None else self._resolve_fresh(key)

    def _world(self, start: int, key: K, verdict: V) -> dict[K, V]:
        """The verdicts of a cycle under the guess just tried (its head's included)."""
        world = {k: self._tentative[k] for k in self._deps[start:] if k in self._tentative}
        world[key] = verdict
        return world

    def _forget(self, start: int) -> None:
        for key in self._deps[start:]:
            self._guess.pop(key, None)
            self._tentative.pop(key, None)
        del self._deps[start:]
