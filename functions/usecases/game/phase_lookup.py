"""One adjudicated phase of a game found by its name, reading only a few PHASE items.

PHASE items are keyed by their number (``PHASE#<n>#<name>``, infra/dynamodb/keys.py), so a
phase asked for by name (``?phase=F1903R`` on the map routes) was found by reading the whole
history: 1.2-1.4 s for one picture of a 2,000-phase game, for a 304 too (issue 28 item 2).
Numbers and names run in the same order: a game's phases follow each other in time, and a
name says when it is (year, then spring < fall < winter, then movement < retreat <
adjustment). So the phase is found by bisecting the numbers ``0 .. phase_index - 1``, one
single-item read (``GameStore.phases(after=n - 1, limit=1)``) per step: at most
``ceil(log2(phase_index + 1))`` reads, 11 for 2,000 phases, and none at all for a name that
cannot be an adjudicated phase of the game (malformed, or not before its current phase).
Pure but for the store it is given.
"""

from __future__ import annotations

import re

from functions.ports import GameRecord, GameStore, PhaseRecord

_NAME = re.compile(r"^([SFW])(\d{1,6})([MRA])$")
_SEASONS = {"S": 0, "F": 1, "W": 2}
_TYPES = {"M": 0, "R": 1, "A": 2}


def phase_key(name: str) -> tuple[int, int, int] | None:
    """When a phase is, as a sortable key, or None if ``name`` names no phase."""
    found = _NAME.match(name)
    if found is None:
        return None
    season, year, kind = found.groups()
    return int(year), _SEASONS[season], _TYPES[kind]


def find_phase(store: GameStore, game: GameRecord, name: str) -> PhaseRecord | None:
    """The adjudicated phase ``name`` of ``game``, or None; a bisection over its numbers."""
    wanted, current = phase_key(name), phase_key(game.phase)
    if wanted is None or (current is not None and wanted >= current):
        return None  # not a phase, or not adjudicated yet: nothing to read
    low, high = 0, game.phase_index - 1
    while low <= high:
        middle = (low + high) // 2
        found = store.phases(game.game_id, after=middle - 1, limit=1)
        if not found:
            high = middle - 1
            continue
        key = phase_key(found[0].phase)
        if key == wanted:
            return found[0]
        if key is None or key < wanted:
            low = middle + 1
        else:
            high = middle - 1
    return None
