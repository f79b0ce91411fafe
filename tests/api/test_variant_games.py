"""Every packaged variant plays a random legal game of at least ten years through the API.

Issue 35's definition of done: ``GET /variants`` lists every variant, and for each a game of
random legal orders (``bench.random_play``'s player) is created, joined by every power,
ordered and processed phase by phase through the API handler in process (the same requests a
client sends: create, join, view, orders, process_turn, export), while bench.random_play's
invariants (tests/engine/test_random_games.py ``check_phase``, on the variant's map) are
checked after every phase, and the API's board is compared with the engine's own
adjudication of the same orders. A variant whose random games end early (Pure and Hundred
often end in a solo) plays further seeds until one game lasts ten years; every game played is
checked. The map of each variant is drawn once (PNG) from the running game.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import engine
from bench.random_play import PlayedPhase, Style, choose_orders, legal_menus
from engine import GameState, GameStatus, MapData, Order
from testkit.api_harness import OPERATOR_TOKEN, InProcessApi
from tests.engine.test_random_games import check_phase

VARIANTS = engine.available_maps()
YEARS = 10
SEEDS_TRIED = 12  # a variant whose every game ends in a solo before ten years fails
# Every order the player gives is accepted at submission: no deliberate extra build (the
# engine's own property tests cover builds refused one by one at adjudication).
STYLE = Style(extra_build=0.0)


def test_get_variants_lists_every_packaged_map(api: InProcessApi) -> None:
    listed = api.call("GET", "/variants").body["variants"]
    assert [v["name"] for v in listed] == sorted(VARIANTS)
    assert len(listed) >= 10
    for entry in listed:
        assert entry["powers"] == list(engine.load_map(entry["name"]).power_ids)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_random_game_of_ten_years_through_the_api(api: InProcessApi, variant: str) -> None:
    board = engine.load_map(variant)
    years = []
    for seed in range(SEEDS_TRIED):
        years.append(_play(api, board, seed))
        if years[-1] >= YEARS:
            break
    assert max(years) >= YEARS, f"{variant}: no game lasted {YEARS} years in {years}"


def _play(api: InProcessApi, board: MapData, seed: int) -> int:
    """One game through the API, every phase checked; returns the years it lasted."""
    rng, checks = random.Random(seed), random.Random(seed ^ 0x35)
    game_id, tokens = _new_game(api, board)
    state = engine.initial_state(board)
    _same_board(api, game_id, state)
    history = [state]
    while state.status is GameStatus.ACTIVE and state.year < board.start_year + YEARS:
        menus = legal_menus(state, board)
        _menus_offered(api, game_id, tokens, menus, checks)
        orders = _submit(api, game_id, tokens, state, choose_orders(state, board, rng, STYLE, menus))
        processed = api.call(
            "POST", f"/games/{game_id}/process_turn", {"phase": state.phase_name}, token=OPERATOR_TOKEN
        )
        assert processed.status == 200, processed.raw
        state, resolution = _adjudicate(board, state, orders, menus, checks)
        _same_results(processed.body["resolution"]["results"], resolution)
        history.append(state)
        # The API goes on by itself through phases where nobody has a decision to make.
        while state.status is GameStatus.ACTIVE and not engine.powers_with_orders_to_give(state, board):
            state, _ = _adjudicate(board, state, {}, {}, checks)
            history.append(state)
        _same_board(api, game_id, state)
    _same_history(api, game_id, history)
    if seed == 0:
        picture = api.raw("GET", f"/games/{game_id}/map?format=png&width=600")
        assert picture.status == 200 and picture.headers.get("Content-Type", "").startswith("image/png")
    return state.year - board.start_year


def _adjudicate(
    board: MapData,
    state: GameState,
    orders: dict[str, list[Order]],
    menus: dict[str, list[Order]],
    checks: random.Random,
) -> tuple[GameState, engine.Resolution]:
    """The engine's own adjudication of the phase, with every invariant checked."""
    following, resolution = engine.Game(map=board, state=state).adjudicate(orders)
    check_phase(PlayedPhase(state, orders, menus, following.current, resolution), "2023", checks, board)
    return engine.concluded(following.current), resolution


def _new_game(api: InProcessApi, board: MapData) -> tuple[str, dict[str, str]]:
    created = api.call("POST", "/games", {"variant": board.map_id})
    assert created.status == 201, created.raw
    game_id = created.body["game_id"]
    tokens = {}
    for power in board.power_ids:
        joined = api.call("POST", f"/games/{game_id}/join", {"power": power})
        assert joined.status == 200, joined.raw
        tokens[power] = joined.body["token"]
    return game_id, tokens


def _menus_offered(
    api: InProcessApi, game_id: str, tokens: dict[str, str], menus: dict[str, list[Order]], rng: random.Random
) -> None:
    """The view offers a power exactly the engine's menu (one power a phase, in turn)."""
    if not menus:
        return
    power = rng.choice(sorted(menus))
    view = api.call("GET", f"/games/{game_id}", token=tokens[power]).body
    assert view["legal_orders"] == sorted(engine.format_order(o) for o in menus[power])


def _submit(
    api: InProcessApi, game_id: str, tokens: dict[str, str], state: GameState, orders: dict[str, list[Order]]
) -> dict[str, list[Order]]:
    """Each power's orders as text; the ones the API kept. The player sometimes adds a waive
    to a full set of builds, which the API refuses at once (TOO_MANY_BUILDS) and nothing else."""
    kept: dict[str, list[Order]] = {}
    for power, given in sorted(orders.items()):
        texts = [engine.format_order(o) for o in given]
        answer = api.call(
            "POST",
            f"/games/{game_id}/orders",
            {"orders": texts, "phase": state.phase_name},
            token=tokens[power],
        )
        assert answer.status == 200, answer.raw
        refused = answer.body["rejected"]
        assert all(r["code"] == "TOO_MANY_BUILDS" and r["order"] == "WAIVE" for r in refused), refused
        kept[power] = given[: len(given) - len(refused)] if refused else given
        assert [engine.format_order(o) for o in kept[power]] == answer.body["orders"]
    return kept


def _same_results(results: list[dict[str, Any]], resolution: engine.Resolution) -> None:
    api_side = Counter((r["order_str"], r["result"]) for r in results)
    engine_side = Counter((engine.format_order(r.order), r.result.value) for r in resolution.results)
    assert api_side == engine_side


def _same_board(api: InProcessApi, game_id: str, state: GameState) -> None:
    """The API's view is the engine's position: phase, units, ownership, dislodged units."""
    view = api.call("GET", f"/games/{game_id}").body
    assert view["phase"] == state.phase_name and view["status"] == state.status.value
    assert {(u["kind"], u["power"], u["location"]) for u in view["units"]} == {
        (u.kind.value, u.power, str(u.location)) for u in state.units
    }
    assert view["ownership"] == dict(state.ownership)
    assert sorted(d["unit"]["location"] for d in view["dislodged"]) == sorted(
        str(d.unit.location) for d in state.dislodged
    )


def _same_history(api: InProcessApi, game_id: str, history: list[GameState]) -> None:
    """The export's phases are the engine's positions, one by one."""
    exported = api.call("GET", f"/games/{game_id}/export").body
    states = [engine.state_from_dict(p["state"]) for p in exported["phases"]]
    assert [s.phase_name for s in states] == [s.phase_name for s in history[:-1]]
    for stored, played in zip(states, history, strict=False):
        assert stored.units == played.units and stored.ownership == played.ownership
