"""engine.simple_orders, the dummy powers' player (issue 12 item 8, seed W9): legal,
deterministic per seed, and more than holds (moves towards centres, supports, builds)."""

from __future__ import annotations

import engine

CLASSICAL = engine.load_map("classical")


def _play(seed: str, phases: int, the_map: engine.MapData = CLASSICAL) -> list[tuple[str, engine.Resolution]]:
    game = engine.Game(map=the_map, state=engine.initial_state(the_map))
    played = []
    for _ in range(phases):
        state = game.state
        assert state is not None
        if state.status is engine.GameStatus.COMPLETED:
            break
        orders = {p: engine.simple_orders(state, the_map, p, f"{seed}:{state.phase_name}")
                  for p in sorted(the_map.power_ids)}
        game, resolution = game.adjudicate(orders)
        played.append((state.phase_name, resolution))
    return played


def test_every_order_is_legal_in_every_phase_kind() -> None:
    played = _play("legal", 30)
    kinds = {name[-1] for name, _ in played}
    assert kinds == {"M", "R", "A"}  # movement, retreats and adjustments were all played
    for name, resolution in played:
        void = [r for r in resolution.results if r.result is engine.ResultCode.VOID]
        assert void == [], (name, void)


def test_the_same_seed_gives_the_same_orders_and_another_seed_may_not() -> None:
    state = engine.initial_state(CLASSICAL)
    first = engine.simple_orders(state, CLASSICAL, "FRANCE", "g1:S1901M")
    assert engine.simple_orders(state, CLASSICAL, "FRANCE", "g1:S1901M") == first
    seeds = [f"g{i}:S1901M" for i in range(20)]
    others = {tuple(engine.simple_orders(state, CLASSICAL, "FRANCE", seed)) for seed in seeds}
    assert len(others) > 1
    for order in first:
        assert engine.validate(order, state, CLASSICAL).ok


def test_it_moves_towards_centres_supports_and_builds() -> None:
    played = _play("strategy", 24)
    results = [r for _, resolution in played for r in resolution.results]
    kinds = {type(r.order).__name__ for r in results}
    assert {"Move", "SupportMove", "Build"} <= kinds
    opening = [r.order for r in played[0][1].results]
    assert sum(isinstance(o, engine.Move) for o in opening) >= 15  # of 22 units, most set out
    assert len([r for r in results if r.result is engine.ResultCode.BUILD]) > 0


def test_other_variants_too() -> None:
    the_map = engine.load_map("1900")
    played = _play("1900", 12, the_map)
    assert all(r.result is not engine.ResultCode.VOID for _, res in played for r in res.results)
