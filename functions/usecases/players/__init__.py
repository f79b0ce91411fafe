"""Who the players are: callers and their tokens (identity), the roster of seats, the ballots of draws
and concessions, the join limits.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.players.ballots import ballot, votes_seen_by
from functions.usecases.players.community_settings import community_settings
from functions.usecases.players.fog_of_war import (
    event_seen,
    fog_block,
    fogged,
    is_fog_game,
    last_resolution,
    names_in,
    own_resolution,
    phase_entry,
    seen_by,
    seer,
    sight,
)
from functions.usecases.players.identity import (
    ANONYMOUS,
    SCHEDULER,
    Actor,
    check_password,
    hash_password,
    hash_token,
    identify,
    identify_digest,
    new_token,
    require_player,
)
from functions.usecases.players.join_limits import check_join_allowed, counted_parties, record_failed_join
from functions.usecases.players.join_rules import admission
from functions.usecases.players.roster import (
    CIVIL_DISORDER,
    OPEN,
    active_powers,
    all_powers,
    dummy_powers,
    excused,
    has_started,
    in_civil_disorder,
    open_seats,
    seat_status,
    waited_on,
)
from functions.usecases.players.seat_holders import holders_of, remember_holder

__all__ = [
    "ANONYMOUS",
    "Actor",
    "CIVIL_DISORDER",
    "OPEN",
    "SCHEDULER",
    "active_powers",
    "admission",
    "all_powers",
    "ballot",
    "check_join_allowed",
    "check_password",
    "community_settings",
    "counted_parties",
    "dummy_powers",
    "event_seen",
    "excused",
    "fog_block",
    "fogged",
    "has_started",
    "hash_password",
    "hash_token",
    "holders_of",
    "identify",
    "identify_digest",
    "in_civil_disorder",
    "is_fog_game",
    "last_resolution",
    "names_in",
    "new_token",
    "open_seats",
    "own_resolution",
    "phase_entry",
    "record_failed_join",
    "remember_holder",
    "require_player",
    "seat_status",
    "seen_by",
    "seer",
    "sight",
    "votes_seen_by",
    "waited_on",
]
