"""The opaque cursor of ``GET /games/{id}/history`` (issue 11: history read page by page).

A cursor names the game and the last phase number a page held; clients must treat it as
opaque (its form may change). A cursor of another game, or anything that does not decode,
is 400 ``BAD_CURSOR`` and reads nothing.
"""

from __future__ import annotations

import base64
import binascii

from functions.errors import BadCursor

_VERSION = "h1"


def encode_cursor(game_id: str, after: int) -> str:
    raw = f"{_VERSION}:{game_id}:{after}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(game_id: str, cursor: str | None) -> int:
    """The phase number to continue after (-1 without a cursor: phases count from 0)."""
    if not cursor:
        return -1
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise BadCursor("this cursor is not one a history page gave") from None
    version, _, rest = raw.partition(":")
    cursor_game, _, after = rest.rpartition(":")
    if version != _VERSION or cursor_game != game_id or not after.isdigit() or len(after) > 9:
        raise BadCursor("this cursor is not one this game's history gave")
    return int(after)
