"""Press use cases on moto's DynamoDB (the real game and press stores, tables from template.yaml)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import boto3
import pytest

from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import Actor
from functions.usecases.seats import join_game
from infra.dynamodb.game_store import DynamoGameStore
from infra.dynamodb.press_store import DynamoPressStore
from testkit.fakes import FakeClock
from tests.infra.conftest import aws  # noqa: F401  (the moto fixture)

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


@dataclass
class Press:
    store: DynamoGameStore
    press: DynamoPressStore
    clock: FakeClock
    game_id: str

    def new_game(self, **settings: Any) -> str:
        game_id = create_game(self.store, self.clock, CreateGame(**settings)).game_id
        for power in POWERS:
            join_game(self.store, self.clock, game_id, power)
        return game_id


def player(power: str) -> Actor:
    return Actor("player", power)


@pytest.fixture
def table(aws: dict[str, str]) -> Press:  # noqa: F811
    client = boto3.client("dynamodb", region_name="us-east-1")
    store = DynamoGameStore(aws["GAME_TABLE"], client=client)
    press = DynamoPressStore(aws["GAME_TABLE"], client=client)
    setup = Press(store, press, FakeClock(), "")
    setup.game_id = setup.new_game()
    return setup
