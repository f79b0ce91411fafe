"""Key helpers for the single game table (shared/ARCHITECTURE.md §3).

| pk          | sk                          | item                         |
|-------------|-----------------------------|------------------------------|
| GAME#<id>   | META                        | the live game                |
| GAME#<id>   | META#POWER#<power>          | what one power decided this phase (orders, wait flag, votes) |
| GAME#<id>   | META#PRESS#<power>          | one power's press ledger (infra/dynamodb/press_store.py) |
| GAME#<id>   | PHASE#<n:06d>#<phase>       | one adjudicated phase        |
| GAME#<id>   | EVENT#<seq:010d>            | the event log                |
| GAME#<id>   | OUTBOX#<seq:010d>           | a notification to deliver    |

The index ``by_kind`` (``kind`` = "GAME", ``created_at``) lists games, projecting only
the listing's fields. The sparse index ``by_due`` (``due_bucket`` = "DUE#<00..15>",
``due_at`` = the deadline, ISO) holds the META items of active, unpaused games with a
running deadline: the sweeper queries each bucket for ``due_at <= now`` (docs/scaling.md).

Why the powers' items and ledgers sort right after META (layout 2, issue 29): a game's head is
one ``Query`` (``sk`` from ``META`` to ``META#POWER#~`` for a turn or an order; to
``META#PRESS#~`` for a player's view, which shows the caller's unread press too), and an order,
a wait flag or a vote writes the power's own small item instead of META. A game stored before
(layout 1, no ``layout`` attribute on META) keeps its decisions in META until its next META
write moves them to the powers' items, and its ledgers at ``PRESS#POWER#<power>`` until each
is next written (read there when the new key is absent): migration on read, nothing to run.
"""

from __future__ import annotations

import zlib

META = "META"
POWER_PREFIX = "META#POWER#"
LEDGER_PREFIX = "META#PRESS#"
LEGACY_LEDGER_PREFIX = "PRESS#POWER#"  # where layout 1 kept a power's press ledger
HEAD_END = "META#POWER#~"  # a turn's or an order's read: META and the powers' items
VIEW_END = "META#PRESS#~"  # a player's view: the ledgers too
LAYOUT = 2  # the key layout new games are stored in (the module text)
PHASE_PREFIX = "PHASE#"
EVENT_PREFIX = "EVENT#"
OUTBOX_PREFIX = "OUTBOX#"
GAME_KIND = "GAME"
LIST_INDEX = "by_kind"
DUE_INDEX = "by_due"
DUE_BUCKETS = 16
# The settings a listing needs (the game's kind, its dummies, demo, press mode, fog), copied into
# ``lobby`` with the seats' status and the result: small, and no secret among them.
LOBBY_SETTINGS = ("game", "dummy_powers", "demo", "press", "anonymous", "name", "fog")


def due_bucket(game_id: str) -> str:
    """The deadline index bucket of a game: stable, spread evenly by a hash of its id."""
    return f"DUE#{zlib.crc32(game_id.encode()) % DUE_BUCKETS:02d}"


def due_buckets() -> list[str]:
    return [f"DUE#{n:02d}" for n in range(DUE_BUCKETS)]


def game_pk(game_id: str) -> str:
    return f"GAME#{game_id}"


def power_sk(power: str) -> str:
    return f"{POWER_PREFIX}{power}"


def ledger_sk(power: str) -> str:
    return f"{LEDGER_PREFIX}{power}"


def phase_sk(n: int, phase: str) -> str:
    return f"{PHASE_PREFIX}{n:06d}#{phase}"


def event_sk(seq: int) -> str:
    return f"{EVENT_PREFIX}{seq:010d}"


def outbox_sk(seq: int) -> str:
    return f"{OUTBOX_PREFIX}{seq:010d}"
