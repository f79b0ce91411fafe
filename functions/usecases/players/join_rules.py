"""Joining by record (issue 34 item 3): a game may ask a minimum reliability or rating.

The check runs inside the join's load-modify-save (``join_game(admit=...)``), on the game as
read, before anything is written: a refusal changes nothing. The record is the player's
profile (functions/usecases/community/player_records.py keeps it): reliability is the share of the phases
owed in rated games that were ordered on time; the rating is the OpenSkill ordinal in the
game's variant (a newcomer's is 0, the model's prior mu 25 - 3 x sigma 25/3).

Answers:
- not signed in (a seat token cannot carry a record): 401 ``RECORD_REQUIRED``;
- below a minimum: 403 ``RECORD_TOO_LOW``, naming the minimum and the player's figure; a
  player with no phase owed yet has no reliability, so a game asking one does not admit them.
"""

from __future__ import annotations

from collections.abc import Callable

from functions.errors import DomainError
from functions.ports import GameRecord
from functions.ports.community import CommunityStore
from functions.usecases.players.community_settings import MIN_RATING, MIN_RELIABILITY, requirements


class RecordRequired(DomainError):
    """This game admits players by their record: sign in."""

    code = "RECORD_REQUIRED"
    status = 401


class RecordTooLow(DomainError):
    """The player's record is below the game's minimum."""

    code = "RECORD_TOO_LOW"
    status = 403


def on_time_percent(store: CommunityStore, user_id: str) -> float | None:
    stats = store.stats(user_id)
    owed = int(stats.counts.get("phases_owed", 0)) if stats else 0
    return 100.0 * int(stats.counts.get("on_time", 0)) / owed if stats and owed else None


def rating_ordinal(store: CommunityStore, user_id: str, variant: str) -> float:
    rating = store.rating(user_id, variant)
    return rating.ordinal if rating else 0.0


def check_record(game: GameRecord, user_id: str | None, store: CommunityStore) -> None:
    """Nothing if ``user_id`` may join ``game``; ``RECORD_REQUIRED`` or ``RECORD_TOO_LOW`` if not."""
    wanted = requirements(game.settings)
    if not wanted:
        return
    if user_id is None:
        raise RecordRequired("this game admits players by their record: sign in to join it")
    if MIN_RELIABILITY in wanted:
        share = on_time_percent(store, user_id)
        if share is None or share < wanted[MIN_RELIABILITY]:
            shown = "no phases yet" if share is None else f"{share:.0f}%"
            raise RecordTooLow(f"this game asks {wanted[MIN_RELIABILITY]}% of phases ordered on time; "
                               f"your record: {shown}", minimum=wanted[MIN_RELIABILITY],
                               requirement=MIN_RELIABILITY)
    if MIN_RATING in wanted:
        rating = rating_ordinal(store, user_id, game.variant)
        if rating < wanted[MIN_RATING]:
            raise RecordTooLow(f"this game asks a {game.variant} rating of {wanted[MIN_RATING]}; "
                               f"yours: {rating:.1f}", minimum=wanted[MIN_RATING],
                               requirement=MIN_RATING)


def admission(store: CommunityStore, user_id: str | None) -> Callable[[GameRecord], None]:
    """The ``admit`` check ``join_game`` runs on the game it read."""
    return lambda game: check_record(game, user_id, store)
