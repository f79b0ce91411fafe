"""Key helpers for the single game table (shared/ARCHITECTURE.md §3).

| pk          | sk                          | item                         |
|-------------|-----------------------------|------------------------------|
| GAME#<id>   | META                        | the live game                |
| GAME#<id>   | PHASE#<n:06d>#<phase>       | one adjudicated phase        |
| GAME#<id>   | EVENT#<seq:010d>            | the event log                |
| GAME#<id>   | OUTBOX#<seq:010d>           | a notification to deliver    |

The index ``by_kind`` (``kind`` = "GAME", ``created_at``) lists games, projecting only
the listing's fields. The sparse index ``by_due`` (``due_bucket`` = "DUE#<00..15>",
``due_at`` = the deadline, ISO) holds the META items of active, unpaused games with a
running deadline: the sweeper queries each bucket for ``due_at <= now`` (docs/scaling.md).
"""

from __future__ import annotations

import zlib

META = "META"
PHASE_PREFIX = "PHASE#"
EVENT_PREFIX = "EVENT#"
OUTBOX_PREFIX = "OUTBOX#"
GAME_KIND = "GAME"
LIST_INDEX = "by_kind"
DUE_INDEX = "by_due"
DUE_BUCKETS = 16
LISTING_FIELDS = (
    "game_id", "variant", "rules", "phase", "status", "seated", "is_private", "created_at", "lobby",
)
# The settings a listing needs (the game's kind, its dummies, demo), copied into ``lobby``
# with the seats' status and the result: small, and no secret among them.
LOBBY_SETTINGS = ("game", "dummy_powers", "demo", "press", "anonymous", "name")


def due_bucket(game_id: str) -> str:
    """The deadline index bucket of a game: stable, spread evenly by a hash of its id."""
    return f"DUE#{zlib.crc32(game_id.encode()) % DUE_BUCKETS:02d}"


def due_buckets() -> list[str]:
    return [f"DUE#{n:02d}" for n in range(DUE_BUCKETS)]


def game_pk(game_id: str) -> str:
    return f"GAME#{game_id}"


def phase_sk(n: int, phase: str) -> str:
    return f"{PHASE_PREFIX}{n:06d}#{phase}"


def event_sk(seq: int) -> str:
    return f"{EVENT_PREFIX}{seq:010d}"


def outbox_sk(seq: int) -> str:
    return f"{OUTBOX_PREFIX}{seq:010d}"
