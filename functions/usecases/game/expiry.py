"""Games that never start are forgotten (issue 28 item 13: lobby spam was permanent).

A game created with seats to fill carries an expiry, ``UNSTARTED_GAME_DAYS`` after its
creation (functions/ports: the store stamps it on META for the table's TTL); the join that
fills the game, or dummies that fill it, start it, and a started game never expires. On AWS
DynamoDB's TTL deletes the expired META (typically within a day or two of its time; until
then the game still answers); the local stack deletes expired items on its own schedule
(local_stack/expiry_pump.py). Deleting META is not the end: the game's events, notices, its
powers' items and press are its other items, and ``forget_game`` removes them when the
table's stream reports META gone (the relay, functions/relay/handler.py). Nothing else ever
deletes a META, so a META removed is always a game to forget.
"""

from __future__ import annotations

from functions.ports import GameStore, ItemNotFound


def forget_game(store: GameStore, game_id: str) -> int:
    """Delete what is left of a game whose META is gone; how many items that was. A game whose
    META is there (a stream record replayed after the id was somehow used again) is kept: 0."""
    try:
        store.load(game_id)
    except ItemNotFound:
        return store.delete_game(game_id)
    return 0
