"""Writes cicero_layout_game.json: a game adjudicated by MILA's ``diplomacy`` package, saved in
the layout of the webDiplomacy games Meta published with Cicero (facebookresearch/
diplomacy_cicero, data/cicero_redacted_games/game_*.json): top level ``id``,
``is_full_press``, ``map``, ``phases``, ``scoring_system``, ``version``; each phase ``logs``,
``messages``, ``name``, ``orders``, ``results`` (empty, as there), and ``state`` with
``builds``, ``centers``, ``homes``, ``name``, ``retreats``, ``units``.

The orders are drawn at random (seeded) from MILA's possible orders, so the positions come
from an adjudicator that is not Convoy's. One power gives no disbands when it owes some
(civil disorder: the adjudicator picks), and one power misses a movement phase. Seed 37 is
the first from 34 whose game has retreats and such a civil-disorder adjustment (W1904A).

Run by hand with the bench extra: ``python tests/community/data/make_cicero_layout_game.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from diplomacy import Game

STATE_KEYS = ("builds", "centers", "homes", "name", "retreats", "units")
OUT = Path(__file__).with_name("cicero_layout_game.json")


def _orders(game: Game, rng: random.Random, phase_index: int) -> dict[str, list[str]]:
    possible = game.get_all_possible_orders()
    out: dict[str, list[str]] = {}
    for name, power in sorted(game.powers.items()):
        locations = sorted(game.get_orderable_locations(name))
        if game.phase_type == "A":
            count = len(power.centers) - len(power.units)
            if count < 0 and name == "ITALY":
                out[name] = []  # civil disorder: the adjudicator chooses the disbands
                continue
            choices = sorted({o for loc in locations for o in possible[loc] if o != "WAIVE"})
            wanted = [o for o in choices if o.endswith(" D")] if count < 0 else \
                [o for o in choices if o.endswith(" B")]
            rng.shuffle(wanted)
            picked: list[str] = []
            for order in wanted:
                taken = {p.split()[1][:3] for p in picked}
                if len(picked) < abs(count) and order.split()[1][:3] not in taken:
                    picked.append(order)
            out[name] = picked
        elif name == "GERMANY" and phase_index == 3:
            out[name] = []  # a missed movement phase: every unit holds
        else:
            out[name] = [rng.choice(sorted(possible[loc])) for loc in locations if possible[loc]]
    return out


def main(seed: int = 37, years: int = 8) -> None:
    rng = random.Random(seed)
    game = Game(map_name="standard")
    phases: list[dict[str, Any]] = []
    while game.get_current_phase() != f"S{1901 + years}M" and not game.is_game_done:
        orders = _orders(game, rng, len(phases))
        state = game.get_state()
        for power, given in orders.items():
            game.set_orders(power, given)
        phases.append({"logs": [], "messages": [], "name": state["name"], "orders": orders, "results": {},
                       "state": {k: state[k] for k in STATE_KEYS}})
        game.process()
    state = game.get_state()
    phases.append({"logs": [], "messages": [], "name": state["name"], "orders": {}, "results": {},
                   "state": {k: state[k] for k in STATE_KEYS}})
    document = {"id": f"convoy-fixture-{seed}", "is_full_press": False, "map": "standard", "phases": phases,
                "scoring_system": "sum_of_squares", "version": "1.0"}
    OUT.write_text(json.dumps(document, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
