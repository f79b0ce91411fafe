"""Export a game as one JSON document, and import such a document as a new game (seed W5).

``export_game`` (``GET /games/{id}/export``) returns:
``{"format": "convoy-export/1", "source": {"game_id", "created_at"}, "variant", "rules",
"settings", "phases": [{"n", "phase", "state", "orders", "resolution", "processed_at"}],
"current": {"phase", "state", "status"}, "result"}``.
- ``phases`` is the adjudicated history as stored (public after each phase: all orders,
  resolutions with their NMRs and public-ballot votes), without each result's
  ``explanation``: the engine derives it again from the position and the orders (an import
  replays them, never reads it), and without it the export of a game as long as an import may
  be (import_replay.MAX_PHASES) stays inside the import's body limit (body_guard) and
  Lambda's 6 MB payload. ``GET /games/{id}/history`` serves the explanations.
- ``settings`` is an allow-list (``EXPORTED_SETTINGS``): never the join password hash,
  never notification targets (webhook URLs) or their signing secret. A setting added
  later is exported only once it is put on the list, so nothing new leaks by default.
- Never pending orders, secret votes, press, tokens or any hash: none of them is read.
Anyone may export, as anyone may read a game's history: the export holds nothing the
history, the view and the listing do not already show. A fog-of-war game is refused
(409 ``FOG_OF_WAR``) until it has ended: nobody may see all of it before then.

Importing such a document (``POST /games/import``) is functions/usecases/games/game_import.py's
business, and what an import may take from it functions/usecases/turns/import_replay.py's.
"""

from __future__ import annotations

from typing import Any

from functions.errors import FogOfWar
from functions.ports import GameStore
from functions.usecases.game import load
from functions.usecases.players import fogged
from functions.usecases.turns.resolutions import without_explanations

FORMAT = "convoy-export/1"
EXPORTED_SETTINGS = (
    "phase_seconds", "auto_process", "reminder_seconds", "draw_votes", "max_year", "nmr_extensions",
    "civil_disorder_after", "dummy_powers", "demo", "deadline_at",
)


def export_game(store: GameStore, game_id: str) -> dict[str, Any]:
    game = load(store, game_id)
    if fogged(game):  # the export is everyone's: a fog game's only once it has ended
        raise FogOfWar("a fog-of-war game is exported once it has ended", status=game.status)
    return {
        "format": FORMAT,
        "source": {"game_id": game.game_id, "created_at": game.created_at},
        "variant": game.variant,
        "rules": game.rules,
        "settings": {k: game.settings[k] for k in EXPORTED_SETTINGS if k in game.settings},
        "phases": [
            {"n": p.n, "phase": p.phase, "state": p.state_before, "orders": p.orders,
             "resolution": without_explanations(p.resolution), "processed_at": p.processed_at}
            for p in store.phases(game_id)
        ],
        "current": {"phase": game.phase, "state": game.state, "status": game.status},
        "result": dict(game.result) if game.result else None,
    }

