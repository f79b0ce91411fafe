"""webDiplomacy games in Cicero's published layout (issue 34 item 6), replayed through Convoy's
engine and accepted by Convoy's importer.

The fixture, data/cicero_layout_game.json, is in the layout of Meta's diplomacy_cicero
repository (data/cicero_redacted_games/game_*.json: ``id``, ``is_full_press``, ``map``,
``phases`` of ``logs``, ``messages``, ``name``, ``orders``, ``results``, ``state``,
``scoring_system``, ``version``); its positions were adjudicated by MILA's package, not by
Convoy, from seeded random orders (data/make_cicero_layout_game.py writes it)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import engine
from community.cicero import NotCiceroLayout, from_cicero
from community.mila import DoesNotReplay, replay_phase
from functions.usecases.games import import_game
from functions.usecases.turns import export_game
from testkit.fakes import FakeClock, InMemoryGameStore

FIXTURE = Path(__file__).with_name("data") / "cicero_layout_game.json"


@pytest.fixture(scope="module")
def cicero() -> dict[str, Any]:
    game: dict[str, Any] = json.loads(FIXTURE.read_text())
    return game


def test_the_fixture_has_the_published_layout(cicero: dict[str, Any]) -> None:
    assert set(cicero) == {"id", "is_full_press", "map", "phases", "scoring_system", "version"}
    for phase in cicero["phases"]:
        assert set(phase) == {"logs", "messages", "name", "orders", "results", "state"}
        assert set(phase["state"]) == {"builds", "centers", "homes", "name", "retreats", "units"}
    names = [p["name"] for p in cicero["phases"]]
    assert any(n.endswith("R") for n in names) and any(n.endswith("A") for n in names)


def test_a_cicero_game_replays_through_convoy_s_engine_and_imports(cicero: dict[str, Any]) -> None:
    document = from_cicero(cicero)
    mila_names = [p["name"] for p in cicero["phases"]]
    assert [p["phase"] for p in document["phases"]] == mila_names[:-1]
    assert document["current"]["phase"] == mila_names[-1] and document["current"]["status"] == "ACTIVE"
    assert document["source"]["game_id"] == cicero["id"] and document["rules"] == "2000"
    w1904 = next(p for p in document["phases"] if p["phase"] == "W1904A")
    assert "ITALY" not in w1904["orders"] or w1904["orders"]["ITALY"] == []  # civil disorder there
    store = InMemoryGameStore()
    created = import_game(store, FakeClock(), document)  # Convoy's importer replays it again
    again = export_game(store, created.game_id)
    assert [p["state"] for p in again["phases"]] == [p["state"] for p in document["phases"]]
    assert again["current"]["state"] == document["current"]["state"]


def test_a_civil_disorder_disband_the_rulebook_would_not_choose_follows_the_record(
    cicero: dict[str, Any],
) -> None:
    """W1904A: Italy (A VEN, F ION, A TYR on two centres) owes one disband and gives none.
    Both Convoy rulebooks disband F ION; a record where A TYR went instead is followed,
    with the disband made explicit."""
    document = from_cicero(cicero)
    before = engine.state_from_dict(next(p for p in document["phases"] if p["phase"] == "W1904A")["state"])
    recorded = copy.deepcopy(next(p for p in cicero["phases"] if p["name"] == "S1905M")["state"])
    assert sorted(recorded["units"]["ITALY"]) == ["A TYR", "A VEN"]
    recorded["units"]["ITALY"] = ["A VEN", "F ION"]
    the_map = engine.load_map("classical")
    given = next(p for p in cicero["phases"] if p["name"] == "W1904A")["orders"]
    assert given["ITALY"] == []
    after, steps = replay_phase(before, the_map, "2000", given, recorded)
    assert [engine.format_order(o) for o in steps[0][2]["ITALY"]] == ["A TYR D"]
    assert sorted(str(u.location) for u in after.units if u.power == "ITALY") == ["ION", "VEN"]


def test_a_tampered_record_does_not_replay(cicero: dict[str, Any]) -> None:
    tampered = copy.deepcopy(cicero)
    moved = tampered["phases"][3]["state"]["units"]["FRANCE"]
    moved[0] = "A PAR" if moved[0] != "A PAR" else "A BUR"
    with pytest.raises(DoesNotReplay, match=f"the orders of {cicero['phases'][2]['name']} lead to"):
        from_cicero(tampered)


@pytest.mark.parametrize("broken, message", [
    ({"map": "standard", "phases": []}, "missing id"),
    ({"id": "x", "map": "standard", "phases": []}, "non-empty list"),
    ({"id": "x", "map": "standard", "phases": [{"name": "S1901M", "orders": {}}]}, "lacks one of"),
])
def test_a_document_not_in_the_layout_is_refused(broken: dict[str, Any], message: str) -> None:
    with pytest.raises(NotCiceroLayout, match=message):
        from_cicero(broken)
