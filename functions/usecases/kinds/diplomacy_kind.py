"""Diplomacy as a ``GameKind`` (functions/usecases/games/game_kinds.py): the existing use cases, as is."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from functions.errors import ValidationFailed
from functions.ports import Clock, EventRecord, GameRecord, GameStore
from functions.usecases.game import DIPLOMACY, game_map
from functions.usecases.players import Actor
from functions.usecases.turns import game_view

if TYPE_CHECKING:
    from functions.usecases.games import Created, CreateGame


class Diplomacy:
    name = DIPLOMACY

    def create(self, store: GameStore, clock: Clock, request: CreateGame) -> Created:
        if request.seed is not None or request.move_by_turn_rolls:
            raise ValidationFailed("backgammon settings are not for Diplomacy (it has no dice)")
        # deferred: a view never creates, so the view's first request does not load create_game,
        # its settings and the webhook host checks (ipaddress) (API cold start, issue 9)
        from functions.usecases.games import create_game

        return create_game(store, clock, request)

    def seats(self, game: GameRecord) -> list[str]:
        return sorted(game_map(game.variant).power_ids)

    def on_start(self, game: GameRecord, now: datetime) -> list[EventRecord]:
        return []  # join starts the first deadline for every kind; Diplomacy needs nothing more

    def view(self, game: GameRecord, actor: Actor) -> dict[str, Any]:
        return game_view(game, actor)


DIPLOMACY_KIND = Diplomacy()
