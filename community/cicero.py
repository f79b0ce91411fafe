"""webDiplomacy games in the layout Meta published with Cicero, replayed into Convoy (issue 34).

The layout (facebookresearch/diplomacy_cicero, ``data/cicero_redacted_games/game_*.json``) is
MILA's saved game with a few fields of its own: top level ``id``, ``map`` (``standard``),
``phases``, ``is_full_press``, ``scoring_system``, ``version``; each phase ``name``,
``orders`` (MILA's order text, builds as ``A PAR B``), ``messages``, ``logs``, an empty
``results`` and ``state`` (``units`` with ``*`` for dislodged ones, ``retreats``,
``centers``, ``homes``, ``builds``, ``name``): the position at the start of the phase.

``from_cicero(game)`` checks that layout and replays every phase through Convoy's engine
(``community.mila.replay``), so each recorded position must follow from the orders before
it; where a power in civil disorder gave fewer disbands than it owed, the recorded position
says which units went (webDiplomacy's choice, which Convoy's rulebooks may not make). The
result is a ``convoy-export/1`` document for ``POST /games/import``, adjudicated by the 2000
rulebook (webDiplomacy's). The press (``messages``) is not imported: Convoy's export and
import carry none yet. The game's ``scoring_system`` is kept in ``source``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine
from community.mila import FOREIGN_RULEBOOK, FORMAT, VARIANTS, UnsupportedVariant, replay

TOP = ("id", "map", "phases")
PHASE = ("name", "orders", "state")
STATE = ("name", "units", "centers")


class NotCiceroLayout(ValueError):
    """The document is not in the layout of Cicero's published games."""


def check_layout(game: Mapping[str, Any]) -> None:
    """Refuse a document missing what the layout always has."""
    missing = [k for k in TOP if k not in game]
    if missing:
        raise NotCiceroLayout(f"missing {', '.join(missing)}")
    if not isinstance(game["phases"], list) or not game["phases"]:
        raise NotCiceroLayout("phases is a non-empty list")
    for n, phase in enumerate(game["phases"]):
        if not isinstance(phase, Mapping) or any(k not in phase for k in PHASE):
            raise NotCiceroLayout(f"phase {n} lacks one of {', '.join(PHASE)}")
        if any(k not in phase["state"] for k in STATE):
            raise NotCiceroLayout(f"phase {n}'s state lacks one of {', '.join(STATE)}")
        if phase["state"]["name"] != phase["name"]:
            raise NotCiceroLayout(f"phase {n} is {phase['name']} but holds the state of "
                                  f"{phase['state']['name']}")


def from_cicero(game: Mapping[str, Any]) -> dict[str, Any]:
    """The ``convoy-export/1`` document of a game in Cicero's layout, replayed by Convoy's engine."""
    check_layout(game)
    variant = VARIANTS.get(str(game["map"]))
    if variant is None:
        raise UnsupportedVariant(f"no Convoy variant for map {game['map']!r}")
    the_map = engine.load_map(variant)
    records, current = replay(game["phases"], the_map, FOREIGN_RULEBOOK)
    solo = current.status is engine.GameStatus.COMPLETED and current.winner
    result = None
    if solo:
        counts = current.center_counts
        result = {"kind": "solo", "winners": [current.winner],
                  "centers": {p: int(counts.get(p, 0)) for p in sorted(the_map.power_ids)},
                  "final_phase": records[-1]["phase"], "ended_at": ""}
    return {
        "format": FORMAT,
        "source": {"game_id": str(game["id"]), "created_at": None, "layout": "cicero",
                   "scoring_system": game.get("scoring_system"), "full_press": game.get("is_full_press")},
        "variant": variant, "rules": FOREIGN_RULEBOOK, "settings": {},
        "phases": records,
        "current": {"phase": current.phase_name, "state": engine.state_to_dict(current),
                    "status": "COMPLETED" if solo else "ACTIVE"},
        "result": result,
    }
