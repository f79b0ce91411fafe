from __future__ import annotations

from dataclasses import dataclass

import pytest

from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import Actor
from functions.usecases.seats import join_game
from testkit.fakes import FakeClock, InMemoryGameStore

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@dataclass
class Table:
    store: InMemoryGameStore
    clock: FakeClock
    game_id: str
    creator_token: str
    tokens: dict[str, str]

    def player(self, power: str) -> Actor:
        return Actor("player", power)


@pytest.fixture
def store() -> InMemoryGameStore:
    return InMemoryGameStore()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def table(store: InMemoryGameStore, clock: FakeClock) -> Table:
    created = create_game(store, clock, CreateGame(variant="classical"))
    tokens = {p: join_game(store, clock, created.game_id, p).token for p in POWERS}
    return Table(store, clock, created.game_id, created.token, tokens)
