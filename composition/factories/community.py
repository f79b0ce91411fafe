"""The community (issue 34): ratings, profiles, the archive and tournaments (openskill's area:
the API and the notifier, which records a finished game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from composition import wiring

if TYPE_CHECKING:
    from functions.ports.community import CommunityStore


@wiring.once
def community_store() -> CommunityStore:
    """Ratings, profiles, the archive and tournaments in the game table."""
    from infra.dynamodb.community_store import DynamoCommunityStore

    return DynamoCommunityStore(wiring.settings().game_table)


def record_finished(game_id: str) -> bool:
    """The notifier's step for GAME_ENDED (functions/usecases/community/player_records.py)."""
    from functions.usecases.community import record_finished_game

    return record_finished_game(wiring.services().store, community_store(), game_id)


wiring.provide("community_store", lambda: community_store())  # looked up at call time (tests swap it)
