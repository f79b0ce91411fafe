"""What-if inside a game (issue 31 item 5): a seated player previews the current phase.

``POST /games/{id}/whatif`` adjudicates the game's current position (its variant, rulebook
and state, as stored) with the caller's own orders against orders the caller guesses for
others, and answers exactly as the sandbox's ``POST /adjudicate`` does (functions/usecases/
sandbox.py ``adjudicate``: every order's validation answer, the resolution with reasons and
explanations, the next position). Why a form by game id beside ``POST /adjudicate``, which
already takes any position: the client need not rebuild the engine's state from the view
(retreat options, standoff provinces, rulebook), and the caller's pending orders are
already on the server.

What it promises:

* **Nothing is stored.** One read of the game; no save, no event, no outbox, no phase item,
  no rate-limit counter (the route is for seated players, authenticated, and costs what
  a ``GET /games/{id}`` costs plus one adjudication).
* **It never reveals another power's pending orders.** They are never read into the
  request: the other powers' orders are only the caller's guesses (a power with none
  holds), so every answer follows from what the caller sent and the public position.
* The caller's own orders: those the body gives for the caller's power, else the caller's
  pending orders (``own_orders`` says which). A player is told of no other power's orders.
* **In a fog game it reads nothing from the fog** (functions/usecases/players/fog_of_war.py): the
  position adjudicated is the one the caller sees, so the answer shows nothing else.
* ``phase``, when sent, must be the game's current phase (``STALE_PHASE`` otherwise), so a
  preview never silently answers for a phase that has moved on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from functions.errors import StalePhase
from functions.ports import GameStore
from functions.usecases.game import load_active, state_of
from functions.usecases.players import Actor, require_player, seen_by
from functions.usecases.sandbox import positions, sandbox


def what_if(
    store: GameStore,
    game_id: str,
    actor: Actor,
    guesses: Mapping[str, Sequence[str]],
    *,
    phase: str | None = None,
    include_compact: bool = False,
) -> dict[str, Any]:
    """Adjudicate the game's current phase with the caller's orders and ``guesses`` for the
    other powers (standard notation, as order entry takes them); store nothing."""
    power = require_player(actor)
    game = load_active(store, game_id)
    if phase is not None and phase != game.phase:
        raise StalePhase(f"what-if for {phase}, but the game is at {game.phase}", phase=game.phase)
    # a game of another kind is WRONG_GAME_KIND; a fog game is previewed on what the caller sees
    state = seen_by(game, actor, state_of(game))
    orders = {p.strip().upper(): list(texts) for p, texts in guesses.items()}
    own = "given" if power in orders else "pending"
    if own == "pending":
        orders[power] = list(game.pending_orders.get(power, []))  # the caller's own, and no one else's
    position = positions.PositionRequest(
        variant=game.variant, rules=game.rules, state=engine.state_to_dict(state)
    )
    done = sandbox.adjudicate(position, orders, include_compact=include_compact)
    return {"game_id": game_id, "power": power, "own_orders": own, **done}
