"""Storage errors in domain words: adapters translate ``ClientError`` into these.

Nothing outside ``infra/`` ever sees a botocore ``ClientError``. This module has
no AWS imports so use cases and fakes can raise and catch the same classes.
"""

from __future__ import annotations


class StorageError(Exception):
    """A storage operation failed for a reason the caller cannot fix by retrying."""


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


def is_conditional_failure(error: BaseException) -> bool:
    """True for a botocore ClientError caused by a failed condition (plain or in a transaction)."""
    response = getattr(error, "response", None)
    if not isinstance(response, dict):
        return False
    code = response.get("Error", {}).get("Code", "")
    if code == "ConditionalCheckFailedException":
        return True
    if code == "TransactionCanceledException":
        reasons = response.get("CancellationReasons") or []
        # TransactionConflict: another transaction was writing the same item; for us
        # that is the same fact (someone else wrote first): reload and decide again.
        if any(r.get("Code") in ("ConditionalCheckFailed", "TransactionConflict") for r in reasons):
            return True
        # moto and some SDKs only carry the reasons in the message
        return "ConditionalCheckFailed" in response.get("Error", {}).get("Message", "")
    return False
