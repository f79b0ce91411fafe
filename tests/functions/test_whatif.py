"""What-if inside a game (issue 31 item 5; functions/usecases/sandbox/whatif.py), on the in-memory store.

A seated player previews the current phase: its pending orders (or those it sends) against
orders it guesses for the others. Nothing is written, and no other power's pending orders
ever take part or show.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from functions import errors
from functions.usecases.players import Actor
from functions.usecases.sandbox import what_if
from functions.usecases.turns import submit_orders
from tests.functions.conftest import Table


def _snapshot(t: Table) -> str:
    """Everything the store holds for the game, as text."""
    s = t.store
    return repr((s.games[t.game_id], s.events[t.game_id], s.outbox[t.game_id], s.phase_items[t.game_id]))


def _results(answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["order_str"]: r for r in answer["resolution"]["results"]}


@pytest.fixture
def pending(table: Table) -> Table:
    """France and Germany have sent orders; Germany's are its secret."""
    submit_orders(table.store, table.clock, table.game_id, table.player("FRANCE"), ["A PAR - BUR"])
    submit_orders(table.store, table.clock, table.game_id, table.player("GERMANY"),
                  ["A MUN - BUR", "A BER S A MUN - BUR"])
    return table


def test_the_callers_pending_orders_against_guesses_with_explanations(pending: Table) -> None:
    # Given France's pending A PAR - BUR; When it guesses a lone German move to Burgundy
    before = _snapshot(pending)
    answer = what_if(pending.store, pending.game_id, pending.player("FRANCE"), {"germany": ["A MUN - BUR"]})
    # Then the preview is the engine's, with explanations, and nothing was written
    results = _results(answer)
    assert answer["own_orders"] == "pending" and answer["power"] == "FRANCE"
    assert results["A PAR - BUR"]["result"] == "BOUNCE"
    assert results["A PAR - BUR"]["explanation"]["text"] == (
        "A PAR's move to BUR stood off with A MUN (1 against 1).")
    assert answer["next"]["phase"] == "F1901M"
    assert _snapshot(pending) == before


def test_other_powers_pending_orders_never_take_part_or_show(pending: Table) -> None:
    # When France guesses nothing for Germany
    answer = what_if(pending.store, pending.game_id, pending.player("FRANCE"), {})
    # Then Germany's units hold as if it had not ordered, and its real orders appear nowhere
    results = _results(answer)
    assert results["A PAR - BUR"]["result"] == "OK"
    assert results["A MUN H"]["reason"]["code"] == "NO_ORDER"
    text = json.dumps(answer)
    assert "MUN - BUR" not in text and "S A MUN" not in text


def test_the_callers_own_orders_in_the_body_replace_its_pending_ones(pending: Table) -> None:
    answer = what_if(pending.store, pending.game_id, pending.player("FRANCE"),
                     {"FRANCE": ["A PAR - PIC"], "GERMANY": ["A MUN - BUR"]})
    assert answer["own_orders"] == "given"
    assert _results(answer)["A PAR - PIC"]["result"] == "OK"
    assert _results(answer)["A MUN - BUR"]["result"] == "OK"
    assert pending.store.load(pending.game_id).pending_orders["FRANCE"] == ["A PAR - BUR"]


def test_only_a_seated_player_of_the_current_phase(pending: Table) -> None:
    with pytest.raises(errors.NotAPlayer):
        what_if(pending.store, pending.game_id, Actor("anonymous"), {})
    with pytest.raises(errors.Forbidden):
        what_if(pending.store, pending.game_id, Actor("creator"), {})
    with pytest.raises(errors.StalePhase):
        what_if(pending.store, pending.game_id, pending.player("FRANCE"), {}, phase="F1901M")
    with pytest.raises(errors.UnknownPower):
        what_if(pending.store, pending.game_id, pending.player("FRANCE"), {"ATLANTIS": ["A PAR H"]})
