"""The engine contract of shared/ARCHITECTURE.md §2, called exactly as written there."""

from __future__ import annotations

import engine


def test_architecture_section_2_calls_work_exactly_as_written() -> None:
    """ARCHITECTURE §2: the snippet tools outside the project rely on, line by line."""
    m = engine.load_map("classical")          # also "1900"; MapData
    s = engine.initial_state(m)               # GameState at S1901M
    o = engine.parse_order("A PAR - BUR", power="FRANCE", state=s, map=m)
    game = engine.Game(map=m, state=s)                 # rules="2023" (default) or "2000"
    game2, resolution = game.adjudicate({"FRANCE": [o]})   # dict power -> list[Order]
    s2 = game2.state
    assert s2 is not None
    d = engine.state_to_dict(s2)
    assert engine.state_from_dict(d) == s2
    r = engine.resolution_to_dict(resolution)

    assert s.phase_name == "S1901M"
    assert s2 is not None and s2.phase_name == "F1901M"
    assert engine.Unit(engine.UnitKind.ARMY, "FRANCE", engine.Location("BUR")) in s2.units
    moved = [x for x in r["results"] if x["order"]["type"] == "MOVE"]
    assert moved[0]["result"] == "OK"


def test_both_rulebooks_and_both_maps_are_selectable() -> None:
    """ARCHITECTURE §2: rules="2023" (default) or "2000"; load_map also takes "1900"."""
    m = engine.load_map("classical")
    assert engine.Game(map=m).rulebook.name == "2023"
    assert engine.Game(map=m, rules="2000").rulebook.name == "2000"
    assert engine.load_map("1900").map_id == "1900"
    assert {"classical", "1900"} <= set(engine.available_maps())


def test_spelling_conventions() -> None:
    """ARCHITECTURE §2 spelling: str(Location) is PAR or SPA/SC; phase names S1901M/F1901R/W1901A."""
    assert str(engine.Location("spa", "sc")) == "SPA/SC"
    assert str(engine.Location("par")) == "PAR"
    state = engine.initial_state(engine.load_map())
    from dataclasses import replace

    assert replace(state, season=engine.Season.FALL, phase_type=engine.PhaseType.RETREAT).phase_name == (
        "F1901R"
    )
    assert replace(state, season=engine.Season.WINTER, phase_type=engine.PhaseType.ADJUSTMENT).phase_name == (
        "W1901A"
    )


def test_a_game_refuses_a_position_the_map_does_not_allow() -> None:
    """Data-model seed §1: a fleet in a split-coast province always names one coast."""
    import pytest

    m = engine.load_map()
    bad = engine.GameState(1901, engine.Season.SPRING, engine.PhaseType.MOVEMENT,
                           frozenset({engine.Unit(engine.UnitKind.FLEET, "RUSSIA", engine.Location("STP"))}))
    with pytest.raises(ValueError, match="STP"):
        engine.Game(map=m, state=bad)
    with pytest.raises(ValueError, match="an army has no coast"):
        engine.Unit(engine.UnitKind.ARMY, "FRANCE", engine.Location("SPA", "NC"))


def test_the_lazy_facade_lists_each_public_name_once_in_all_three_places() -> None:
    """Issue 9 (cold start): ``engine`` binds its names on first use; ``EXPORTS`` (what is
    looked up), ``__all__`` and the imports type checkers read must name the same things."""
    import ast
    import inspect
    import subprocess
    import sys

    exported = [name for names in engine.EXPORTS.values() for name in names]
    source = ast.parse(inspect.getsource(engine))
    checked = next(n for n in source.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))
    typed = {(node.module, alias.name) for node in checked.body if isinstance(node, ast.ImportFrom)
             for alias in node.names}

    assert len(exported) == len(set(exported)) and sorted(exported) == sorted(engine.__all__)
    assert typed == {(module, name) for module, names in engine.EXPORTS.items() for name in names}
    assert all(getattr(engine, name) is getattr(__import__(m, fromlist=[name]), name)
               for m, names in engine.EXPORTS.items() for name in names)
    loaded = subprocess.run([sys.executable, "-c", "import sys, engine; engine.load_map; "
                             "print(sorted(m for m in sys.modules if m.startswith('engine.')))"],
                            capture_output=True, text=True, check=True).stdout
    assert "engine.movement" not in loaded and "engine.simple_ai" not in loaded  # used only when asked
