"""The community (issue 34): player records and ratings of finished games, the archive and open
formats, tournaments.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.community.player_records import record_finished_game

__all__ = [
    "record_finished_game",
]
