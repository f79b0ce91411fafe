"""The registry of game kinds: a game's name -> its ``GameKind`` (functions/usecases/game_kinds.py).

It imports every kind, and the kinds import the use cases they wrap (views, create_game),
so it sits above them: the shared use cases that dispatch on a game's kind (join, lobby,
game_control) and the handlers import it; the kinds themselves never do.
"""

from __future__ import annotations

from functions.errors import UnknownGame
from functions.ports import GameRecord
from functions.usecases.backgammon_game import BACKGAMMON
from functions.usecases.common import kind_name
from functions.usecases.diplomacy_kind import DIPLOMACY_KIND
from functions.usecases.game_kinds import GameKind

KINDS: dict[str, GameKind] = {kind.name: kind for kind in (DIPLOMACY_KIND, BACKGAMMON)}


def kind_named(name: str) -> GameKind:
    if name not in KINDS:
        raise UnknownGame(f"unknown game {name!r}; games: {', '.join(sorted(KINDS))}")
    return KINDS[name]


def kind_of(game: GameRecord) -> GameKind:
    return kind_named(kind_name(game))
