"""The events players see for what the phase sequence did that no order asked for (issue 31).

The engine never opens a phase in which nobody can order: a dislodged unit with nowhere to
retreat is disbanded at once, and a winter in which nobody must remove a unit or can place a
build is skipped (engine/game.py, docs/rules.md "Phases nobody orders in"). It says so in the
resolution's ``notes``; each note becomes one event of the processed phase, so the event log
(``GET /games/{id}/events``) and the history show players why no retreat or winter phase came:

* ``UNIT_DISBANDED`` ``{phase, powers, units, text}``: ``phase`` is the retreat phase the unit
  would have retreated in;
* ``PHASE_SKIPPED`` ``{phase, powers, units, text}``: ``phase`` is the phase not opened.

Notes name only units and powers everyone sees on the board: nothing here is private.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from functions.ports import EventRecord
from functions.usecases.game import iso

EVENT_OF_NOTE = {"DISBANDED": "UNIT_DISBANDED", "PHASE_SKIPPED": "PHASE_SKIPPED"}


def note_events(notes: Sequence[dict[str, Any]], at: datetime, processed: str) -> list[EventRecord]:
    """One event per note of the resolution of ``processed`` (serialized by the engine),
    unnumbered: the turn's record step numbers them with its other events."""
    return [
        EventRecord(seq=0, type=EVENT_OF_NOTE[note["kind"]], phase=processed, at=iso(at),
                    data={"phase": note["phase"], "powers": list(note["powers"]),
                          "units": list(note["units"]), "text": note["text"]})
        for note in notes
    ]
