"""Key helpers for the single game table (shared/ARCHITECTURE.md §3).

| pk          | sk                          | item                         |
|-------------|-----------------------------|------------------------------|
| GAME#<id>   | META                        | the live game                |
| GAME#<id>   | PHASE#<n:06d>#<phase>       | one adjudicated phase        |
| GAME#<id>   | EVENT#<seq:010d>            | the event log                |
| GAME#<id>   | OUTBOX#<seq:010d>           | a notification to deliver    |

The sparse index ``by_kind`` (``kind`` = "GAME", ``created_at``) lists games; only
META items carry ``kind``.
"""

from __future__ import annotations

META = "META"
PHASE_PREFIX = "PHASE#"
EVENT_PREFIX = "EVENT#"
OUTBOX_PREFIX = "OUTBOX#"
GAME_KIND = "GAME"
LIST_INDEX = "by_kind"


def game_pk(game_id: str) -> str:
    return f"GAME#{game_id}"


def phase_sk(n: int, phase: str) -> str:
    return f"{PHASE_PREFIX}{n:06d}#{phase}"


def event_sk(seq: int) -> str:
    return f"{EVENT_PREFIX}{seq:010d}"


def outbox_sk(seq: int) -> str:
    return f"{OUTBOX_PREFIX}{seq:010d}"
