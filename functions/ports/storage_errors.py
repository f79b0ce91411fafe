"""What a store raises, whatever the store: the port's vocabulary (``GameStore.load`` raises
``ItemNotFound``; a lost race is ``StaleVersion``; an unreachable store ``StorageUnavailable``)."""

from __future__ import annotations

# Adapters translate their own failures (botocore ClientError: infra/errors.py) into these;
# use cases and fakes raise and catch the same classes.


class StorageError(Exception):
    """A storage operation failed for a reason the caller cannot fix by retrying."""


class StorageUnavailable(StorageError):
    """The store could not be reached, timed out or throttled us: nothing was decided,
    and the same request (same Idempotency-Key) may simply be sent again."""


class StaleVersion(StorageError):
    """Someone else wrote the game first: the version we read is no longer current."""

    def __init__(self, game_id: str, expected_version: int) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version


class ItemNotFound(StorageError):
    """The game (or item) does not exist."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id} not found")
        self.game_id = game_id


class AlreadyExists(StorageError):
    """A create found an item already there (id collision)."""
