"""Backgammon rules speed: whole random games through `backgammon.step` (issue 18).

Prints one table: games, steps (rolls + moves), seconds, steps per second, and the mean time of
`legal_moves` (the view's menu and the bot's choice; it runs the forced-dice search for every
candidate). Numbers are for this machine; they compare versions, they are not a test.
Run: .venv/bin/python bench/backgammon_bench.py [games]
"""

from __future__ import annotations

import random
import sys
import time

import backgammon as bg


def play(seed: int) -> tuple[int, float, int]:
    """One game of random legal moves; (steps, seconds in legal_moves, legal_moves calls)."""
    state, _ = bg.new_game()
    rng, steps, menu_time, menus = random.Random(seed), 0, 0.0, 0
    while state.phase is not bg.Phase.OVER:
        if state.phase is bg.Phase.MOVING:
            started = time.perf_counter()
            moves = bg.legal_moves(state)
            menu_time += time.perf_counter() - started
            menus += 1
            state, _ = bg.step(state, (bg.InputType.MOVE, rng.choice(moves)))
        else:
            state, _ = bg.step(state, bg.Roll(bg.seeded_roll(seed, state.rolls)))
        steps += 1
    return steps, menu_time, menus


def main(games: int = 50) -> None:
    started = time.perf_counter()
    results = [play(seed) for seed in range(games)]
    seconds = time.perf_counter() - started
    steps = sum(r[0] for r in results)
    menu = sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
    print(f"{'games':>6} {'steps':>7} {'seconds':>8} {'steps/s':>8} {'legal_moves ms':>15}")
    print(f"{games:>6} {steps:>7} {seconds:>8.2f} {steps / seconds:>8.0f} {menu * 1000:>15.3f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
