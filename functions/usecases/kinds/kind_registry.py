"""The registry of game kinds: a game's name -> its ``GameKind`` (functions/usecases/games/game_kinds.py).

It imports the kinds, and the kinds import the use cases they wrap (views, create_game),
so it sits above them: the shared use cases that dispatch on a game's kind (join, lobby,
game_control) and the handlers import it; the kinds themselves never do. Each kind's
module is imported when a game of that kind is first met, so a Diplomacy request never
loads the backgammon rules (API cold start, issue 9).
"""

from __future__ import annotations

from collections.abc import Callable

from functions.errors import UnknownGame
from functions.ports import GameRecord
from functions.usecases.game import kind_name
from functions.usecases.games import GameKind


def _diplomacy() -> GameKind:
    from functions.usecases.kinds.diplomacy_kind import DIPLOMACY_KIND

    return DIPLOMACY_KIND


def _backgammon() -> GameKind:
    from functions.usecases.backgammon import BACKGAMMON

    return BACKGAMMON


KINDS: dict[str, Callable[[], GameKind]] = {"diplomacy": _diplomacy, "backgammon": _backgammon}


def kind_named(name: str) -> GameKind:
    if name not in KINDS:
        raise UnknownGame(f"unknown game {name!r}; games: {', '.join(sorted(KINDS))}")
    return KINDS[name]()


def kind_of(game: GameRecord) -> GameKind:
    return kind_named(kind_name(game))
