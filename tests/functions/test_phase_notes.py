"""Phases nobody can order in are not opened; players are told, as events (issue 31 item 3).

The engine disbands at once a dislodged unit with nowhere to retreat and skips a winter in
which nobody must remove a unit or can place a build (docs/rules.md, "Phases nobody orders
in"); process_turn records each note of the resolution as an event of the processed phase
(functions/usecases/turns/phase_notes.py), and the history keeps the notes with the resolution.
"""

from __future__ import annotations

import engine
from functions.usecases.players import Actor
from functions.usecases.turns import process_turn, submit_orders
from functions.usecases.turns.views import events_after, history
from tests.functions.conftest import Table

CREATOR = Actor("creator")
MAP = engine.load_map("classical")


def _unit(kind: str, power: str, where: str) -> engine.Unit:
    return engine.Unit(engine.UnitKind(kind), power, engine.Location(where))


def _set_position(t: Table, state: engine.GameState) -> None:
    game = t.store.games[t.game_id]
    game.state, game.phase = engine.state_to_dict(state), state.phase_name


def test_a_unit_with_nowhere_to_retreat_is_disbanded_and_told(table: Table) -> None:
    # Given Italy's A VEN, attacked with support from TRI, with APU, ROM, PIE and TUS held by Italy
    units = [_unit("A", "AUSTRIA", "TRI"), _unit("A", "AUSTRIA", "TYR")]
    units += [_unit("A", "ITALY", p) for p in ("VEN", "APU", "ROM", "PIE", "TUS")]
    _set_position(table, engine.GameState(1901, engine.Season.SPRING, engine.PhaseType.MOVEMENT,
                                          frozenset(units), MAP.starting_ownership))
    submit_orders(table.store, table.clock, table.game_id, table.player("AUSTRIA"),
                  ["A TRI - VEN", "A TYR S A TRI - VEN"])
    # When the phase is processed
    done = process_turn(table.store, table.clock, table.game_id, CREATOR,
                        expected_phase=table.store.load(table.game_id).phase)
    # Then no retreat phase: the army is gone at once, and the players are told
    assert done.phase == "F1901M"
    events = events_after(table.store, table.game_id, 0)["events"]
    told = [(e["type"], e["data"]["phase"], e["data"]["units"]) for e in events
            if e["type"] in ("UNIT_DISBANDED", "PHASE_SKIPPED")]
    assert told == [("UNIT_DISBANDED", "S1901R", ["A VEN"]), ("PHASE_SKIPPED", "S1901R", ["A VEN"])]
    notes = history(table.store, table.game_id)[-1]["resolution"]["notes"]
    assert [n["kind"] for n in notes] == ["DISBANDED", "PHASE_SKIPPED"]
    venice = next(r for r in done.resolution["results"] if r["order_str"] == "A VEN H")
    assert venice["dislodged"] and venice["explanation"]["text"].endswith(
        "It had nowhere to retreat and was disbanded at once.")


def test_a_winter_in_which_nobody_can_build_is_skipped_and_told(table: Table) -> None:
    # Given Russia owns RUM besides its four home centres, each occupied by its own unit
    units = [_unit("A", "RUSSIA", p) for p in ("MOS", "WAR", "SEV")] + [
        engine.Unit(engine.UnitKind.FLEET, "RUSSIA", engine.Location("STP", "SC"))]
    owners = {p: "RUSSIA" for p in ("MOS", "WAR", "SEV", "STP", "RUM")}
    _set_position(table, engine.GameState(1901, engine.Season.FALL, engine.PhaseType.MOVEMENT,
                                          frozenset(units), engine.Ownership(owners)))
    # When the Fall is processed (every unit holds)
    done = process_turn(table.store, table.clock, table.game_id, CREATOR,
                        expected_phase=table.store.load(table.game_id).phase)
    # Then Russia's build has nowhere to go: no winter, and it is said
    assert done.phase == "S1902M"
    events = events_after(table.store, table.game_id, 0)["events"]
    skipped = [e for e in events if e["type"] == "PHASE_SKIPPED"]
    assert len(skipped) == 1 and skipped[0]["data"]["phase"] == "W1901A"
    assert skipped[0]["data"]["powers"] == ["RUSSIA"] and "Russia (1 build)" in skipped[0]["data"]["text"]
