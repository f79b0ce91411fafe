"""Other programs' game files in and out (issue 34 item 6): MILA's saved-game JSON, and
webDiplomacy games in the layout Meta published with Cicero.

The translation is ``community.mila`` / ``community.cicero`` (pure); here a game is exported
through Convoy's own export document and imported through Convoy's own import
(functions/usecases/games/game_import.py), so an imported file is replayed by Convoy's engine
phase by phase and refused whole (422 ``BAD_IMPORT``, nothing written) when it does not replay.
An imported game is never rated (community.ratings.unrated_reason).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from community.cicero import NotCiceroLayout, from_cicero
from community.mila import DoesNotReplay, UnsupportedVariant, from_mila, to_mila
from functions.errors import BadImport
from functions.ports import Clock, GameStore
from functions.usecases.games import Created, import_game
from functions.usecases.turns import export_game

# the ids Convoy's import keeps as a source's id (functions/usecases/turns/import_replay.py checks the same)
_SOURCE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_REFUSED = (NotCiceroLayout, DoesNotReplay, UnsupportedVariant, KeyError, TypeError, ValueError)


def export_mila(store: GameStore, game_id: str) -> dict[str, Any]:
    """The game as MILA's saved-game JSON, with the ``convoy`` extension (status, outcome)."""
    try:
        return to_mila(export_game(store, game_id))
    except UnsupportedVariant as exc:
        raise BadImport(str(exc)) from exc


def _converted(convert: Any, document: Mapping[str, Any]) -> dict[str, Any]:
    """Convoy's export document of another program's file. The file's own id is kept as the
    source's id when Convoy's import takes it (letters, digits, '-', '_'; webDiplomacy's ids are
    numbers), else dropped: an id is a label, and a file is not refused for its label."""
    try:
        converted: dict[str, Any] = convert(document)
    except _REFUSED as exc:
        raise BadImport(f"{type(exc).__name__}: {exc}") from exc
    source = dict(converted.get("source") or {})
    label = str(source.get("game_id") if source.get("game_id") is not None else "")
    source["game_id"] = label if _SOURCE_ID.match(label) else None
    converted["source"] = source
    return converted


def import_mila(
    store: GameStore, clock: Clock, saved: Mapping[str, Any], creator_user_id: str | None = None
) -> Created:
    return import_game(store, clock, _converted(from_mila, saved), creator_user_id=creator_user_id)


def import_cicero(
    store: GameStore, clock: Clock, game: Mapping[str, Any], creator_user_id: str | None = None
) -> Created:
    return import_game(store, clock, _converted(from_cicero, game), creator_user_id=creator_user_id)
