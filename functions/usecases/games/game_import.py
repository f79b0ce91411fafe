"""Import an export document as a new game (``POST /games/import``, seed W5).

Who and how much (issue 28 item 1: the route was anonymous, and a 3.2 MB document of 2,000
phases took 10 s and wrote 2,000 records for anyone who asked):

- **who**: a signed-in account (ID token; it becomes the game's creator, as with
  ``POST /games``) or the operator token. Anyone else, a seat token included, gets 401
  ``NOT_SIGNED_IN`` before the document is read;
- **how often**: ``IMPORTS_PER_HOUR`` imports per account in a fixed hour window (one
  conditional write, the ``RateCounter`` port), then 429 ``TOO_MANY_IMPORTS`` with
  ``Retry-After``; the operator is not counted. API Gateway's route throttle
  (template.yaml) bounds all callers together;
- **how big**: the body at most ``MAX_IMPORT_BYTES`` (functions/api/body_guard.py, 413
  ``PAYLOAD_TOO_LARGE``), at most ``import_replay.MAX_PHASES`` phases (422 ``BAD_IMPORT``);
- **what**: everything the document says is checked and replayed before anything is written
  (functions/usecases/turns/import_replay.py); the game's results, status and winner come from
  the replay, never from the document.

The new game is at the document's last position with every seat open (an imported game
comes back open, as the seed says: no players, no password); the importer gets the creator
token. Writing: the META item is created first with status ``IMPORTING`` (nothing may play
it), then each phase is appended with ``commit_turn``, the last write setting the status the
replay proved; an interrupted import leaves an ``IMPORTING`` game nobody can play, never a
half-imported playable one.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping
from typing import Any

import engine
from functions.errors import TooManyImports
from functions.ports import Clock, GameRecord, GameStore, RateCounter
from functions.usecases.game import add_event, iso
from functions.usecases.games.create_game import Created
from functions.usecases.players import hash_token, new_token
from functions.usecases.turns import replay_document

IMPORTS_PER_HOUR = 10
WINDOW_SECONDS = 3600


def take_import_slot(counter: RateCounter | None, user_id: str | None, now: float) -> None:
    """Count one import against the account's hour (``user_id`` None: the operator, not counted)."""
    if counter is None or user_id is None:
        return
    window = int(now) // WINDOW_SECONDS * WINDOW_SECONDS
    if not counter.take(f"import:user:{user_id}", window, IMPORTS_PER_HOUR, window + 2 * WINDOW_SECONDS):
        wait = max(1, math.ceil(window + WINDOW_SECONDS - now))
        raise TooManyImports(f"at most {IMPORTS_PER_HOUR} imports an hour per account; retry in {wait} s",
                             retry_after=wait)


def import_game(store: GameStore, clock: Clock, document: Mapping[str, Any],
                creator_user_id: str | None = None) -> Created:
    """A new game from ``document`` at its last position, every seat open; ``BAD_IMPORT`` (422)
    and nothing written if it does not check out."""
    replayed = replay_document(document)
    now = clock.now()
    token = new_token()
    game = GameRecord(
        game_id=secrets.token_hex(6), variant=replayed.variant, rules=replayed.rules, created_at=iso(now),
        creator_token_hash=hash_token(token), state=engine.state_to_dict(replayed.state),
        phase=replayed.state.phase_name, phase_started_at=iso(now),
        status="IMPORTING" if replayed.phases else replayed.status, phase_index=len(replayed.phases),
        settings=replayed.settings, result=replayed.result, creator_user_id=creator_user_id,
    )
    imported = {"from": replayed.source_game_id, "phases": len(replayed.phases)}
    event = add_event(game, "GAME_IMPORTED", imported, now)
    stored = store.create(game, [event])
    for i, phase in enumerate(replayed.phases):
        if i == len(replayed.phases) - 1:
            stored.status = replayed.status
        stored = store.commit_turn(stored, expected_version=stored.version, phases=[phase])
    return Created(game_id=game.game_id, token=token)
