"""Which account took each seat, kept for the players' records (issue 34).

A game's events name powers, not accounts, and the seat's account leaves the game record
when the seat is given up. So when an account takes a seat, the seq of that PLAYER_JOINED
event is mapped to the account in the game's settings (``seat_holders``): server-side only,
since views, listings and exports name the settings they show (none shows this one).
One short entry per join, so the game record stays bounded (seats x replacements).
functions/usecases/community/player_records.py reads it when the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping

from functions.ports import GameRecord

HOLDERS = "seat_holders"


def remember_holder(game: GameRecord, joined_seq: int, user_id: str) -> None:
    """Record (working copy) that ``user_id`` took a seat with the event ``joined_seq``."""
    holders = dict(game.settings.get(HOLDERS) or {})
    holders[str(joined_seq)] = user_id
    game.settings[HOLDERS] = holders


def holders_of(game: GameRecord) -> Mapping[int, str]:
    return {int(seq): str(user) for seq, user in (game.settings.get(HOLDERS) or {}).items()}
